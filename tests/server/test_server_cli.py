"""``baccarat serve`` and ``baccarat ledger check`` as commands: exit codes and one-line errors."""

from __future__ import annotations

import json
import socket
import subprocess
from pathlib import Path

import pytest
from server_support import postgres_reachable, postgres_schema
from serving import BIN, services_required
from sqlalchemy import text
from store_support import force_close, migrated, new_round, players, setup_table
from typer.testing import CliRunner

from baccarat.cli import app
from baccarat.rulesets import load_ruleset
from baccarat.server.config import Settings
from baccarat.store import Database
from baccarat.store.placement import place_batch
from baccarat.table import BetOrder

runner = CliRunner()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--tables", "bogus"], "unknown rule set 'bogus'"),
        (["--tables", "standard,standard"], "named twice"),
        (["--tables", " , "], "names no rule set"),
        (["--db", "mysql://localhost/x"], "unsupported database URL"),
        (["--db", "postgresql://postgres@127.0.0.1:1/test"], "cannot open the database"),
        (["--dealing", "sideways"], "--dealing must be"),
        (["--workers", "2"], "--workers above 1 needs --db postgresql://... and --redis"),
        (
            ["--workers", "2", "--db", "postgresql://postgres@127.0.0.1:1/test"],
            "--workers above 1 needs",
        ),
        (["--redis", "redis://127.0.0.1:6379/0"], "--redis needs --db postgresql://"),
        (
            ["--redis", "http://x", "--db", "postgresql://postgres@127.0.0.1:1/test"],
            "--redis must be a redis:// or rediss:// URL",
        ),
        (["--workers", "0"], "--workers must be greater than or equal to 1"),
        (["--lease-ms", "10"], "--lease-ms must be greater than or equal to 300"),
        (["--node-id", "a b"], "--node-id must match pattern"),
    ],
)
def test_serve_refuses_bad_options_in_one_line(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["serve", "--port", "1", *args])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    "option", [["--port", "0"], ["--betting-seconds", "0"], ["--reveal-ms", "-1"]]
)
def test_serve_range_checks(option: list[str]) -> None:
    result = runner.invoke(app, ["serve", *option])
    assert result.exit_code == 2


def test_serve_reads_its_options_from_the_environment_and_a_flag_overrides_them() -> None:
    bad = runner.invoke(app, ["serve", "--port", "1"], env={"BACCARAT_DEALING": "sideways"})
    assert bad.exit_code == 2
    assert "--dealing must be 'face-up' or 'face-down', not 'sideways'" in bad.output
    assert "BACCARAT_DEALING" in bad.output and "Traceback" not in bad.output
    # The flag wins over the variable: the next problem is the (also overriding) table list.
    env = {"BACCARAT_DEALING": "sideways", "BACCARAT_TABLES": "bogus"}
    flagged = runner.invoke(app, ["serve", "--port", "1", "--dealing", "face-up"], env=env)
    assert flagged.exit_code == 2
    assert "unknown rule set 'bogus'" in flagged.output
    ranged = runner.invoke(app, ["serve"], env={"BACCARAT_PORT": "0"})
    assert ranged.exit_code == 2 and "--port must be greater than or equal to 1" in ranged.output
    listed = runner.invoke(app, ["serve"], env={"BACCARAT_RATE_LIMIT": "{bad"})
    assert listed.exit_code == 2 and "Traceback" not in listed.output
    assert "BACCARAT_RATE_LIMIT must be a JSON list" in listed.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--port", "abc"], "--port must be a valid integer"),
        (["--betting-seconds", "soon"], "--betting-seconds must be a valid number"),
        (["--guests", "maybe"], "--guests must be 'on' or 'off', not 'maybe'"),
        (["--metrics-bind", "9100"], "--metrics-bind wants HOST:PORT"),
        (["--rate-limit", "often"], "--rate-limit wants NAME=RATE"),
        (["--rate-limit", "guests_per_address=often"], "'often' is not a rate"),
        (["--rate-limit-delay", "61"], "--rate-limit-delay must be less than or equal to 60"),
        (["--max-deposit", "10", "--max-balance", "5"], "must be at least max_deposit"),
        (["--allowed-hosts", " , "], "--allowed-hosts names no host"),
        (["--head-timeout-seconds", "0"], "--head-timeout-seconds must be greater than or equal"),
        (["--max-connections-per-address", "0"], "--max-connections-per-address must be"),
        (["--audit-anchor-seconds", "100"], "--audit-anchor-seconds must be less than or equal"),
    ],
)
def test_serve_refuses_a_bad_value_of_any_type_in_one_line(args: list[str], message: str) -> None:
    """Every option is checked by ``Settings``: a value Click would have refused with a usage
    box is the same one line as a value out of bounds."""
    result = runner.invoke(app, ["serve", "--port", "1", *args])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and result.output.startswith("baccarat: error: ")
    assert message in result.output
    assert "Traceback" not in result.output and "╭" not in result.output


def test_an_option_given_at_its_default_still_overrides_the_environment() -> None:
    env = {"BACCARAT_GUESTS": "maybe", "BACCARAT_PORT": "0"}
    given = runner.invoke(
        app, ["serve", "--guests", "on", "--port", "8000", "--tables", "x"], env=env
    )
    assert given.exit_code == 2
    assert given.output == (
        "baccarat: error: --tables: unknown rule set 'x' (built-in: standard, no-commission, "
        "ez, tie-9, standard-idr, no-commission-idr, ez-idr) (the option or BACCARAT_TABLES)\n"
    )
    unset = runner.invoke(app, ["serve", "--tables", "x"], env=env)
    assert "--guests must be 'on' or 'off'" in unset.output
    assert "--port must be greater than or equal to 1" in unset.output


