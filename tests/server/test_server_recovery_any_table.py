"""A table dropped from ``--tables`` after a crash: its round in play is finished at the start.

The server is killed with a round in play at the ``ez`` table (bets on it), then restarted with
``--tables standard`` only. Before the restarted server answers, the ez round is finished by the
crash policy as if its dealer had restarted (a table nobody deals has no reveal to give): voided
with every stake returned when no card was stored, settled on its stored cards when they were.
Either way it is audited, the ledger holds nothing in play, and ``ledger check`` passes.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from server_support import ledger_check, ledger_report, new_player, open_round, round_view
from serving import ServerProcess
from sqlalchemy import text

from baccarat.store import Database

CREDIT = 1_000_000
BETS = {"banker": 2500, "player": 1000}


def _audit_for(db_url: str, round_id: int) -> list[tuple[str, dict[str, object]]]:
    database = Database(db_url)
    try:
        with database.read() as c:
            rows = c.execute(text("SELECT action, details FROM audit_log ORDER BY seq")).all()
    finally:
        database.dispose()
    found = [(action, json.loads(details)) for action, details in rows]
    return [(action, details) for action, details in found if details.get("round") == round_id]


@pytest.mark.parametrize("phase", ["open", "dealing"])
def test_a_round_of_a_dropped_table_is_finished_at_the_start(
    phase: str, db_url: str, tmp_path: Path, servers: list[ServerProcess]
) -> None:
    server = ServerProcess(db_url, tmp_path, tables="standard,ez", betting_seconds=3.0)
    servers.append(server)
    server.start(pause_at=phase)
    with server.client() as anonymous:
        player_id, token = new_player(anonymous)
        round_id = open_round(anonymous, "ez", min_left_ms=2_000)
    with server.client(token) as client:
        response = client.post(
            "/api/tables/ez/bets",
            json={"round_id": round_id, "bets": BETS},
            headers={"Idempotency-Key": "dropped-1"},
        )
        assert response.status_code == 200, response.text
    assert server.wait_for_pause(phase) == round_id
    server.kill()
    down = ledger_report(db_url)
    assert down.ok and down.in_play == sum(BETS.values()), down.problems

    server.args[server.args.index("--tables") + 1] = "standard"
    server.start()
    with server.client(token) as client:
        # Finished before the restarted server answered anything.
        view = round_view(client, round_id)
        me = client.get("/api/me").json()
        tables = [t["id"] for t in client.get("/api/tables").json()]
    assert tables == ["standard"]
    assert view["phase"] in ("voided", "settled"), view
    outcomes = {item["outcome"] for item in view["bets"]}
    returned = sum(item["returned"] for item in view["bets"])
    audit = _audit_for(db_url, round_id)
    if phase == "open":
        assert view["phase"] == "voided"
        assert "no longer dealt" in view["void_reason"]
        assert outcomes == {"voided"} and returned == sum(BETS.values())
        assert [action for action, _ in audit] == ["round_void"]
        assert audit[0][1]["returned"] == {player_id: sum(BETS.values())}
    else:
        # Its cards were fixed before any was shown: it settles on them, as the rules page says.
        assert view["phase"] == "settled" and view["void_reason"] is None
        assert outcomes == {"settled"} and len(view["cards"]) >= 4
        assert [action for action, _ in audit] == ["round_settle"]
    assert me["balance"] == CREDIT - sum(BETS.values()) + returned
    server.stop()
    report = ledger_check(db_url)
    assert report["ok"] and report["in_play"] == 0, report
