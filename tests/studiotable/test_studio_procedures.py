"""The studio's procedures, each with its audit row, its feed notice and money conserved: an
impossible card halts the table with nothing settled until a supervisor resolves it; a card
drawn while betting is open voids the round (or is burned, by the table's setting); a misscan
counts only once a supervisor confirms it. And who may do what: a device token pushes cards
to its own table and nothing else, a dealer reaches no back-office money action, a player
no studio route."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from studiotable_support import BETTING_MS, TABLE, Studio, running_studio


@pytest.fixture
def studio(tmp_path: Path) -> Iterator[Studio]:
    with running_studio(tmp_path) as running:
        running.new_shoe("Ac Kd")
        yield running


def _actions(studio: Studio) -> list[str]:
    return [row["action"] for row in studio.audit()]


def _notices(feed: Any, wanted: str) -> dict[str, Any]:
    while True:
        message = feed.receive_json()
        if message["type"] == "studio" and message.get("notice") == wanted:
            return dict(message)


def test_an_impossible_card_halts_the_table_and_nothing_settles_until_resolved(
    studio: Studio,
) -> None:
    _, token = studio.guest()
    before = studio.balance(token)
    round_id = studio.open_round()
    assert studio.bet(token, round_id, {"banker": 1_000}).status_code == 200
    studio.dealer("POST", "close")
    studio.clock.settle()
    for card in ["4h", "3c", "2d"]:
        studio.read_ok(card)
    with studio.client.websocket_connect(f"/ws/tables/{TABLE}") as feed:
        # The shoe sends a scan id it sent before, with another card: it cannot be next.
        conflict = studio.read("9s", "shoe1:000001")
        assert conflict.status_code == 409, conflict.text
        assert conflict.json()["error"]["code"] == "table_halted"
        notice = _notices(feed, "halted")
        assert notice["studio"]["halted"] is True and "detail" not in notice
    assert studio.console()["next"] == "halted"
    # Nothing counts while halted, and nothing settles: the round stays dealt.
    assert studio.read("5d").json()["error"]["code"] == "table_halted"
    studio.clock.advance(60_000)
    assert studio.round_view(round_id)["phase"] == "closed"
    assert studio.balance(token) == before - 1_000
    # A dealer cannot resolve it; a supervisor voids the round: every stake back.
    assert (
        studio.call(
            "POST",
            f"/api/studio/tables/{TABLE}/halt/void",
            studio.tokens["dealer"],
            json={"reason": "x"},
        ).status_code
        == 403
    )
    assert studio.supervisor("halt/void", "scan id reused by the shoe").status_code == 200
    view = studio.wait_final(round_id)
    assert view["phase"] == "voided" and studio.balance(token) == before
    assert {"studio_halt", "studio_impossible_void", "round_void"} <= set(_actions(studio))
    assert studio.console()["next"] in ("wait_bets", "result")
    assert studio.ledger_problems() == []


def test_a_supervisor_sets_an_impossible_read_aside_and_the_round_goes_on(
    studio: Studio,
) -> None:
    _, token = studio.guest()
    round_id = studio.open_round()
    assert studio.bet(token, round_id, {"player": 1_000}).status_code == 200
    studio.dealer("POST", "close")
    studio.clock.settle()
    studio.read_ok("4h")
    assert studio.read("Qs", "shoe1:000001").status_code == 409
    assert studio.supervisor("halt/discard", "the reader sent an old scan").status_code == 200
    for card in ["3c", "2d", "2s", "7h"]:
        studio.read_ok(card)
    assert studio.wait_final(round_id)["phase"] == "settled"
    assert "studio_impossible_discard" in _actions(studio)
    assert studio.ledger_problems() == []


def test_a_card_drawn_while_betting_is_open_voids_the_round(studio: Studio) -> None:
    _, token = studio.guest()
    before = studio.balance(token)
    round_id = studio.open_round()
    assert studio.bet(token, round_id, {"player": 500, "tie": 100}).status_code == 200
    with studio.client.websocket_connect(f"/ws/tables/{TABLE}") as feed:
        early = studio.read_ok("8d")
        assert early["position"] == "burned"
        _notices(feed, "before_time_void")
    view = studio.wait_final(round_id)
    assert view["phase"] == "voided" and "game before time" in view["void_reason"]
    assert studio.balance(token) == before
    void_rows = [row for row in studio.audit() if row["action"] == "round_void"]
    assert void_rows and json.loads(void_rows[-1]["details"])["card"] == "8d"
    assert studio.ledger_problems() == []


def test_a_table_that_burns_early_cards_keeps_its_round_open(tmp_path: Path) -> None:
    with running_studio(tmp_path, before_time="burn") as studio:
        studio.new_shoe("Ac Kd")
        round_id = studio.open_round()
        assert studio.read_ok("8d")["position"] == "burned"
        assert studio.console()["round"]["phase"] == "open"
        assert "studio_card_burned" in _actions(studio)
        assert studio.round_view(round_id)["phase"] == "open"


def test_a_misscan_counts_only_once_a_supervisor_confirms_it(studio: Studio) -> None:
    round_id = studio.open_round()
    studio.dealer("POST", "close")
    studio.clock.settle()
    studio.read_ok("4h")
    typed = studio.dealer("POST", "misscan", json={"card": "3c", "reason": "not read"})
    assert typed.status_code == 200, typed.text
    assert typed.json()["next"] == "misscan_pending" and typed.json()["pending"][0]["card"] == "3c"
    # Nothing counts before it, and the card is not shown.
    assert studio.read("2d").json()["error"]["code"] == "misscan_pending"
    assert [c["card"] for c in studio.console()["cards"]] == ["4h"]
    confirmed = studio.supervisor("misscan/confirm", "seen on camera")
    assert confirmed.status_code == 200, confirmed.text
    assert [c["card"] for c in confirmed.json()["cards"]] == ["4h", "3c"]
    assert confirmed.json()["next"] == "player_2"
    assert {"studio_misscan", "studio_misscan_confirm"} <= set(_actions(studio))
    assert round_id


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("GET", f"/api/studio/tables/{TABLE}", None),
        ("POST", f"/api/studio/tables/{TABLE}/shoe", {"shuffled_by": "x"}),
        ("POST", f"/api/studio/tables/{TABLE}/close", None),
        ("POST", f"/api/studio/tables/{TABLE}/misscan", {"card": "Ah", "reason": "x"}),
        ("POST", f"/api/studio/tables/{TABLE}/halt/discard", {"reason": "x"}),
        ("GET", "/api/me", None),
        ("GET", "/api/admin/players", None),
    ],
)
def test_a_device_token_pushes_cards_and_does_nothing_else(
    studio: Studio, method: str, path: str, body: dict[str, Any] | None
) -> None:
    response = studio.call(method, path, studio.device, json=body)
    assert response.status_code in (401, 403), (path, response.status_code, response.text)


def test_a_device_token_cannot_bet_or_push_to_another_table(studio: Studio) -> None:
    round_id = studio.open_round()
    bet = studio.bet(studio.device, round_id, {"player": 100})
    assert bet.status_code == 401, bet.text
    other = studio.call(
        "POST",
        f"/api/studio/tables/{TABLE}/cards",
        studio.other_device,
        json={"card": "Ah", "scan_id": "x:1"},
    )
    assert other.status_code == 403 and other.json()["error"]["code"] == "device_forbidden"
    assert studio.console()["studio"]["reads"] == 2  # only the burn


def test_a_dealer_reaches_no_money_action_and_a_player_no_studio_route(studio: Studio) -> None:
    dealer = studio.tokens["dealer"]
    player_id, player = studio.guest()
    for method, path, body in [
        ("POST", f"/api/admin/players/{player_id}/lock", {"reason": "x"}),
        ("GET", "/api/admin/players", None),
        ("POST", f"/api/admin/tables/{TABLE}/pause", {"reason": "x"}),
        ("POST", f"/api/studio/tables/{TABLE}/misscan/confirm", {"reason": "x"}),
    ]:
        response = studio.call(method, path, dealer, json=body)
        assert response.status_code == 403, (path, response.text)
    for method, path, body in [
        ("GET", f"/api/studio/tables/{TABLE}", None),
        ("POST", f"/api/studio/tables/{TABLE}/cards", {"card": "Ah", "scan_id": "p:1"}),
        ("POST", f"/api/studio/tables/{TABLE}/shoe", {"shuffled_by": "x"}),
    ]:
        response = studio.call(method, path, player, json=body)
        assert response.status_code == 401, (path, response.text)
    assert studio.call("GET", f"/api/studio/tables/{TABLE}").status_code == 401
    # A dealer has a session like any member of staff: who they are, and logging out.
    me = studio.call("GET", "/api/admin/me", dealer)
    assert me.status_code == 200 and me.json()["role"] == "dealer"
    assert studio.call("POST", "/api/admin/logout", dealer).status_code == 204
    assert studio.call("GET", f"/api/studio/tables/{TABLE}", dealer).status_code == 401


@pytest.mark.parametrize(
    "body",
    [
        {"card": "1h", "scan_id": "a:1"},
        {"card": "Ahh", "scan_id": "a:1"},
        {"card": "Ah", "scan_id": ""},
        {"card": "Ah", "scan_id": "x" * 65},
        {"card": "Ah", "scan_id": "a b"},
        {"card": "Ah"},
        {"card": "Ah", "scan_id": "a:1", "extra": 1},
    ],
)
def test_a_bad_read_is_a_422_and_changes_nothing(studio: Studio, body: dict[str, Any]) -> None:
    response = studio.call("POST", f"/api/studio/tables/{TABLE}/cards", studio.device, json=body)
    assert response.status_code == 422, response.text
    assert studio.console()["studio"]["reads"] == 2


def test_a_dealer_change_is_audited_and_shown_and_a_pause_holds_the_next_round(
    studio: Studio,
) -> None:
    with studio.client.websocket_connect(f"/ws/tables/{TABLE}") as feed:
        taken = studio.dealer("POST", "dealer")
        assert taken.status_code == 200, taken.text
        notice = _notices(feed, "dealer_change")
        assert notice["detail"] == "staff-dealer" and notice["studio"]["dealer"] == "staff-dealer"
    # A supervisor takes the table over: the change names who was seated before.
    assert studio.supervisor("dealer").status_code == 200
    changes = [
        json.loads(r["details"]) for r in studio.audit() if r["action"] == "studio_dealer_change"
    ]
    assert [(c["before"], c["after"]) for c in changes] == [
        (None, "staff-dealer"),
        ("staff-dealer", "staff-operator"),
    ]
    assert studio.console()["studio"]["dealer"] == "staff-operator"
    round_id = studio.open_round()
    paused = studio.dealer("POST", "pause", json={"reason": "dealer break"})
    assert paused.status_code == 200, paused.text
    assert paused.json()["status"] == "paused"
    studio.dealer("POST", "close")
    studio.clock.settle()
    for card in ["4h", "3c", "2d", "2s", "7h"]:
        studio.read_ok(card)
    assert studio.wait_final(round_id)["phase"] == "settled"  # the round in play finishes
    studio.clock.advance(BETTING_MS * 3)
    assert studio.console()["round"]["id"] == round_id  # and no new one opens
    assert "table_pause" in _actions(studio)
    assert studio.dealer("POST", "resume", json={"reason": "back"}).status_code == 200
    assert studio.open_round() > round_id
    # An auditor runs no console.
    auditor = studio.call("POST", f"/api/studio/tables/{TABLE}/dealer", studio.tokens["auditor"])
    assert auditor.status_code == 403


def test_a_misdeal_where_the_house_deals_a_dummy_hand_keeps_the_shoes_sequence(
    tmp_path: Path,
) -> None:
    with running_studio(tmp_path, exposed="dummy") as studio:
        studio.new_shoe("Ac Kd")
        _, token = studio.guest()
        before = studio.balance(token)
        round_id = studio.open_round()
        assert studio.bet(token, round_id, {"banker": 1_000}).status_code == 200
        studio.dealer("POST", "close")
        studio.clock.settle()
        studio.read_ok("4h")
        studio.read_ok("3c")
        with studio.client.websocket_connect(f"/ws/tables/{TABLE}") as feed:
            misdeal = studio.dealer("POST", "misdeal", json={"reason": "card exposed"})
            assert misdeal.status_code == 200, misdeal.text
            _notices(feed, "dummy_hand")
        assert studio.balance(token) == before  # every stake back
        console = studio.console()
        assert console["studio"]["dummy"] is True and console["next"] == "player_2"
        assert console["studio"]["dummy_cards"] == ["4h", "3c"]
        # The coup is dealt on with no bets: the shoe's sequence is kept.
        positions = [studio.read_ok(card)["position"] for card in ["2d", "2s", "7h"]]
        assert positions == ["player_2", "banker_2", "banker_3"]
        assert studio.console()["studio"]["dummy"] is False
        assert studio.open_round() > round_id  # then rounds go on
        assert studio.balance(token) == before
        assert studio.ledger_problems() == []


def test_the_house_chooses_a_studio_tables_procedures_from_its_next_shoe(studio: Studio) -> None:
    operator = studio.tokens["operator"]
    change = studio.call(
        "PUT",
        f"/api/admin/tables/{TABLE}/next-shoe",
        operator,
        json={"reason": "house rule", "exposed": "dummy", "before_time": "burn"},
    )
    assert change.status_code == 200, change.text
    assert studio.console()["settings"]["exposed"] == "void"  # not before the next shoe
    bad = studio.call(
        "PUT",
        f"/api/admin/tables/{TABLE}/next-shoe",
        operator,
        json={"reason": "x", "exposed": "maybe"},
    )
    assert bad.status_code == 422
    round_id = studio.open_round()
    studio.dealer("POST", "close")
    studio.clock.settle()
    for card in ["4h", "3c", "2d", "2s", "7h"]:
        studio.read_ok(card)
    studio.wait_final(round_id)
    # The dealer changes shoes: the house's new procedures apply from the new one.
    assert studio.dealer("POST", "shoe", json={"shuffled_by": "dana"}).status_code == 201
    studio.clock.advance(1_000)
    for card in ["Ac", "Kd"]:
        studio.read_ok(card)
    studio.clock.settle()
    settings = studio.console()["settings"]
    assert (settings["exposed"], settings["before_time"]) == ("dummy", "burn")
