"""Every figure of ``/work/shared/reference/figures.md``, reproduced by the exact engine.

Integers are asserted exactly; house edges to the four decimals published; distributions
to the six decimals published. The compiled float path is held to the same figures.
"""

from __future__ import annotations

from fractions import Fraction
from math import perm

import pytest

from baccarat.analysis.exact import exact_odds, ways
from baccarat.analysis.exact.counts import CardCounts, known
from baccarat.analysis.exact.float_path import fast_odds
from baccarat.analysis.exact.signature import representatives
from baccarat.analysis.exact.ways import ExactWays
from baccarat.rulesets import load_ruleset

# (decks, banker ways, player ways, tie ways, total or None when not published)
WAYS = [
    (1, 6_737_232_640, 6_548_674_432, 1_372_227_328, 14_658_134_400),
    (6, 403_095_751_234_560, 392_220_492_728_832, 83_552_962_932_288, None),
    (8, 2_292_252_566_437_888, 2_230_518_282_592_256, 475_627_426_473_216, 4_998_398_275_503_360),
]

# (decks, rule set, bet, published house edge in percent)
EDGES = [
    (8, "standard", "banker", "1.0579"),
    (8, "standard", "player", "1.2351"),
    (8, "standard", "tie", "14.3596"),
    (8, "tie-9", "tie", "4.8440"),
    (8, "no-commission", "banker", "1.4581"),
    (8, "ez", "banker", "1.0183"),
    (8, "ez", "dragon_7", "7.6113"),
    (8, "ez", "panda_8", "10.1876"),
    (8, "standard", "player_pair", "10.3614"),
    (8, "standard", "banker_pair", "10.3614"),
    (8, "standard", "either_pair", "13.7099"),
    (8, "standard", "perfect_pair", "13.0294"),
    (8, "standard", "dragon_bonus_player", "2.6517"),
    (8, "standard", "dragon_bonus_banker", "9.3731"),
    (8, "standard", "small", "5.2829"),
    (8, "standard", "big", "4.3457"),
    (8, "no-commission", "super_6", "29.9772"),
    (6, "standard", "banker", "1.0558"),
    (6, "standard", "player", "1.2374"),
    (6, "standard", "tie", "14.4382"),
    (6, "no-commission", "banker", "1.4548"),
]


@pytest.mark.parametrize(("decks", "banker", "player", "tie", "total"), WAYS)
def test_ways_are_the_published_integers(
    decks: int, banker: int, player: int, tie: int, total: int | None
) -> None:
    counted = ways(CardCounts.full(decks))
    assert (counted.banker, counted.player, counted.tie) == (banker, player, tie)
    assert counted.total == banker + player + tie == perm(52 * decks, 6)
    if total is not None:
        assert counted.total == total


@pytest.mark.parametrize(("decks", "rules", "bet", "edge"), EDGES)
def test_house_edge_is_the_published_one(decks: int, rules: str, bet: str, edge: str) -> None:
    ruleset = load_ruleset(rules)
    exact = exact_odds(CardCounts.full(decks), ruleset).bets[bet]
    assert f"{float(exact.house_edge_percent):.4f}" == edge
    assert exact.house_edge_percent == -100 * exact.ev
    fast = fast_odds(CardCounts.full(decks), ruleset).bets[bet]
    assert fast.house_edge_percent == pytest.approx(float(exact.house_edge_percent), abs=1e-10)


def test_main_probabilities_and_the_pair_fraction() -> None:
    odds = exact_odds(CardCounts.full(8), load_ruleset("standard"))
    assert (f"{float(odds.banker):.6f}", f"{float(odds.player):.6f}", f"{float(odds.tie):.6f}") == (
        "0.458597",
        "0.446247",
        "0.095156",
    )
    assert odds.banker + odds.player + odds.tie == 1
    for bet in ("player_pair", "banker_pair"):
        assert odds.bets[bet].event_probabilities["pair"] == Fraction(31, 415)


def test_cards_used_and_naturals_distributions() -> None:
    shoe = ExactWays(known(CardCounts.full(8)))
    reps = representatives()
    by_cards: dict[int, int] = {4: 0, 5: 0, 6: 0}
    naturals = {"any": 0, "player": 0, "banker": 0, "both": 0}
    seen: set[int] = set()
    for coup, sid in zip(reps.coups, reps.signature.tolist(), strict=True):
        if sid in seen:
            continue
        seen.add(sid)
        count = int(shoe.by_signature[sid])
        by_cards[coup.cards_used] += count
        player, banker = coup.player.natural, coup.banker.natural
        naturals["any"] += count * (player or banker)
        naturals["player"] += count * player
        naturals["banker"] += count * banker
        naturals["both"] += count * (player and banker)
    share = {k: f"{v / shoe.total:.6f}" for k, v in by_cards.items()}
    assert share == {4: "0.378868", 5: "0.303444", 6: "0.317687"}
    assert {k: f"{v / shoe.total:.6f}" for k, v in naturals.items()} == {
        "any": "0.343049",
        "player": "0.189435",
        "banker": "0.189435",
        "both": "0.035820",
    }


def test_the_circulating_figures_are_edges_with_ties_excluded() -> None:
    # "Banker 1.17%, Player 1.36%" divide the edge by the chance of a decision (no tie).
    odds = exact_odds(CardCounts.full(8), load_ruleset("standard"))
    decided = 1 - odds.tie
    assert f"{float(odds.bets['banker'].house_edge_percent / decided):.2f}" == "1.17"
    assert f"{float(odds.bets['player'].house_edge_percent / decided):.2f}" == "1.36"
