"""Kill -9 of the server in each phase of a round, then a restart: nothing lost, nothing twice.

The dealer is stopped at a chosen point by the test-only hook ``BACCARAT_TEST_PAUSE_AT``
(in the first round that has bets), the process is killed with SIGKILL there, the ledger is
checked while it is down, and a new process on the same database finishes the round by the
crash policy: a round without stored cards is voided with every stake returned; a round with
stored cards is resumed with exactly those cards and settled once.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from server_support import ledger_report, new_player, open_round, round_view, wait_round_final
from serving import ServerProcess
from sqlalchemy import text

from baccarat.store import Database

CREDIT = 1_000_000
BETS = [{"player": 1000, "tie": 100}, {"banker": 2500}, {"player_pair": 300, "banker": 700}]


def _outcomes_per_bet(db_url: str, round_id: int) -> list[int]:
    database = Database(db_url)
    try:
        with database.read() as connection:
            rows = connection.execute(
                text(
                    "SELECT b.id, count(o.bet_id) FROM bets b "
                    "LEFT JOIN bet_outcomes o ON o.bet_id = b.id "
                    "WHERE b.round_id = :r GROUP BY b.id"
                ),
                {"r": round_id},
            )
            return [int(n) for _, n in rows]
    finally:
        database.dispose()


@pytest.mark.parametrize("phase", ["open", "closing", "dealing", "settling"])
def test_kill_9_in_each_phase_then_restart(
    phase: str, db_url: str, tmp_path: Path, servers: list[ServerProcess]
) -> None:
    # A window that three players' bets fit in on a loaded machine (1.5 s was missed under load).
    server = ServerProcess(db_url, tmp_path, betting_seconds=4, reveal_ms=20, result_ms=50)
    servers.append(server)
    server.start(pause_at=phase)
    with server.client() as anonymous:
        players = [new_player(anonymous) for _ in BETS]
        round_id = open_round(anonymous, "standard", min_left_ms=3000)
    for (_, token), bets in zip(players, BETS, strict=True):
        with server.client(token) as client:
            response = client.post(
                "/api/tables/standard/bets",
                json={"round_id": round_id, "bets": bets},
                headers={"Idempotency-Key": f"k-{token[:8]}"},
            )
            assert response.status_code == 200, response.text
    assert server.wait_for_pause(phase) == round_id

    with server.client() as anonymous:
        seen = round_view(anonymous, round_id)
        table = anonymous.get("/api/tables/standard").json()
        if phase == "open":
            # The dealer has not closed the round, but the database clock is past the deadline.
            _, token = players[0]
            with server.client(token) as client:
                late = client.post(
                    "/api/tables/standard/bets",
                    json={"round_id": round_id, "bets": {"player": 100}},
                    headers={"Idempotency-Key": "late"},
                )
            assert late.status_code == 409 and late.json()["error"]["code"] == "betting_closed"
            assert seen["phase"] == "open"
    shown = [card["card"] for card in seen["cards"]]
    if phase == "dealing":
        assert len(shown) == 2 and table["cards"] == seen["cards"]
    elif phase == "settling":
        assert 4 <= len(shown) <= 6 and seen["winner"] is not None
    else:
        assert shown == []

    server.kill()
    down = ledger_report(db_url)
    assert down.ok and down.total == 0, down.problems
    assert down.in_play == sum(sum(b.values()) for b in BETS)

    server.start()
    with server.client() as anonymous:
        final = wait_round_final(anonymous, round_id)
    if phase in ("open", "closing"):
        assert final["phase"] == "voided" and "restarted" in final["void_reason"]
        assert final["cards"] == []
    else:
        assert final["phase"] == "settled"
        cards = [card["card"] for card in final["cards"]]
        assert cards[: len(shown)] == shown  # the resumed round shows the same cards
    assert _outcomes_per_bet(db_url, round_id) == [1] * sum(len(b) for b in BETS)

    for (_, token), bets in zip(players, BETS, strict=True):
        with server.client(token) as client:
            view = round_view(client, round_id)
            staked: Counter[str] = Counter()
            for item in view["bets"]:
                staked[item["spot"]] += item["stake"]
                assert item["outcome"] == ("voided" if phase in ("open", "closing") else "settled")
            assert staked == Counter(bets)
            returned = sum(item["returned"] for item in view["bets"])
            if phase in ("open", "closing"):
                assert returned == sum(bets.values())
            me = client.get("/api/me").json()
            assert me["balance"] == CREDIT - sum(bets.values()) + returned
    server.stop()
    after = ledger_report(db_url)
    assert after.ok, after.problems
    # Nothing created or destroyed: the players' credit is with them, the house or in play.
    assert after.player_money + after.house + after.in_play == len(BETS) * CREDIT
