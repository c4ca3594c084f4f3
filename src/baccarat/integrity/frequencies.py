"""Outcome frequencies of a table against the exact probabilities of a fair shoe.

The events watched on a table (its ``Reference``): Banker, Player and Tie; a natural in
each hand; every event of each side bet the rule set offers (``player_pair:pair``,
``dragon_7:win``, ``tie:tie_3``, ``dragon_bonus_banker:win_by_9``, …); and the rank of
every card dealt (``rank:9``). Each event's probability on one coup is the exact one for a
full shoe of the rule set's decks (``baccarat.analysis.exact``), and a rank's is 1/13.

Two scopes are counted: the shoe in play, and the table since its rule set last changed
(every shoe, cumulative). In each, an event's count ``O`` is set against its expectation
``E`` with the variance ``V`` of a sum of independent coups (a rank's count within a shoe
with the finite-shoe correction ``(N - c) / (N - 1)``, ``c`` cards dealt of ``N``), as
``z = (|O - E| - 1/2) / sqrt(V)``, the two-sided normal p-value, for an event with
``E >= 5`` and ``n - E >= 5`` only.

The shoe's scope is tested after every round, the cumulative one each time a shoe closes;
each threshold pays for every test it will ever run (Bonferroni): the shoe's scope spends
``ALPHA_SHOE`` over its events and the most rounds a shoe can hold (``N // 4``); the
cumulative scope spends ``ALPHA_TABLE`` over its events, the k-th closed shoe
``1 / (k (k + 1))`` of it. So a fair table raises a shoe alert with probability at most
``ALPHA_SHOE`` per shoe, and a cumulative alert at most ``ALPHA_TABLE`` in its whole life
(up to the normal approximation).

>>> from baccarat.cards import parse_cards
>>> from baccarat.coup import deal
>>> from baccarat.rulesets import load_ruleset
>>> state = FrequencyState.start(reference(load_ruleset("ez")))
>>> state = state.observe(deal(parse_cards("2c Kd 2d 3s 2h 4c")))
>>> counts = {stat.event: stat.observed for stat in state.stats("shoe")}
>>> counts["banker"], counts["dragon_7:win"], counts["rank:2"], counts["natural:player"]
(1, 1, 3, 0)
>>> state.alerts()
()
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from statistics import NormalDist
from typing import Literal

import numpy as np

from baccarat.analysis.exact import exact_odds, full_shoe
from baccarat.bets import BET_TYPES, LOSE
from baccarat.cards import RANKS
from baccarat.coup import Coup, Outcome
from baccarat.rulesets import RuleSet, parse_ruleset

__all__ = [
    "ALPHA_SHOE",
    "ALPHA_TABLE",
    "MIN_EXPECTED",
    "EventStat",
    "FrequencyState",
    "Reference",
    "Scope",
    "reference",
]

#: Family-wise false-alarm bound of the shoe scope, per shoe.
ALPHA_SHOE = 1e-3
#: Family-wise false-alarm bound of the cumulative scope, over a table's life.
ALPHA_TABLE = 1e-3
#: An event is tested once it is expected this many times (and its absence as many).
MIN_EXPECTED = 5.0

Scope = Literal["shoe", "cumulative"]
_RANK_P = 1 / 13
_RANK_NAMES = tuple(f"rank:{rank.symbol}" for rank in RANKS)
_OUTCOMES = {Outcome.BANKER: 0, Outcome.PLAYER: 1, Outcome.TIE: 2}


@dataclass(frozen=True, slots=True)
class Reference:
    """The events watched for a rule set and their exact probability on one coup."""

    ruleset: RuleSet
    #: Outcomes, naturals, then side-bet events (``bet:event``).
    events: tuple[str, ...]
    exact: tuple[Fraction, ...]
    probabilities: tuple[float, ...]
    #: For each side-bet event from the fourth on: its bet and event.
    bet_events: tuple[tuple[str, str], ...]
    #: Cards in a full shoe.
    shoe_cards: int

    @property
    def most_rounds(self) -> int:
        """The most coups a shoe can hold (each takes at least four cards)."""
        return self.shoe_cards // 4

    @property
    def tests(self) -> int:
        """How many tests one scope runs per round at most (events and ranks)."""
        return len(self.events) + len(_RANK_NAMES)


def reference(ruleset: RuleSet) -> Reference:
    """The reference of a rule set (computed once per rule set and process)."""
    return _reference(ruleset.to_toml())


@lru_cache(maxsize=16)
def _reference(text: str) -> Reference:
    ruleset = parse_ruleset(text)
    odds = exact_odds(full_shoe(ruleset), ruleset)
    natural = _natural_probability(ruleset.decks)
    events = ["banker", "player", "tie", "natural:player", "natural:banker"]
    exact = [odds.banker, odds.player, odds.tie, natural, natural]
    bet_events: list[tuple[str, str]] = []
    seen: set[frozenset[str]] = set()
    for name, bet in odds.bets.items():
        kinds = BET_TYPES[name].events
        if LOSE not in kinds:
            # Two complementary events (Big, Small): one says it all, once per table.
            if frozenset(kinds) in seen:
                continue
            seen.add(frozenset(kinds))
            kinds = kinds[:1]
        for event in kinds:
            if event == LOSE or (name in ("player", "banker") and event in ("win", "tie")):
                continue
            probability = bet.event_probabilities[event]
            if probability == 0:
                continue
            events.append(f"{name}:{event}")
            exact.append(probability)
            bet_events.append((name, event))
    return Reference(
        ruleset,
        tuple(events),
        tuple(exact),
        tuple(float(p) for p in exact),
        tuple(bet_events),
        52 * ruleset.decks,
    )


def _natural_probability(decks: int) -> Fraction:
    """Probability that a hand's first two cards make 8 or 9, in a full shoe."""
    counts = [16 * decks, *(4 * decks,) * 9]
    total = sum(counts)
    ways = sum(
        counts[a] * (counts[b] - (a == b))
        for a in range(10)
        for b in range(10)
        if (a + b) % 10 >= 8
    )
    return Fraction(ways, total * (total - 1))


