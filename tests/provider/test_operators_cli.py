"""``baccarat operator add|rotate|list|disable``: the secret printed once and stored sealed, the
old secret kept for the grace, each change audited, bad input one line and exit 2 with
nothing changed."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select
from typer.testing import CliRunner

from baccarat.cli import app
from baccarat.cli.app import console
from baccarat.store import Database, db_now, upgrade
from baccarat.store.audit_log import audit_rows
from baccarat.store.keyfile import KeySource
from baccarat.store.operators import find_operator, list_operators, operator_secrets
from baccarat.store.schema import operators

ADD = [
    "operator",
    "add",
    "casino-1",
    "--name",
    "Kasino Nusantara",
    "--wallet-url",
    "https://wallet.example/api",
    "--currency",
    "IDR",
]


def _db(tmp_path: Path) -> tuple[str, Database]:
    url = f"sqlite:///{tmp_path / 'operators.db'}"
    database = Database(url)
    upgrade(database)
    return url, database


def _secret(output: str) -> bytes:
    """The secret a command printed: its last line, 64 hex digits."""
    line = output.strip().splitlines()[-1]
    assert len(line) == 64
    return bytes.fromhex(line)


def test_add_rotate_list_disable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The list is a table as wide as the terminal: a wide one, whatever runs the test.
    monkeypatch.setattr(console, "width", 200)
    url, database = _db(tmp_path)
    runner = CliRunner()
    vault = KeySource(None).vault()  # the tests' $BACCARAT_SEED_KEY, as the command reads it
    try:
        added = runner.invoke(app, [*ADD, "--timeout-ms", "1500", "--db", url])
        assert added.exit_code == 0, added.output
        first = _secret(added.output)
        with database.read() as c:
            now = db_now(c)
            assert operator_secrets(c, vault, "casino-1", now) == [first]
            sealed = c.scalar(select(operators.c.secret_sealed))
            found = find_operator(c, "casino-1")
        assert sealed is not None and first.hex() not in sealed
        assert found is not None and (found.currency, found.timeout_ms) == ("IDR", 1500)

        rotated = runner.invoke(app, ["operator", "rotate", "casino-1", "--db", url])
        assert rotated.exit_code == 0, rotated.output
        second = _secret(rotated.output)
        assert "accepted until" in rotated.output
        with database.read() as c:
            now = db_now(c)
            assert operator_secrets(c, vault, "casino-1", now) == [second, first]
            assert operator_secrets(c, vault, "casino-1", now + 24 * 3_600_000 + 60_000) == [second]

        listed = runner.invoke(app, ["operator", "list", "--db", url])
        assert listed.exit_code == 0, listed.output
        assert "casino-1" in listed.output and "Kasino Nusantara" in listed.output
        assert first.hex() not in listed.output and second.hex() not in listed.output

        disabled = runner.invoke(app, ["operator", "disable", "casino-1", "--db", url])
        assert disabled.exit_code == 0, disabled.output
        with database.read() as c:
            assert operator_secrets(c, vault, "casino-1", db_now(c)) == []
            actions = [row["action"] for row in audit_rows(c)]
        assert actions == ["operator_add", "operator_rotate", "operator_disable"]
    finally:
        database.dispose()


@pytest.mark.parametrize(
    ("arguments", "says"),
    [
        (["operator", "add", "Casino", *ADD[3:]], "an operator id is"),
        ([*ADD[:-1], "XBT"], "the currency must be"),
        ([*ADD, "--timeout-ms", "5"], "the timeout must be"),
        ([*ADD[:6], "mailto:x@example.com", *ADD[7:]], "the wallet URL"),
        ([*ADD[:3], "--name", "", *ADD[5:]], "an operator's name"),
        (["operator", "rotate", "nobody"], "no operator 'nobody'"),
        (["operator", "rotate", "casino-0", "--grace-hours", "-1"], "--grace-hours"),
        (["operator", "disable", "nobody"], "no operator 'nobody'"),
        (["operator", "add", "casino-1"], "Missing option"),
    ],
)
def test_bad_input_is_one_line_and_changes_nothing(
    tmp_path: Path, arguments: list[str], says: str
) -> None:
    url, database = _db(tmp_path)
    runner = CliRunner()
    try:
        made = runner.invoke(app, [*ADD[:2], "casino-0", *ADD[3:], "--db", url])
        assert made.exit_code == 0, made.output
        with database.read() as c:
            before = (list_operators(c), len(audit_rows(c)))
        result = runner.invoke(app, [*arguments, "--db", url])
        assert result.exit_code == 2, result.output
        assert len(result.output.strip().splitlines()) == 1, result.output
        assert says in result.output
        with database.read() as c:
            assert (list_operators(c), len(audit_rows(c))) == before
    finally:
        database.dispose()


def test_an_id_taken_is_refused(tmp_path: Path) -> None:
    url, database = _db(tmp_path)
    runner = CliRunner()
    try:
        assert runner.invoke(app, [*ADD, "--db", url]).exit_code == 0
        again = runner.invoke(app, [*ADD, "--db", url])
        assert again.exit_code == 2 and "already" in again.output
        assert len(again.output.strip().splitlines()) == 1
    finally:
        database.dispose()
