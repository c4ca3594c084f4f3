"""``baccarat wallet reconcile``: exit 0 for a clean period, 1 with orphans or a ledger that
disagrees (the orphans in the tables and in the JSON), 2 with one line for bad input."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from reconcile_support import Book, database_url, migrated, wallet_account
from typer.testing import CliRunner, Result

from baccarat.cli import app
from baccarat.server.admin_operator_models import instant_ms
from baccarat.store import Database
from baccarat.store.ledger import Transaction, post

T0 = instant_ms("2026-12-01T10:00")
DAY = ["--since", "2026-12-01", "--until", "2026-12-02"]


@pytest.fixture
def world(tmp_path: Path) -> Iterator[tuple[str, Database]]:
    with database_url("sqlite", tmp_path) as url:
        database = migrated(url)
        yield url, database
        database.dispose()


def _run(*args: str) -> Result:
    return CliRunner().invoke(app, ["wallet", "reconcile", *args])


def _error_line(result: Result) -> str:
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith("baccarat: error: "), result.output
    return lines[0]


def test_a_clean_period_exits_0_and_says_so(world: tuple[str, Database]) -> None:
    url, database = world
    book = Book(database, "casino-clean")
    player = book.player("vip-7")
    round_id = book.round("settled")
    debit = book.debit(player, round_id, 50_000, "confirmed", T0)
    book.end(debit, "credit", 97_500, "done", T0 + 5_000)
    result = _run("--db", url, "--operator", "casino-clean", *DAY)
    assert result.exit_code == 0, result.output
    assert "Rp 47.500" in result.output  # the net, in rupiah without sen
    assert "vip-7" in result.output and "OK" in result.output and "Orphans" not in result.output
    as_json = _run("--db", url, "--operator", "casino-clean", *DAY, "--json")
    assert as_json.exit_code == 0
    data = json.loads(as_json.output)
    assert data["clean"] is True and data["orphans"] == []
    assert data["total"] == {
        "debits": 1, "debited": 50_000, "credited": 97_500, "rolled_back": 0, "net": 47_500,
    }  # fmt: skip
    assert data["ledger"] == {"ledger": 47_500, "expected": 47_500, "ok": True}
    assert (
        data["since"] == "2026-12-01T00:00:00.000Z" and data["until"] == "2026-12-02T00:00:00.000Z"
    )
    [line] = data["lines"]
    assert line["debit"]["id"] == debit and line["end"]["amount"] == 97_500


def test_orphans_exit_1_and_are_listed(world: tuple[str, Database]) -> None:
    url, database = world
    book = Book(database, "casino-orph")
    player = book.player()
    settled = book.round("settled")
    never_ended = book.debit(player, settled, 1_000, "confirmed", T0)
    unknown = book.debit(player, settled, 2_000, "unknown", T0 + 1)
    credited = book.debit(player, settled, 3_000, "confirmed", T0 + 2)
    failed = book.end(credited, "credit", 6_000, "failed", T0 + 3, attempts=4)
    base = ["--db", url, "--operator", "casino-orph", "--since", "2026-12-01T09:00"]
    result = _run(*base, "--until", "2026-12-01T11:00", "--calls")
    assert result.exit_code == 1, result.output
    for text in ("Orphans", "debit_not_ended", "unknown_not_rolled_back", "outbox_failed", "FAIL"):
        assert text in result.output
    # --calls lists every debit (an id folds onto two lines in a narrow terminal).
    assert credited[:16] in result.output
    data = json.loads(_run(*base, "--json").output)
    kinds = {(o["kind"], o["call"]["id"]) for o in data["orphans"]}
    assert kinds == {
        ("debit_not_ended", never_ended),
        ("unknown_not_rolled_back", unknown),
        ("outbox_failed", failed),
    }
    assert data["clean"] is False and data["orphans_total"] == 3
    # Out of the period, nothing: clean.
    later = _run("--db", url, "--operator", "casino-orph", "--since", "2026-12-01T10:01")
    assert later.exit_code == 0, later.output


def test_a_ledger_that_disagrees_exits_1(world: tuple[str, Database]) -> None:
    url, database = world
    book = Book(database, "casino-led")
    with database.write() as c:
        entries = [(wallet_account("casino-led"), -5), ("house:standard", 5)]
        post(c, [Transaction("correction", entries)], T0)
    result = _run("--db", url, "--operator", "casino-led", *DAY)
    assert result.exit_code == 1, result.output
    assert "DISAGREES" in result.output
    data = json.loads(_run("--db", url, "--operator", "casino-led", *DAY, "--json").output)
    assert data["orphans"] == [] and data["ledger"]["ok"] is False
    assert book.operator == data["operator_id"]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--operator", "nobody", *DAY], "no operator 'nobody'"),
        (["--operator", "casino-x", "--since", "2026-13-01"], "not a date"),
        (["--operator", "casino-x", "--since", "yesterday"], "not a date"),
        (
            ["--operator", "casino-x", "--since", "2026-12-01", "--until", "2026-02-30"],
            "not a date",
        ),
        (["--operator", "casino-x", "--since", "2026-12-02", "--until", "2026-12-01"], "before"),
        (["--operator", "casino-x", "--since", "2026-12-01", "--until", "2026-12-01"], "before"),
        (["--operator", "casino-x"], "--since"),
        (["--since", "2026-12-01"], "--operator"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    world: tuple[str, Database], args: list[str], says: str
) -> None:
    url, database = world
    Book(database, "casino-x")
    result = _run("--db", url, *args)
    assert result.exit_code == 2, result.output
    assert says in _error_line(result)


def test_a_database_that_is_not_there_is_exit_2(tmp_path: Path) -> None:
    missing = f"sqlite:///{tmp_path / 'nope.db'}"
    result = _run("--db", missing, "--operator", "casino-x", *DAY)
    assert result.exit_code == 2
    assert "no database file" in _error_line(result)


def test_a_database_without_the_wallet_tables_is_one_line_and_exit_2(
    world: tuple[str, Database],
) -> None:
    url, database = world
    Book(database, "casino-old")
    with database.write() as c:
        c.exec_driver_sql("DROP TABLE wallet_transactions")
    result = _run("--db", url, "--operator", "casino-old", *DAY)
    assert result.exit_code == 2
    assert "cannot read the wallet calls" in _error_line(result)
