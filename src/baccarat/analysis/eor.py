"""Effects of removal: how each bet's EV moves when one card of a rank leaves the shoe.

The usual presentation: for each rank A to K, the change in EV, in percent of the stake,
when one card of that rank is taken from the shoe (from a full shoe unless told
otherwise). With counts by card, the card's suit is not known: the effect is the average
over its suits, weighted by how many of each are left. Exact fractions throughout.

Taking out a card nobody sees cannot change the odds of the next coup, so the effects,
weighted by how many cards of each rank there are, add up to exactly zero:

>>> from baccarat.analysis.exact import full_shoe
>>> from baccarat.rulesets import load_ruleset
>>> standard = load_ruleset("standard")
>>> effects = effects_of_removal(full_shoe(standard), standard)
>>> sum(32 * e for e in effects.by_bet["banker"] if e is not None)
Fraction(0, 1)
>>> [f"{float(e):+.4f}" for e in effects.by_bet["banker"][:3]]
['+0.0044', '+0.0052', '+0.0065']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from baccarat.analysis.exact import exact_odds
from baccarat.analysis.exact.counts import CardCounts, ShoeCounts
from baccarat.cards import RANKS, SUITS, Card, Rank
from baccarat.rulesets import RuleSet
from baccarat.shoe import Composition

__all__ = ["EffectsOfRemoval", "effects_of_removal"]


@dataclass(frozen=True)
class EffectsOfRemoval:
    """The effect of removing one card of each rank on each bet priced."""

    rules: str
    cards_left: int
    #: EV per unit staked of each bet before any removal.
    ev: Mapping[str, Fraction]
    #: For each bet, the change of EV in percent for ranks A..K (None: no card of that rank).
    by_bet: Mapping[str, tuple[Fraction | None, ...]]
    omitted: Mapping[str, str]


def _evs(counts: ShoeCounts, ruleset: RuleSet) -> dict[str, Fraction]:
    return {name: bet.ev for name, bet in exact_odds(counts, ruleset).bets.items()}


def _without_rank(counts: ShoeCounts, rank: Rank, ruleset: RuleSet) -> dict[str, Fraction] | None:
    """The EVs once one card of ``rank`` is gone (None if there is none)."""
    if isinstance(counts, CardCounts):
        left = [counts.count(Card(rank, suit)) for suit in SUITS]
        if sum(left) == 0:
            return None
        # All suits alike (a full shoe): any suit's removal stands for all of them.
        symmetric = all(len({counts.count(Card(r, suit)) for suit in SUITS}) == 1 for r in RANKS)
        weights = [1, 0, 0, 0] if symmetric else left
        total = sum(weights)
        average: dict[str, Fraction] = {}
        for suit, weight in zip(SUITS, weights, strict=True):
            if weight:
                for name, ev in _evs(counts.without([Card(rank, suit)]), ruleset).items():
                    average[name] = average.get(name, Fraction(0)) + ev * Fraction(weight, total)
        return average
    if isinstance(counts, Composition):
        return None if counts.count(rank) == 0 else _evs(counts.without([rank]), ruleset)
    if counts.counts[rank.point] == 0:
        return None
    return _evs(counts.without([rank]), ruleset)


def effects_of_removal(counts: ShoeCounts, ruleset: RuleSet) -> EffectsOfRemoval:
    """The exact effect of removing one card of each rank from ``counts`` on every bet priced.

    Counts by value (``ValueCounts``) cannot tell a ten from a king, so the four ten-valued
    ranks show the same effect there.
    """
    odds = exact_odds(counts, ruleset)
    base = {name: bet.ev for name, bet in odds.bets.items()}
    after = [_without_rank(counts, rank, ruleset) for rank in RANKS]
    by_bet = {
        name: tuple(None if evs is None else 100 * (evs[name] - ev) for evs in after)
        for name, ev in base.items()
    }
    return EffectsOfRemoval(ruleset.name, odds.cards_left, base, by_bet, odds.omitted)
