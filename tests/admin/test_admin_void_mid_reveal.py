"""An operator voids a round mid-reveal (a misdeal): the round's own rule allows it, the
runtime dealing the table carries it out, every stake comes back, the void is audited and
the feed announces it; the table deals on, and the shoe's record keeps the voided coup."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from admin_support import ROLES, Admin, add_staff
from clock_driver import ClientClock
from fastapi.testclient import TestClient

from baccarat.server import Settings, create_app, tables_from
from baccarat.server.clock import VirtualClock
from baccarat.verify import verify_record

#: A reveal's pause, in virtual milliseconds: the clock stands still between two cards.
REVEAL_MS = 3_000


@pytest.fixture
def admin_clock(tmp_path: Path) -> Iterator[tuple[Admin, ClientClock]]:
    db_url = f"sqlite:///{tmp_path / 'void.db'}"
    for role in ROLES:
        add_staff(db_url, f"staff-{role}", role)
    tables = tables_from(["standard"], betting_ms=60_000, reveal_ms=REVEAL_MS, result_ms=10)
    app = create_app(Settings(db=db_url, tables=tables), clock=VirtualClock())
    with TestClient(app, client=("127.0.0.1", 50_000)) as client:
        clock = ClientClock(client)
        clock.settle()
        yield Admin(client, db_url), clock


def _balance(admin: Admin, token: str) -> int:
    value: int = admin.call("GET", "/api/me", token).json()["balance"]
    return value


def test_a_round_voided_mid_reveal_returns_every_stake_audited_and_announced(
    admin_clock: tuple[Admin, ClientClock],
) -> None:
    admin, clock = admin_clock
    (alice, alice_token), (bob, bob_token) = admin.guest(), admin.guest()
    before = {alice: _balance(admin, alice_token), bob: _balance(admin, bob_token)}
    with admin.client.websocket_connect("/ws/tables/standard") as feed:
        round_id = int(clock.open_round()["round"]["id"])
        assert admin.bet(alice_token, round_id, {"banker": 1_000, "tie": 100}).status_code == 200
        assert admin.bet(bob_token, round_id, {"player": 500}).status_code == 200

        def one_card_shown() -> dict[str, Any] | None:
            table: dict[str, Any] = admin.call("GET", "/api/tables/standard").json()
            shown = table["round"]["id"] == round_id and len(table["cards"]) >= 1
            return table if shown else None

        table = clock.advance_until(one_card_shown, "the first card of the round")
        assert table["round"]["phase"] == "dealt"  # the coup is drawn: mid-reveal
        voided = admin.as_role(
            "operator", "POST", f"/api/admin/rounds/{round_id}/void", json={"reason": "misdeal"}
        )
        assert voided.status_code == 200, voided.text
        assert voided.json()["returned"] == {alice: 1_100, bob: 500}
        assert voided.json()["round"]["phase"] == "voided"

        # The feed announces the void before any later round, and no card of the round after
        # it (the feed may have joined before the round opened: earlier messages are skipped).
        messages: list[dict[str, Any]] = []
        while not any(m["type"] == "round_void" for m in messages):
            messages.append(feed.receive_json())
            later = messages[-1]["type"] == "round_open" and messages[-1]["round_id"] > round_id
            assert not later, messages
        void = messages[-1]
        assert (void["round_id"], void["reason"]) == (round_id, "misdeal")
        cards = [m for m in messages if m["type"] == "card" and m["round_id"] == round_id]
        assert len(cards) == 1  # the clock stood still after the first card
        snapshot = admin.call("GET", "/api/tables/standard").json()
        assert snapshot["last_round"]["phase"] == "voided"

    # Every stake back, the stored views show only the cards that were turned.
    assert _balance(admin, alice_token) == before[alice]
    assert _balance(admin, bob_token) == before[bob]
    view = admin.round_view(round_id)
    assert (view["phase"], view["void_reason"]) == ("voided", "misdeal")
    assert len(view["cards"]) == 1
    detail = admin.as_role("auditor", "GET", f"/api/admin/rounds/{round_id}").json()
    assert {bet["outcome"] for bet in detail["bets"]} == {"voided"}
    record = next(r for r in reversed(admin.audit()) if r["action"] == "round_void")
    assert record["actor"] == "staff:staff-operator"
    assert f'"round":{round_id}' in record["details"] and '"role":"operator"' in record["details"]
    assert '"reason":"misdeal"' in record["details"]
    assert admin.ledger_problems() == []
    # Once voided it stays so, and the table deals on from the shoe after the voided coup.
    again = admin.as_role(
        "admin", "POST", f"/api/admin/rounds/{round_id}/void", json={"reason": "x"}
    )
    assert (again.status_code, again.json()["error"]["code"]) == (409, "round_finished")
    following = clock.open_round(after=round_id)
    assert following["round"]["id"] > round_id

    # Ended early by an operator, the shoe's record keeps the voided coup with all its cards
    # (they left the shoe), settling nothing, so every later coup lines up with the order.
    shoe = following["shoe"]["id"]
    asked = admin.as_role(
        "operator", "POST", "/api/admin/tables/standard/new-shoe", json={"reason": "misdeal"}
    )
    assert asked.status_code == 200, asked.text
    clock.advance_until(
        lambda: admin.call("GET", f"/api/shoes/{shoe}").json()["status"] == "ended" or None,
        "the shoe to end",
    )
    shoe_record = admin.call("GET", f"/api/shoes/{shoe}/record").json()
    report = verify_record(shoe_record)
    assert report.ok and report.not_dealt > 0 and shoe_record["ended_early"] is True
    marked = [number for number, coup in enumerate(shoe_record["coups"]) if coup.get("voided")]
    assert len(marked) == 1
    voided_coup = shoe_record["coups"][marked[0]]
    assert voided_coup["wagers"] == [] and len(voided_coup["cards"]) >= 4
    assert voided_coup["cards"][0] == view["cards"][0]["card"]
