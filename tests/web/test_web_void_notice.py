"""The void notice (voidnotice.js) in a real browser: from a snapshot, an event, a result.

A restart voids a round before the server listens, so a page learns of it from the snapshot's
``last_round``; a round voided while the page watches arrives as a ``round_void`` event.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page
from web_support import call_module

pytest_plugins = ("web_support",)

REASON = "the table restarted before the cards were drawn; every stake is returned"
#: How the page words that reason (messages/en.js): a sentence of its own.
WORDED = "The table restarted before the cards were drawn; every stake is returned."


@pytest.fixture(scope="module")
def page(module_page: Page) -> Page:
    return module_page


def test_the_text_names_only_a_voided_round(page: Page) -> None:
    rounds: list[Any] = [
        {"id": 17, "shoe_number": 2, "number": 3, "phase": "voided", "void_reason": REASON},
        {"id": 18, "shoe_number": 2, "number": 4, "phase": "settled", "void_reason": None},
        None,
        {"phase": "voided"},
        # A shoe the table had not shown: the round in it is still named by its number.
        {"id": 19, "shoe_number": None, "number": 5, "phase": "voided", "void_reason": REASON},
    ]
    # The round as the table names it (its shoe and its number there), never the server-wide id.
    assert call_module(page, "voidnotice.js", "voidText", [[r] for r in rounds]) == [
        "Shoe 2 · Round 3 void — stakes returned",
        None,
        None,
        None,
        "Shoe – · Round 5 void — stakes returned",
    ]


def test_the_notice_follows_snapshots_events_results_and_dismissal(page: Page) -> None:
    seen = page.evaluate(
        """async (reason) => {
             const { voidNotice } = await import("/static/js/voidnotice.js");
             const notice = voidNotice();
             document.body.append(notice.el);
             const look = () => ({
               visible: notice.el.checkVisibility(),
               // A hidden element's innerText is its raw text (the dismiss button's ✕).
               text: notice.el.hidden ? "" : notice.el.innerText.replace(/\\s+/g, " ").trim(),
             });
             const steps = {};
             steps.fresh = look();
             notice.fromSnapshot({ id: 17, shoe_number: 2, number: 3, phase: "voided", void_reason: reason });
             steps.snapshot = look();
             notice.resulted();
             steps.result = look();
             notice.voided({ type: "round_void", round_id: 21, shoe_number: 2, number: 4, reason });
             steps.event = look();
             notice.el.querySelector("button").click();
             steps.dismissed = look();
             notice.fromSnapshot({ id: 21, shoe_number: 2, number: 4, phase: "voided", void_reason: reason });
             steps.again = look();
             notice.fromSnapshot({ id: 22, shoe_number: 2, number: 5, phase: "settled", void_reason: null });
             steps.settled = look();
             notice.el.remove();
             return steps;
           }""",
        REASON,
    )
    hidden = {"visible": False, "text": ""}
    assert seen["fresh"] == hidden
    assert seen["snapshot"]["visible"]
    assert seen["snapshot"]["text"].startswith("Shoe 2 · Round 3 void — stakes returned")
    assert WORDED in seen["snapshot"]["text"]
    assert seen["result"] == hidden
    assert seen["event"]["visible"]
    assert seen["event"]["text"].startswith("Shoe 2 · Round 4 void — stakes returned")
    # Dismissed: a reconnect's snapshot of the same round does not bring it back.
    assert seen["dismissed"] == hidden and seen["again"] == hidden
    assert seen["settled"] == hidden
