"""Odds are written one way, the house's, wherever the server prints a payout for people.

The table's spots write a Banker win "0.95:1", as live tables do; the rules data
(``GET /api/rules/{ruleset}``) and ``baccarat rules`` write the same odds the same way:
whole odds "8:1", a short decimal "0.95:1" / "0.54:1" / "1.5:1", a half pay "1:2", and
any other fraction in its lowest terms. The rule sets' own syntax ("19:20") stays the
machine's value (``pays``).
"""

from __future__ import annotations

import io
import re
from fractions import Fraction

import pytest
from rich.console import Console
from typer.testing import CliRunner

from baccarat.cli import app
from baccarat.cli.rules import pay_tables
from baccarat.payout import Payout
from baccarat.rulesets import BUILTIN_RULESETS, load_ruleset
from baccarat.rulespage import odds_text, payout_text, rules_page


@pytest.mark.parametrize(
    ("pays", "printed"),
    [
        ("19:20", "0.95:1"),
        ("27:50", "0.54:1"),
        ("3:2", "1.5:1"),
        ("0.95:1", "0.95:1"),
        ("1:1", "1:1"),
        ("8:1", "8:1"),
        ("16:2", "8:1"),
        ("1:2", "0.5:1"),
        ("1:3", "1:3"),
        ("7:3", "7:3"),
        ("1:200", "1:200"),
        ("half", "1:2"),
        ("push", "push"),
        ("lose", "lose"),
    ],
)
def test_odds_in_the_house_style(pays: str, printed: str) -> None:
    assert odds_text(Payout.parse(pays)) == printed


def test_payouts_in_words_say_the_same_odds() -> None:
    assert payout_text(Payout.parse("19:20")) == "pays 0.95 to 1"
    assert payout_text(Payout.parse("27:50")) == "pays 0.54 to 1"
    assert payout_text(Payout.parse("8:1")) == "pays 8 to 1"
    assert payout_text(Payout.parse("half")) == "pays half: 1 to 2"


@pytest.mark.parametrize("name", BUILTIN_RULESETS)
def test_every_pay_table_row_carries_its_printed_odds(name: str) -> None:
    ruleset = load_ruleset(name)
    for bet in rules_page(ruleset, edges={})["bets"]:
        rule = ruleset.bets[bet["name"]]
        for row in bet["pays"][:-1]:
            payout = rule.pays[row["event"]]
            assert row["pays"] == str(payout)  # the rule set's own syntax, unchanged
            assert row["odds"] == odds_text(payout)
            if payout.odds and payout.odds.denominator in (2, 4, 5, 10, 20, 25, 50, 100):
                assert ":1" in row["odds"] or row["odds"] == "1:2", row
        assert bet["pays"][-1]["odds"] == "lose"
    standard = {bet["name"]: bet for bet in rules_page(load_ruleset("standard"), edges={})["bets"]}
    assert standard["banker"]["pays"][0]["odds"] == "0.95:1"
    assert standard["big"]["pays"][0]["odds"] == "0.54:1"


def pay_column(name: str) -> list[str]:
    """The "Pays" cells of ``baccarat rules NAME``'s pay table, one per bet."""
    console = Console(width=400, record=True, file=io.StringIO())
    console.print(pay_tables(load_ruleset(name).bets.values()))
    rows = [line for line in console.export_text().splitlines() if "│" in line]
    return [row.split("│")[2].strip() for row in rows]


def test_the_rules_command_prints_the_same_odds() -> None:
    result = CliRunner().invoke(app, ["rules", "standard"])
    assert result.exit_code == 0
    pays = pay_column("standard")
    assert pays[:3] == ["win 1:1, tie push", "win 0.95:1, tie push", "tie 8:1"]
    assert "big 0.54:1" in pays and "small 1.5:1" in pays
    assert not [cell for cell in pays if re.search(r"\b(?:19:20|27:50|3:2)\b", cell)]
    assert "win 1:1, tie push, win_6 1:2" in pay_column("no-commission")


def test_decimals_are_exact() -> None:
    # 0.95 exactly, never a float's 0.9499999.
    assert odds_text(Payout.parse("19:20")) == "0.95:1"
    assert Payout.parse("0.95:1").odds == Fraction(19, 20)