def test_serve_help_lists_each_setting_once_with_its_default_and_bounds() -> None:
    result = runner.invoke(app, ["serve", "--help"], env={"COLUMNS": "300"})
    assert result.exit_code == 0
    lines = [line.strip("│ ") for line in result.output.splitlines() if line.startswith("│ --")]
    options = [line.split()[0] for line in lines]
    assert options == [f"--{name.replace('_', '-')}" for name in Settings.model_fields] + ["--help"]
    shown = dict(zip(options, lines, strict=True))
    for name, field in Settings.model_fields.items():
        line = shown[f"--{name.replace('_', '-')}"]
        assert field.description is not None and field.description in line
        if field.default is True:
            assert line.endswith("[default: on]")
        elif field.default is False:
            assert line.endswith("[default: off]")
        elif field.default not in (None, (), ""):
            assert line.endswith(f"[default: {field.default}]"), line
        else:
            assert "[default:" not in line
    assert "Port to listen on. (1 to 65535) [default: 8000]" in shown["--port"]
    assert "<face-up|face-down>" in shown["--dealing"]
    assert "(300 to 60000) [default: 3000]" in shown["--lease-ms"]
    assert "(1 to 64 characters)" in shown["--node-id"]


def _serve_on_a_port_in_use(
    tmp_path: Path, *options: str
) -> tuple[int, subprocess.CompletedProcess[str]]:
    """``baccarat serve`` (a real process) on a port a socket of this test listens on."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port: int = held.getsockname()[1]
        done = subprocess.run(
            [
                str(BIN / "baccarat"),
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--seed-key-file",
                str(tmp_path / "seed-keys"),
                *options,
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
    return port, done


def test_serve_on_a_port_in_use_is_one_line_before_any_address(tmp_path: Path) -> None:
    port, done = _serve_on_a_port_in_use(tmp_path, "--db", f"sqlite:///{tmp_path / 't.db'}")
    assert done.returncode == 2, done.stderr
    assert done.stderr == f"baccarat: error: port {port} on 127.0.0.1 is already in use\n"
    assert done.stdout == ""  # no address printed first


@pytest.mark.services
def test_serve_workers_on_a_port_in_use_is_the_same_one_line(tmp_path: Path) -> None:
    """With --workers uvicorn's supervisor binds the port itself: serve checks it first. The
    Redis URL is never reached: nothing before the check talks to Redis once the rate limits
    count in memory."""
    if not postgres_reachable():
        if services_required():
            pytest.fail("PostgreSQL at 127.0.0.1:5432 is required but unreachable")
        pytest.skip("PostgreSQL at 127.0.0.1:5432 is unreachable")
    with postgres_schema() as url:
        port, done = _serve_on_a_port_in_use(
            tmp_path,
            *("--db", url, "--workers", "2", "--redis", "redis://127.0.0.1:1/0"),
            *("--rate-limit-storage", "memory://"),
        )
    assert done.returncode == 2, done.stderr
    assert done.stderr == f"baccarat: error: port {port} on 127.0.0.1 is already in use\n"
    assert done.stdout == ""


def _sample_database(path: Path) -> str:
    url = f"sqlite:///{path}"
    database = migrated(url)
    standard = load_ruleset("standard")
    shoe = setup_table(database, standard)
    [alice] = players(database, 1, 10_000)
    r = new_round(database, shoe, 1)
    with database.write() as c:
        place_batch(
            c,
            [BetOrder(alice, "standard", r.id, "place", {"player": 1000})],
        )
    force_close(database, r.id)
    database.dispose()
    return url


def test_ledger_check_passes_then_fails_on_damage(tmp_path: Path) -> None:
    url = _sample_database(tmp_path / "t.db")
    good = runner.invoke(app, ["ledger", "check", "--db", url])
    assert good.exit_code == 0, good.output
    assert "OK every invariant holds" in good.output
    assert "stakes in play" in good.output
    figures = json.loads(runner.invoke(app, ["ledger", "check", "--db", url, "--json"]).output)
    assert figures["ok"] and figures["in_play"] == 1000 and figures["player_money"] == 9000
    database = Database(url)
    with database.write() as c:
        c.execute(text("UPDATE accounts SET balance = balance + 5 WHERE kind = 'player'"))
    database.dispose()
    bad = runner.invoke(app, ["ledger", "check", "--db", url])
    assert bad.exit_code == 1
    assert "FAIL cached balances that differ from their entries" in bad.output
    # The same as a real process, as ``make`` or an operator would run it.
    done = subprocess.run(
        [str(BIN / "baccarat"), "ledger", "check", "--db", url, "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert json.loads(done.stdout)["problems"]


def test_ledger_check_bad_databases_exit_2(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"this is not sqlite" * 100)
    empty = tmp_path / "empty.db"
    Database(f"sqlite:///{empty}").ping()
    cases = {
        f"sqlite:///{tmp_path / 'missing.db'}": "no database file",
        str(garbage): "cannot",
        f"sqlite:///{empty}": "not a baccarat database",
        "mysql://localhost/x": "unsupported database URL",
        "postgresql://postgres@127.0.0.1:1/test": "cannot",
    }
    for url, message in cases.items():
        result = runner.invoke(app, ["ledger", "check", "--db", url])
        assert result.exit_code == 2, (url, result.output)
        assert message in result.output, (url, result.output)
        assert "Traceback" not in result.output
    assert not (tmp_path / "missing.db").exists()  # checking never creates a database
