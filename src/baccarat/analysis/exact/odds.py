"""Exact odds of every bet, for any shoe: probabilities as fractions, and what they are worth.

``exact_odds`` is the ground truth: it adds up, in exact integers, the ways of every
coup (``baccarat.analysis.exact.ways``, over the coup table of
``baccarat.analysis.exact.coup_table``), sorts them by the event each offered bet falls on
(``baccarat.analysis.exact.signature``, from the catalogue's own ``classify``) and prices
each event with the rule set's pay table. ``fast_odds``
(``baccarat.analysis.exact.float_path``) computes the same in floating point, compiled,
for heavy use; both give an ``Odds``.

>>> from baccarat.rulesets import load_ruleset
>>> odds = exact_odds(CardCounts.full(8), load_ruleset("standard"))
>>> f"{float(odds.bets['banker'].house_edge_percent):.4f}"
'1.0579'
>>> odds.bets["player_pair"].event_probabilities["pair"]
Fraction(31, 415)
>>> from baccarat.shoe import Composition
>>> exact_odds(Composition.full(8), load_ruleset("standard")).omitted
{'perfect_pair': 'counts by rank have no suits: a suited pair needs counts by card'}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, TypeVar

from baccarat.analysis.cache import cached_json, function_key, source_stamp
from baccarat.analysis.exact.counts import CardCounts, ShoeCounts, known
from baccarat.analysis.exact.pricing import BetPlan, rule_plan
from baccarat.analysis.exact.ways import ExactWays
from baccarat.payout import Result
from baccarat.rulesets import RuleSet

__all__ = ["BetOdds", "Odds", "bet_evs", "bet_odds", "exact_odds", "full_shoe"]

Number = TypeVar("Number", Fraction, float)
_RESULTS = tuple(result.value for result in Result)


@dataclass(frozen=True)
class BetOdds(Generic[Number]):
    """The odds of one bet: EV per unit staked, house edge, and what the bet falls on."""

    name: str
    ev: Number
    #: ``-100 * ev``: what the house keeps, in percent of the stake.
    house_edge_percent: Number
    #: Probability of each event of the bet type (``BetType.events``), ``lose`` included.
    event_probabilities: Mapping[str, Number]
    #: Probability of each result: ``win``, ``lose``, ``push`` and ``half``.
    result_probabilities: Mapping[str, Number]


@dataclass(frozen=True)
class Odds(Generic[Number]):
    """The odds of every bet of a rule set, for one shoe."""

    rules: str
    cards_left: int
    banker: Number
    player: Number
    tie: Number
    #: Every offered bet that these counts can price, in the rule set's order.
    bets: Mapping[str, BetOdds[Number]]
    #: Every offered bet left out, with the reason (counts too coarse to price it).
    omitted: Mapping[str, str]


def bet_odds(plan: BetPlan, probabilities: Sequence[Number], zero: Number) -> BetOdds[Number]:
    """The odds of a bet from the probability of each of its events (either path)."""
    ev = zero
    results = dict.fromkeys(_RESULTS, zero)
    for probability, payout in zip(probabilities, plan.payouts, strict=True):
        ev += probability * payout.net
        results[payout.result.value] += probability
    events = dict(zip(plan.rule.type.events, probabilities, strict=True))
    return BetOdds(plan.name, ev, -100 * ev, events, results)


def full_shoe(ruleset: RuleSet) -> CardCounts:
    """A full shoe of the rule set's decks, counted by card."""
    return CardCounts.full(ruleset.decks)


def exact_odds(counts: ShoeCounts, ruleset: RuleSet) -> Odds[Fraction]:
    """The exact odds of every bet ``ruleset`` offers, for the shoe ``counts`` describes."""
    shoe = known(counts)
    computed, omitted = rule_plan(ruleset).split(shoe.detail)
    exact = ExactWays(shoe)
    bets = {}
    for plan in computed:
        probabilities = [Fraction(w, exact.total) for w in exact.event_ways(plan)]
        bets[plan.name] = bet_odds(plan, probabilities, Fraction(0))
    outcome = exact.outcomes()
    return Odds(
        rules=ruleset.name,
        cards_left=shoe.total,
        banker=Fraction(outcome.banker, exact.total),
        player=Fraction(outcome.player, exact.total),
        tie=Fraction(outcome.tie, exact.total),
        bets=bets,
        omitted=omitted,
    )


def bet_evs(ruleset: RuleSet, counts: ShoeCounts | None = None) -> dict[str, Fraction]:
    """The exact EV per unit staked of each bet priced, by default for a full shoe.

    >>> from baccarat.rulesets import load_ruleset
    >>> bet_evs(load_ruleset("standard"))["player_pair"]
    Fraction(-43, 415)
    """
    if counts is not None:
        odds = exact_odds(counts, ruleset)
        return {name: bet.ev for name, bet in odds.bets.items()}
    key = _full_shoe_key(ruleset)
    if key is None:
        return bet_evs(ruleset, full_shoe(ruleset))
    # A full shoe's EVs cost a quarter of a second in exact integers and never change for a
    # rule set: they are kept on disk under the rule set's content and the engine's code.
    stored = cached_json(
        "full-shoe-evs",
        key,
        lambda: {name: str(ev) for name, ev in bet_evs(ruleset, full_shoe(ruleset)).items()},
        valid=lambda value: isinstance(value, dict) and set(value) <= set(ruleset.bets),
    )
    return {name: Fraction(ev) for name, ev in stored.items()}


#: The modules whose code decides an exact EV (with each bet's own classifier).
_SOURCES = (
    "baccarat.analysis.exact.odds",
    "baccarat.analysis.exact.ways",
    "baccarat.analysis.exact.pricing",
    "baccarat.analysis.exact.counts",
    "baccarat.analysis.exact.coup_table",
    "baccarat.analysis.exact.signature",
    "baccarat.bets",
    "baccarat.coup",
    "baccarat.payout",
    "baccarat.rulesets",
    "baccarat.tableau",
)


def _full_shoe_key(ruleset: RuleSet) -> object | None:
    try:
        text = ruleset.to_toml()
    except Exception:  # a rule set that cannot be written is just not cached
        return None
    classifiers = [function_key(rule.type.classify) for rule in ruleset.bets.values()]
    modules = {getattr(rule.type.classify, "__module__", "") for rule in ruleset.bets.values()}
    return [text, classifiers, source_stamp(*_SOURCES, *sorted(modules))]
