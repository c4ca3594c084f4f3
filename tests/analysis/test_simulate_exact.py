"""The simulation agrees with the exact engine on every bet of every built-in rule set.

Each bet's observed EV over 24 million coups or so must lie within 4 standard errors of its
exact full-shoe EV (``baccarat.analysis.exact``), and each of its events must happen about
as often as the exact engine says. The seed is fixed, so the test is
deterministic; a kernel that mis-dealt or mis-classified one coup kind in a thousand would
fail it on the side bets that pay on that kind.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from baccarat.analysis.exact import exact_odds, full_shoe
from baccarat.analysis.simulate import simulate
from baccarat.analysis.simulate.results import bet_nets
from baccarat.analysis.simulate.strategy import Strategy
from baccarat.rulesets import BUILTIN_RULESETS, load_ruleset

SHOES = 500_000


@pytest.mark.parametrize("name", BUILTIN_RULESETS)
def test_every_bet_within_four_standard_errors(name: str) -> None:
    ruleset = load_ruleset(name)
    run = simulate(ruleset, SHOES, seed=20240601 + len(name), workers=2)
    odds = exact_odds(full_shoe(ruleset), ruleset).bets
    assert [estimate.bet for estimate in run.bets] == list(ruleset.bets) == list(odds)
    n = run.coups
    for estimate in run.bets:
        exact = odds[estimate.bet]
        assert estimate.exact == float(exact.ev)
        assert estimate.estimate.trials == n
        assert abs(estimate.ev - float(exact.ev)) < 4 * estimate.stderr, estimate.bet
        # The reported standard error is the sample's; the true one follows from the exact odds.
        nets = bet_nets(ruleset, estimate.bet)
        probabilities = exact.event_probabilities.values()
        variance = sum(p * net * net for p, net in zip(probabilities, nets, strict=True))
        sigma = math.sqrt(variance - exact.ev**2)
        assert estimate.stderr == pytest.approx(sigma / math.sqrt(n), rel=0.02)
        # Each event on its own: its count is binomial around n times its exact probability.
        for event, p in exact.event_probabilities.items():
            count = estimate.events.get(event, 0)
            spread = math.sqrt(n * p * (1 - p))
            assert abs(count - n * p) < 4.5 * spread + 1, (estimate.bet, event)


def test_coups_per_shoe_and_outcomes_look_like_eight_decks() -> None:
    """A sanity check on the dealing itself: coups per shoe and the tie rate."""
    run = simulate(load_ruleset("standard"), 20_000, seed=5, workers=2)
    per_shoe = run.coups / run.shoes
    # (416 - 14 - burn) cards over about 4.94 cards a coup, plus the last coup.
    assert 78 < per_shoe < 83
    tie = run.bet("tie").events
    assert tie.keys() == {f"tie_{n}" for n in range(10)} | {"lose"}


def test_flat_strategy_and_an_always_betting_count_agree_with_the_bet() -> None:
    """Three ways to the same money: the bet's events, a flat strategy, a count that always bets."""
    ruleset = load_ruleset("ez")
    always = Strategy.parse("count:dragon_7::-1000")
    run = simulate(
        ruleset,
        20_000,
        seed=11,
        strategies=[Strategy.parse("flat:dragon_7"), always, Strategy.parse("count:dragon_7")],
    )
    nets = bet_nets(ruleset, "dragon_7")
    counts = run.event_counts("dragon_7")
    total = sum((count * net for count, net in zip(counts, nets, strict=True)), Fraction(0))
    flat, counted, published = run.reports
    assert flat.net == counted.net == total
    assert flat.bets_made == counted.bets_made == run.coups
    # The published count bets on a minority of coups, at a better EV than flat.
    assert 0 < published.bets_made < run.coups / 5
    assert published.estimate is not None and flat.estimate is not None
    assert published.estimate.ev > flat.estimate.ev
