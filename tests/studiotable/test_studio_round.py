"""A studio round end to end through the shoe device's HTTP interface: a new shoe and its burn,
a betting window, the dealer's early close, the coup read card by card (each shown on the
feed as it is read), settlement equal to what the same cards settle for at a table the server
deals, idempotent retries, and the ledger balanced."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from studiotable_support import TABLE, Studio, running_studio

from baccarat.cards import parse_cards
from baccarat.coup import deal
from baccarat.rulesets import load_ruleset
from baccarat.server.events import MESSAGES
from baccarat.settle import settle

COUP = "4h 3c 2d 2s 7h"  # Player 6 stands, Banker 5 draws the 7: Player wins 6 to 2
BETS = {"player": 1_000, "banker": 2_000, "tie": 100, "player_pair": 100}


@pytest.fixture
def studio(tmp_path: Path) -> Iterator[Studio]:
    with running_studio(tmp_path) as running:
        yield running


def _feed_cards(feed: Any, count: int) -> list[str]:
    """The codes of the next ``count`` card events on the feed, in order."""
    cards: list[str] = []
    while len(cards) < count:
        message = feed.receive_json()
        MESSAGES.validate_python(message)  # every message is one the schema describes
        if message["type"] == "card":
            cards.append(message["card"])
    return cards


def test_a_studio_round_is_read_card_by_card_and_settles_as_the_same_cards_do(
    studio: Studio,
) -> None:
    assert studio.console()["next"] == "shoe_change"
    refused = studio.read("9c")  # no shoe in play yet: nothing counts
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "no_shoe"
    studio.new_shoe("Ac Kd")  # an ace burns one more
    player, token = studio.guest()
    before = studio.balance(token)
    round_id = studio.open_round()
    assert studio.bet(token, round_id, BETS).status_code == 200
    assert studio.dealer("POST", "close").status_code == 200  # the dealer closes early
    studio.clock.settle()
    assert studio.console()["next"] == "player_1"
    with studio.client.websocket_connect(f"/ws/tables/{TABLE}") as feed:
        assert feed.receive_json()["type"] == "snapshot"
        answers = []
        for number, card in enumerate(COUP.split()):
            answers.append(studio.read_ok(card))
            # Each card is on the feed as soon as it is read, before the next one.
            assert _feed_cards(feed, 1) == [card]
            shown = studio.console()["cards"]
            assert [c["card"] for c in shown] == COUP.split()[: number + 1]
    assert [a["position"] for a in answers] == [
        "player_1",
        "banker_1",
        "player_2",
        "banker_2",
        "banker_3",
    ]
    assert [a["next"] for a in answers] == [
        "banker_1",
        "player_2",
        "banker_2",
        "banker_3",
        "result",
    ]
    assert [a["seq"] for a in answers] == [3, 4, 5, 6, 7]  # after the two burn cards
    assert all(a["round_id"] == round_id for a in answers)
    # A device's retry (same scan id, same card) is answered alike and changes nothing.
    again = studio.read("7h", answers[-1]["scan_id"])
    assert again.status_code == 200 and again.json() == {
        **answers[-1],
        "repeat": True,
        "next": again.json()["next"],
    }
    view = studio.wait_final(round_id)
    assert view["phase"] == "settled" and view["winner"] == "player"
    ruleset = load_ruleset("standard")
    coup = deal(parse_cards(COUP))
    expected = settle(BETS, coup, ruleset).returned
    assert studio.balance(token) == before - sum(BETS.values()) + expected
    assert studio.ledger_problems() == []
    assert player