@dataclass(frozen=True, slots=True)
class Sums:
    """Counts, expectations and variances of each event (then each rank) over closed shoes."""

    coups: int
    observed: tuple[int, ...]
    expected: tuple[float, ...]
    variance: tuple[float, ...]

    @classmethod
    def zero(cls, size: int) -> Sums:
        return cls(0, (0,) * size, (0.0,) * size, (0.0,) * size)

    def plus(self, other: Sums) -> Sums:
        return Sums(
            self.coups + other.coups,
            tuple(a + b for a, b in zip(self.observed, other.observed, strict=True)),
            tuple(a + b for a, b in zip(self.expected, other.expected, strict=True)),
            tuple(a + b for a, b in zip(self.variance, other.variance, strict=True)),
        )


@dataclass(frozen=True, slots=True)
class EventStat:
    """One event in one scope: how often it happened, and how often it should have."""

    scope: Scope
    event: str
    #: Coups counted (for a rank: cards dealt).
    trials: int
    observed: int
    expected: float
    variance: float
    z: float
    p_value: float
    #: Whether enough was expected for a test.
    tested: bool

    def to_json(self) -> dict[str, object]:
        return {
            "scope": self.scope,
            "event": self.event,
            "trials": self.trials,
            "observed": self.observed,
            "expected": round(self.expected, 3),
            "z": round(self.z, 3),
            "p_value": self.p_value,
            "tested": self.tested,
        }


