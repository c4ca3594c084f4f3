"""The audit log: written with the actions it records, verified by ``baccarat audit verify``."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

from accounts_support import Service, db_url_fixture, service_fixture  # noqa: F401
from sqlalchemy import text
from typer.testing import CliRunner

from baccarat.cli import app
from baccarat.store import Database, upgrade
from baccarat.store.audit_log import append_audit, audit_rows, verify_audit_log

BIN = Path(sys.executable).parent


def _verify(db_url: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["audit", "verify", "--db", db_url])
    return result.exit_code, result.output


def _actions(db_url: str) -> list[str]:
    database = Database(db_url)
    try:
        with database.read() as c:
            return [row["action"] for row in audit_rows(c)]
    finally:
        database.dispose()


def _tamper(db_url: str, statement: str) -> None:
    database = Database(db_url)
    try:
        with database.write() as c:
            c.execute(text(statement))
    finally:
        database.dispose()


def _activity(service: Service) -> None:
    token = service.register_and_login("ivy")
    service.call("POST", "/api/sessions", json={"username": "ivy", "password": "wrong-one-1"})
    service.call(
        "PUT", "/api/me/limits", token, json={"kind": "wager", "period": "7d", "amount": 5_000}
    )
    service.call("DELETE", "/api/sessions/current", token)


def test_actions_are_recorded_and_a_changed_record_is_named(service: Service) -> None:
    _activity(service)
    assert _actions(service.db_url) == [
        "register",
        "login",
        "login_failed",
        "limit_change",
        "logout",
    ]
    code, output = _verify(service.db_url)
    assert code == 0 and "5 records" in output
    _tamper(service.db_url, 'UPDATE audit_log SET details = \'{"kind":"wager"}\' WHERE seq = 4')
    code, output = _verify(service.db_url)
    assert code == 1
    assert "record 4 was changed" in output
    assert "record 3" not in output and "record 5 was changed" not in output


def test_a_removed_record_is_named(service: Service) -> None:
    _activity(service)
    _tamper(service.db_url, "DELETE FROM audit_log WHERE seq = 2")
    code, output = _verify(service.db_url)
    assert code == 1 and "record 2 missing before 3" in output


def test_the_command_in_a_real_process_and_bad_urls(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'audit.db'}"
    database = Database(url)
    try:
        upgrade(database)
        with database.write() as c:
            append_audit(c, 1_700_000_000_000, "admin:ops", "void", {"round": 1})
            append_audit(c, 1_700_000_000_001, "admin:ops", "void", {"round": 2})
    finally:
        database.dispose()
    result = subprocess.run(
        [str(BIN / "baccarat"), "audit", "verify", "--db", url, "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    body = json.loads(result.stdout)
    assert body["ok"] and body["records"] == 2 and body["problems"] == []
    _tamper(url, "UPDATE audit_log SET actor = 'admin:other' WHERE seq = 1")
    result = subprocess.run(
        [str(BIN / "baccarat"), "audit", "verify", "--db", url],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1 and "record 1 was changed" in result.stdout
    assert _verify("mysql://nowhere/db")[0] == 2
    assert _verify(f"sqlite:///{tmp_path / 'absent.db'}")[0] == 2


def test_concurrent_appends_never_fork_the_chain(db_url: str) -> None:
    setup = Database(db_url)
    upgrade(setup)
    setup.dispose()
    errors: list[BaseException] = []

    def writer(name: str) -> None:
        database = Database(db_url)  # its own engine: a real concurrent writer
        try:
            for n in range(15):
                with database.write() as c:
                    append_audit(c, 1_700_000_000_000 + n, name, "test", {"n": n})
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            database.dispose()

    threads = [threading.Thread(target=writer, args=(f"w{i}",)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    database = Database(db_url)
    try:
        with database.read() as c:
            rows = audit_rows(c)
            assert [row["seq"] for row in rows] == list(range(1, 61))
            assert verify_audit_log(c) == []
    finally:
        database.dispose()
