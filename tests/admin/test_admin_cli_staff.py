"""``baccarat admin list-users``, ``disable-user`` and ``reset-password``: what an admin does
with staff from the command line, each audited, bad input one line and exit 2, nothing
changed by a refused command."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select
from typer.testing import CliRunner

from baccarat.cli import app
from baccarat.passwords import hash_password, verify_password
from baccarat.store import Database, upgrade
from baccarat.store.audit_log import audit_rows
from baccarat.store.schema import staff_sessions, staff_users
from baccarat.store.staff import create_staff, open_staff_session

OLD = "Old-Pass-Long-9"
NEW = "New-Pass-Long-9"


def _db(tmp_path: Path) -> tuple[str, Database]:
    url = f"sqlite:///{tmp_path / 'staff.db'}"
    database = Database(url)
    upgrade(database)
    with database.write() as c:
        ani = create_staff(c, "ani", "dealer", hash_password(OLD), 0)
        create_staff(c, "budi", "operator", hash_password(OLD), 0)
        open_staff_session(c, ani.id, 1, 3_600_000)
    return url, database


def test_list_disable_and_reset(tmp_path: Path) -> None:
    url, database = _db(tmp_path)
    runner = CliRunner()
    try:
        listed = runner.invoke(app, ["admin", "list-users", "--db", url], env={"COLUMNS": "120"})
        assert listed.exit_code == 0, listed.output
        assert "ani" in listed.output and "dealer" in listed.output and "operator" in listed.output

        weak = runner.invoke(
            app,
            ["admin", "reset-password", "ani", "--db", url, "--password-stdin"],
            input="short\n",
        )
        assert weak.exit_code == 2 and len(weak.output.strip().splitlines()) == 1
        reset = runner.invoke(
            app,
            ["admin", "reset-password", "ani", "--db", url, "--password-stdin"],
            input=f"{NEW}\n",
        )
        assert reset.exit_code == 0, reset.output
        with database.read() as c:
            stored = c.execute(
                select(staff_users.c.password_hash).where(staff_users.c.username == "ani")
            ).scalar_one()
            open_sessions = c.execute(
                select(staff_sessions).where(staff_sessions.c.ended_at.is_(None))
            ).all()
        assert verify_password(stored, NEW) and not verify_password(stored, OLD)
        assert open_sessions == []  # the old password's session has ended

        disabled = runner.invoke(app, ["admin", "disable-user", "budi", "--db", url])
        assert disabled.exit_code == 0, disabled.output
        again = runner.invoke(app, ["admin", "disable-user", "budi", "--db", url])
        assert again.exit_code == 2 and "disabled already" in again.output
        nobody = runner.invoke(app, ["admin", "disable-user", "nobody", "--db", url])
        assert nobody.exit_code == 2 and "no member of staff 'nobody'" in nobody.output
        nobody = runner.invoke(
            app,
            ["admin", "reset-password", "nobody", "--db", url, "--password-stdin"],
            input=f"{NEW}\n",
        )
        assert nobody.exit_code == 2
        with database.read() as c:
            actions = [row["action"] for row in audit_rows(c)]
        assert actions == ["staff_password_reset", "staff_disable"]
    finally:
        database.dispose()