@dataclass(frozen=True, slots=True)
class FrequencyState:
    """What a table has dealt since its rule set last changed, the shoe in play apart."""

    reference: Reference
    #: Coups of the shoe in play, each event's count in it, and its cards by rank.
    coups: int
    counts: tuple[int, ...]
    ranks: tuple[int, ...]
    #: Every closed shoe, summed (events first, then ranks).
    closed: Sums
    #: Shoes counted, the one in play included.
    shoes: int

    @classmethod
    def start(cls, ref: Reference) -> FrequencyState:
        """Nothing dealt yet: the first shoe begins."""
        size = len(ref.events)
        return cls(ref, 0, (0,) * size, (0,) * 13, Sums.zero(size + 13), 1)

    def observe(self, coup: Coup) -> FrequencyState:
        """The state after one more coup of the shoe in play."""
        hit = [0] * len(self.counts)
        hit[_OUTCOMES[coup.winner]] = 1
        hit[3] = coup.player.natural
        hit[4] = coup.banker.natural
        classified: dict[str, str] = {}
        for i, (bet, event) in enumerate(self.reference.bet_events, start=5):
            kind = classified.get(bet)
            if kind is None:
                kind = classified[bet] = BET_TYPES[bet].classify(coup)
            hit[i] = kind == event
        ranks = list(self.ranks)
        for card in coup.cards:
            ranks[card.rank.index] += 1
        return replace(
            self,
            coups=self.coups + 1,
            counts=tuple(a + b for a, b in zip(self.counts, hit, strict=True)),
            ranks=tuple(ranks),
        )

    def next_shoe(self, ref: Reference | None = None) -> FrequencyState:
        """Close the shoe in play; a new rule set (``ref``) starts the count again."""
        if ref is not None and ref.ruleset.to_toml() != self.reference.ruleset.to_toml():
            return FrequencyState.start(ref)
        if self.coups == 0:
            return self
        closed = self.closed.plus(self._shoe_sums())
        size = len(self.counts)
        return replace(
            self, coups=0, counts=(0,) * size, ranks=(0,) * 13, closed=closed, shoes=self.shoes + 1
        )

    def _shoe_sums(self) -> Sums:
        n, probabilities = self.coups, self.reference.probabilities
        cards = sum(self.ranks)
        shoe = self.reference.shoe_cards
        finite = (shoe - cards) / (shoe - 1)
        rank_e = cards * _RANK_P
        rank_v = cards * _RANK_P * (1 - _RANK_P) * finite
        return Sums(
            n,
            (*self.counts, *self.ranks),
            (*(n * p for p in probabilities), *(rank_e,) * 13),
            (*(n * p * (1 - p) for p in probabilities), *(rank_v,) * 13),
        )

    def _scope_sums(self, scope: Scope) -> Sums:
        shoe = self._shoe_sums()
        return shoe if scope == "shoe" else self.closed.plus(shoe)

    def alpha(self, scope: Scope) -> float:
        """The p-value at or below which a test of ``scope`` alerts now: in a shoe, after any
        of its rounds; cumulative, when the k-th shoe has closed."""
        ref = self.reference
        if scope == "shoe":
            return ALPHA_SHOE / (ref.tests * ref.most_rounds)
        closed = self.shoes - 1
        return ALPHA_TABLE / (ref.tests * closed * (closed + 1)) if closed else 0.0

    def stats(self, scope: Scope) -> tuple[EventStat, ...]:
        """Every event's count in ``scope``, with its z-score and p-value."""
        sums = self._scope_sums(scope)
        names = (*self.reference.events, *_RANK_NAMES)
        cards = sum(sums.observed[len(self.counts) :])
        result = []
        for i, name in enumerate(names):
            trials = sums.coups if i < len(self.counts) else cards
            o, e, v = sums.observed[i], sums.expected[i], sums.variance[i]
            tested = e >= MIN_EXPECTED and trials - e >= MIN_EXPECTED and v > 0
            z = _z(o, e, v) if v > 0 else 0.0
            result.append(EventStat(scope, name, trials, o, e, v, z, _p_value(z), tested))
        return tuple(result)

    def alerts(self, scopes: tuple[Scope, ...] = ("shoe",)) -> tuple[EventStat, ...]:
        """The tested events of ``scopes`` whose p-value is at or below its threshold: the
        shoe's after each round, the cumulative ones when a shoe has closed.

        The same figures as ``stats``, in arrays: this runs after every round.
        """
        size = len(self.counts)
        p = _array(self.reference.probabilities)
        n, cards = self.coups, sum(self.ranks)
        shoe_cards = self.reference.shoe_cards
        rank_v = cards * _RANK_P * (1 - _RANK_P) * (shoe_cards - cards) / (shoe_cards - 1)
        observed = np.array((*self.counts, *self.ranks), dtype=np.float64)
        expected = np.concatenate((n * p, np.full(13, cards * _RANK_P)))
        variance = np.concatenate((n * p * (1 - p), np.full(13, rank_v)))
        trials = np.concatenate((np.full(size, float(n)), np.full(13, float(cards))))
        found: list[EventStat] = []
        for scope in scopes:
            if scope == "cumulative":
                closed = self.closed
                observed = observed + np.array(closed.observed, dtype=np.float64)
                expected = expected + np.array(closed.expected)
                variance = variance + np.array(closed.variance)
                trials[:size] += closed.coups
                trials[size:] += sum(closed.observed[size:])
            tested = (expected >= MIN_EXPECTED) & (trials - expected >= MIN_EXPECTED)
            tested &= variance > 0
            if not tested.any():
                continue
            deviation = np.maximum(np.abs(observed - expected) - 0.5, 0.0)
            z = np.where(tested, deviation / np.sqrt(np.where(tested, variance, 1.0)), 0.0)
            hits = np.flatnonzero(z >= _z_limit(self.alpha(scope)))
            if len(hits):
                stats = self.stats(scope)
                found += [stats[i] for i in hits.tolist()]
        return tuple(found)


def _z(observed: int, expected: float, variance: float) -> float:
    """The size of a deviation, with the continuity correction."""
    return max(abs(observed - expected) - 0.5, 0.0) / math.sqrt(variance)


def _p_value(z: float) -> float:
    """Two-sided normal p-value of ``|z|``."""
    return math.erfc(z / math.sqrt(2))


@lru_cache(maxsize=16)
def _array(values: tuple[float, ...]) -> np.ndarray[tuple[int], np.dtype[np.float64]]:
    array = np.array(values, dtype=np.float64)
    array.flags.writeable = False
    return array


@lru_cache(maxsize=4096)
def _z_limit(alpha: float) -> float:
    return -NormalDist().inv_cdf(alpha / 2)
