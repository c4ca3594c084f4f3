"""``baccarat serve --studio-robot TABLE`` (what ``make serve`` runs): the demo's robot deals
the studio table through the device and the console, as an operator account whose password
is new at each start, with a device token of its own; a restart revokes the robot's earlier
token and ends the account's old sessions; a table that is not a studio's is refused in one
line; both starts are audited."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from clock_driver import wait_until
from serving import ServerProcess
from sqlalchemy import select
from typer.testing import CliRunner

from baccarat.cli import app
from baccarat.store import Database
from baccarat.store.audit_log import audit_rows
from baccarat.store.schema import device_tokens

TABLE = "standard-studio"


def _studio(server: ServerProcess) -> dict[str, Any]:
    view: dict[str, Any] = server.get(f"/api/tables/{TABLE}")
    return view


def test_the_demo_robot_deals_the_studio_table(
    tmp_path: Path, servers: list[ServerProcess]
) -> None:
    db_url = f"sqlite:///{tmp_path / 'demo.db'}"
    server = ServerProcess(
        db_url,
        tmp_path,
        tables="standard:studio",
        betting_seconds=0.5,
        options=["--studio-robot", TABLE],
    )
    servers.append(server)
    server.start()
    # It shuffles a shoe and reads its burn through the device, card by card.
    wait_until(lambda: (_studio(server)["studio"] or {}).get("reads", 0) >= 2, 30, "the burn")
    assert _studio(server)["shoe"]["kind"] == "studio"
    seated = wait_until(lambda: (_studio(server)["studio"] or {}).get("dealer"), 30, "a dealer")
    assert seated == "studio-robot"  # it takes the table as a dealer does
    server.stop()
    server.start()  # a restart: a new password and a new token, the old token revoked
    wait_until(lambda: _studio(server)["shoe"] is not None, 30, "the shoe again")
    database = Database(db_url)
    try:
        with database.read() as c:
            tokens = c.execute(
                select(device_tokens.c.label, device_tokens.c.revoked_at).where(
                    device_tokens.c.table_id == TABLE
                )
            ).all()
            actions = [row["action"] for row in audit_rows(c)]
    finally:
        database.dispose()
    assert sorted(revoked is None for _, revoked in tokens) == [False, True]
    assert actions.count("studio_robot_start") == 2


def test_the_robot_deals_only_a_studio_table(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app,
        [
            "serve",
            "--db",
            f"sqlite:///{tmp_path / 'x.db'}",
            "--tables",
            "standard",
            "--studio-robot",
            "standard",
        ],
    )
    assert result.exit_code == 2
    assert "--studio-robot names a studio table of --tables (none), not 'standard'" in result.output
