"""``baccarat odds``: JSON keys, exact fractions, counts by value and rank, removals, views,
one-line errors (exit 2), and the real installed command."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import baccarat.cli.deal
import baccarat.cli.odds  # noqa: F401  (registers the commands)
from baccarat.analysis.exact import exact_odds
from baccarat.analysis.exact.counts import CardCounts
from baccarat.cards import parse_cards
from baccarat.cli.app import app
from baccarat.rulesets import load_ruleset

runner = CliRunner()
EXE = Path(sys.executable).with_name("baccarat")
STANDARD = load_ruleset("standard")


def odds_json(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["odds", *args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def test_json_has_every_key() -> None:
    data = odds_json()
    assert {"rules", "decks", "cards_left", "probabilities", "bets"} <= set(data)
    assert (data["rules"], data["decks"], data["cards_left"], data["counts"]) == (
        "standard",
        8,
        416,
        "cards",
    )
    assert set(data["probabilities"]) == {"banker", "player", "tie"}
    assert sum(data["probabilities"].values()) == pytest.approx(1, abs=1e-12)
    assert set(data["bets"]) == set(STANDARD.bets) and data["omitted"] == {}
    for bet in data["bets"].values():
        assert {"ev", "house_edge", "probabilities", "results"} <= set(bet)
        assert bet["house_edge"] == pytest.approx(-100 * bet["ev"])
        assert sum(bet["probabilities"].values()) == pytest.approx(1, abs=1e-12)
    assert f"{data['bets']['banker']['house_edge']:.4f}" == "1.0579"


def test_exact_adds_fractions() -> None:
    data = odds_json("--exact", "--rules", "tie-9")
    pair = data["bets"]["player_pair"]
    # 31/415 to win 11 to 1: 12 * 31/415 - 1.
    assert Fraction(pair["ev_exact"]) == Fraction(-43, 415)
    assert Fraction(pair["house_edge_exact"]) == Fraction(4300, 415)
    assert Fraction(pair["probabilities_exact"]["pair"]) == Fraction(31, 415)
    exact = exact_odds(CardCounts.full(8), load_ruleset("tie-9"))
    for name, bet in data["bets"].items():
        assert Fraction(bet["ev_exact"]) == exact.bets[name].ev
        assert float(Fraction(bet["ev_exact"])) == pytest.approx(bet["ev"], abs=1e-12)
    probabilities = data["probabilities"]
    assert sum(Fraction(probabilities[f"{o}_exact"]) for o in ("banker", "player", "tie")) == 1
    assert "ev_exact" not in odds_json()["bets"]["banker"]


def test_counts_by_value_price_no_pair_bet() -> None:
    data = odds_json("--counts", "128,32,32,32,32,32,32,32,32,32")
    assert (data["counts"], data["decks"], data["cards_left"]) == ("values", None, 416)
    assert set(data["omitted"]) == {"player_pair", "banker_pair", "either_pair", "perfect_pair"}
    assert "ten from a jack" in data["omitted"]["player_pair"]
    assert f"{data['bets']['banker']['house_edge']:.4f}" == "1.0579"


def test_counts_by_rank_price_pairs_but_not_suited_pairs() -> None:
    data = odds_json("--counts", " 4, 4,4,4,4,4,4,4,4,4,4,4,4", "--exact")
    assert (data["counts"], data["cards_left"]) == ("ranks", 52)
    assert set(data["omitted"]) == {"perfect_pair"}
    # One deck: the second card matches the first's rank 3 times in 51.
    assert Fraction(data["bets"]["player_pair"]["probabilities_exact"]["pair"]) == Fraction(3, 51)


def test_remove_with_and_without_suits() -> None:
    suited = odds_json("--remove", "5s 5d Kd 9s", "--exact")
    assert (suited["cards_left"], suited["omitted"]) == (412, {})
    expected = exact_odds(CardCounts.full(8).without(parse_cards("5s 5d Kd 9s")), STANDARD)
    assert Fraction(suited["bets"]["perfect_pair"]["ev_exact"]) == expected.bets["perfect_pair"].ev
    bare = odds_json("--remove", "5 5 Kd 9s", "--exact")
    assert (bare["cards_left"], set(bare["omitted"])) == (412, {"perfect_pair"})
    assert bare["bets"]["banker"]["ev_exact"] == suited["bets"]["banker"]["ev_exact"]
    ten = odds_json("--remove", "10,t,T", "--decks", "1")
    assert ten["cards_left"] == 49


def test_eor_json() -> None:
    data = odds_json("--eor", "--decks", "6", "--exact")
    eor = data["eor"]
    assert set(eor) == set(STANDARD.bets) | {f"{n}_exact" for n in STANDARD.bets}
    for name in STANDARD.bets:
        assert list(eor[name]) == list("A23456789TJQK")
        assert sum(24 * Fraction(x) for x in eor[f"{name}_exact"].values()) == 0


def test_trace_deals_the_same_shoe_as_deal() -> None:
    data = odds_json("--trace", "--seed", "7", "--decks", "2")
    dealt = runner.invoke(app, ["deal", "--seed", "7", "--decks", "2", "--json"])
    assert dealt.exit_code == 0
    assert len(data["coups"]) == len(dealt.stdout.strip().splitlines())
    assert data["coups"][0]["cards_left"] == 104 - data["burned"]
    assert [c["coup"] for c in data["coups"]] == list(range(1, len(data["coups"]) + 1))
    for coup in data["coups"]:
        assert set(coup["ev"]) == set(STANDARD.bets)
        assert coup["positive"] == [bet for bet, ev in coup["ev"].items() if ev > 1e-12]
    assert data["positive"] == {
        bet: [c["coup"] for c in data["coups"] if bet in c["positive"]] for bet in STANDARD.bets
    }
    for bet, turns in data["turns_positive"].items():
        assert set(turns) <= set(data["positive"][bet])


def test_terminal_views() -> None:
    result = runner.invoke(app, ["odds", "--rules", "ez", "--remove", "5 5", "--eor"])
    assert result.exit_code == 0, result.output
    for text in ("Dragon 7", "House edge", "Perfect Pair: not priced", "Effect of removing"):
        assert text in result.stdout
    trace = runner.invoke(app, ["odds", "--trace", "--seed", "3", "--decks", "1"])
    assert trace.exit_code == 0 and "EV before each coup" in trace.stdout
    assert "…" not in trace.stdout and "…" not in result.stdout  # nothing cut to fit 80 columns


@pytest.mark.parametrize(
    ("args", "culprit"),
    [
        (["--remove", "5s 5s 5s 5s 5s 5s 5s 5s 5s"], "no 5s left"),
        (["--decks", "1", "--remove", "5 5 5 5 5"], "no 5 left"),
        (["--remove", "Xs"], "'Xs'"),
        (["--counts", "1,2,3"], "not 3"),
        (["--counts", "4,4,4,4,-1,4,4,4,4,4"], "negative"),
        (["--counts", "4,4,four,4,4,4,4,4,4,4"], "whole numbers"),
        (["--counts", "1,1,1,1,1,0,0,0,0,0"], "6 cards"),
        (["--counts", "0,0,0,0,0,0,0,0,0,0,0,0,0"], "6 cards"),
        (["--counts", "1,1,1,1,1,1,1,1,1,1", "--remove", "K K"], "value 0"),
        (["--decks", "9"], "1 to 8"),
        (["--decks", "2", "--counts", "1,1,1,1,1,1,1,1,1,1"], "not both"),
        (["--seed", "3"], "--trace"),
        (["--trace", "--counts", "1,1,1,1,1,1,1,1,1,1"], "fresh shoe"),
        (["--rules", "bogus"], "unknown rule set"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], culprit: str) -> None:
    result = runner.invoke(app, ["odds", *args])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and culprit in lines[0], result.stderr
    assert lines[0].startswith("baccarat: error:") and result.stdout == ""


def test_the_installed_command() -> None:
    done = subprocess.run(
        [str(EXE), "odds", "--rules", "no-commission", "--json"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert f"{data['bets']['banker']['house_edge']:.4f}" == "1.4581"
    assert f"{data['bets']['super_6']['house_edge']:.4f}" == "29.9772"
    bad = subprocess.run(
        [str(EXE), "odds", "--remove", "Kd Kd Kd Kd Kd Kd Kd Kd Kd"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert bad.returncode == 2
    assert bad.stderr.strip() == "baccarat: error: no Kd left to remove"
