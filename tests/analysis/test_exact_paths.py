"""The exact path and the float path agree to 1e-12 on 200 random depleted shoes.

Shoes are drawn by a seeded generator: 1 to 8 decks, any number of cards taken out at
random (so suits end up uneven), counted by card, by rank or by value. Every probability
of every event of every priced bet, every EV and the three outcomes are compared, on all
four built-in rule sets, through ``fast_odds`` (one shoe, numpy) and through the compiled
kernel (all shoes at once).
"""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

from baccarat.analysis.exact import Odds, exact_odds
from baccarat.analysis.exact.counts import CardCounts, ShoeCounts, ValueCounts, known
from baccarat.analysis.exact.float_path import FastOdds, fast_odds
from baccarat.cards import Card
from baccarat.rulesets import BUILTIN_RULESETS, load_ruleset

TOLERANCE = 1e-12


def random_shoes(count: int, seed: int) -> list[ShoeCounts]:
    rng = random.Random(seed)
    shoes: list[ShoeCounts] = []
    for i in range(count):
        decks = rng.randint(1, 8)
        cards = [Card.from_index(c) for c in range(52 * decks)]
        rng.shuffle(cards)
        # Mostly the depths a real shoe reaches, sometimes nearly empty.
        left = rng.randint(6, 40) if i % 7 == 0 else rng.randint(len(cards) // 5, len(cards))
        shoe = CardCounts.of(cards[:left])
        shoes.append(
            shoe.by_rank()
            if i % 5 == 3
            else ValueCounts(known(shoe).values)
            if i % 5 == 4
            else shoe
        )
    return shoes


SHOES = random_shoes(200, seed=5)


def assert_agree(exact: Odds[Fraction], fast: Odds[float]) -> None:
    assert fast.omitted == exact.omitted
    assert list(fast.bets) == list(exact.bets)
    for outcome in ("banker", "player", "tie"):
        assert abs(getattr(fast, outcome) - float(getattr(exact, outcome))) < TOLERANCE
    for name, bet in exact.bets.items():
        other = fast.bets[name]
        assert abs(other.ev - float(bet.ev)) < TOLERANCE, name
        for event, p in bet.event_probabilities.items():
            assert abs(other.event_probabilities[event] - float(p)) < TOLERANCE, (name, event)


@pytest.mark.parametrize("rules", BUILTIN_RULESETS)
def test_fast_odds_agree_with_exact_odds(rules: str) -> None:
    ruleset = load_ruleset(rules)
    for i, shoe in enumerate(SHOES):
        if i % len(BUILTIN_RULESETS) == BUILTIN_RULESETS.index(rules):
            assert_agree(exact_odds(shoe, ruleset), fast_odds(shoe, ruleset))


@pytest.mark.parametrize("rules", BUILTIN_RULESETS)
def test_compiled_kernel_agrees_with_exact_evs_on_every_shoe(rules: str) -> None:
    ruleset = load_ruleset(rules)
    by_card = [known(s) for s in SHOES if isinstance(s, CardCounts)]
    engine = FastOdds(ruleset, "cards", "ev")
    arrays = engine.arrays(by_card)
    compiled = engine.evaluate(*arrays, compiled=True)
    plain = engine.evaluate(*arrays, compiled=False)
    assert np.max(np.abs(compiled - plain)) < TOLERANCE
    for row, shoe in zip(compiled, by_card, strict=True):
        exact = exact_odds(CardCounts(shoe.cards or ()), ruleset)
        expected = [float(exact.bets[name].ev) for name, _ in engine.columns]
        assert np.max(np.abs(row - expected)) < TOLERANCE


def test_a_shoe_too_big_for_int64_is_counted_in_python_integers() -> None:
    shoe = CardCounts((30,) * 52)  # 1,560 cards: 1560 * 1559 * ... * 1555 > 2**63
    ruleset = load_ruleset("standard")
    assert_agree(exact_odds(shoe, ruleset), fast_odds(shoe, ruleset))


def test_the_shoes_are_varied() -> None:
    details = [known(s).detail for s in SHOES]
    assert details.count("ranks") == details.count("values") == 40
    sizes = [known(s).total for s in SHOES]
    assert min(sizes) <= 12 and max(sizes) >= 300
