"""The ``deal`` and ``rules`` commands: JSON lines, reproducible seeds, one-line errors with exit 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from baccarat.cards import Card
from baccarat.cli import app
from baccarat.coup import deal

runner = CliRunner()
KEYS = {
    "player",
    "banker",
    "player_total",
    "banker_total",
    "winner",
    "natural",
    "player_pair",
    "banker_pair",
    "cards_used",
}


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_deal_cards_json() -> None:
    code, out, _ = run("deal", "--cards", "4h 3c 2d 2s 10h", "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data) == KEYS
    assert data["banker"] == ["3c", "2s", "Th"] and data["winner"] == "player"


def test_deal_whole_shoe_is_reproducible_and_replays() -> None:
    code, out, _ = run("deal", "--seed", "11", "--json")
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert 60 <= len(lines) <= 90  # an 8-deck shoe with 14 cards behind the cut card
    for line in lines:
        assert set(line) == KEYS
        cards = [Card.parse(c) for c in line["player"][:2] + line["banker"][:2]]
        ordered = [cards[0], cards[2], cards[1], cards[3]]
        ordered += [Card.parse(c) for c in line["player"][2:] + line["banker"][2:]]
        assert deal(ordered).to_json() == line
    assert run("deal", "--seed", "11", "--json")[1] == out
    assert run("deal", "--seed", "12", "--json")[1] != out
    code, few, _ = run("deal", "--seed", "11", "--json", "--coups", "3", "--decks", "1")
    assert code == 0 and len(few.splitlines()) == 3


def test_deal_table_view() -> None:
    code, out, _ = run("deal", "--cards", "4h 3c 2d 2s 7h")
    assert code == 0 and "player" in out and "4♥" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["deal", "--cards", "4h 3c 2d 2s 7x"], "bad card code '7x'"),
        (["deal", "--cards", "4h 3c 2d"], "needs more cards"),
        (["deal", "--cards", "4h 2c 5d 6s 7c"], "left over"),
        (["deal", "--rules", "bogus"], "unknown rule set 'bogus'"),
        (["deal", "--decks", "0"], "1 to 8 decks"),
        (["deal", "--decks", "9"], "1 to 8 decks"),
        (["rules", "nowhere.toml"], "cannot read"),
        # What Click and Typer refuse themselves, in one line too (not a box of several).
        (["deal", "--seed", "nine"], "Invalid value for '--seed'"),
        (["deal", "--nope"], "No such option: --nope"),
        (["verify"], "Missing argument 'record'"),
        (["simulate", "--shoes", "many"], "Invalid value for '--shoes'"),
        (["odds", "--decks", "nine"], "(see 'baccarat odds --help')"),
        (["nosuchcommand"], "No such command 'nosuchcommand'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    code, out, err = run(*args)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in out + err


@pytest.mark.parametrize(
    "command", ["admin create-user", "audit verify", "keys rotate", "ledger check"]
)
def test_every_default_in_the_help_is_shown(command: str) -> None:
    # A default written "[default: ...]" in a help text was taken for Rich markup and vanished.
    code, out, _ = run(*command.split(), "--help")
    assert code == 0
    assert "Database URL ." not in out and "Database URL" in out
    assert "SQLite file of" in " ".join(out.split())


def test_rules_prints_the_drawing_table_and_pay_tables() -> None:
    code, out, _ = run("rules", "no-commission")
    assert code == 0
    assert "Banker 3" in out and "win_6 1:2" in out and "Super 6" in out


def test_the_installed_command_runs(tmp_path: Path) -> None:
    exe = Path(sys.executable).with_name("baccarat")
    done = subprocess.run(
        [str(exe), "deal", "--cards", "4h 3c 2d 2s 7x"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2
    assert (
        done.stderr.strip()
        == "baccarat: error: bad card code '7x': unknown suit 'x' (use c, d, h or s)"
    )
    done = subprocess.run(
        [str(exe), "deal", "--seed", "1", "--coups", "2", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert len(done.stdout.splitlines()) == 2
