"""The EV of every bet before each coup of a dealt shoe, and where a bet turns positive.

Before each coup the shoe holds the cards not yet dealt or burned (``Shoe.composition``):
the trace prices every bet on exactly those cards, so it is what a player who knew the
burned cards as well as the dealt ones could know. ``ev_trace`` follows a ``Shoe`` (burn,
cut card, last-coup rule) without dealing it; ``ev_traces`` does the same for many shoes
given as arrays of card numbers, compiled.

>>> import random
>>> from baccarat.rulesets import load_ruleset
>>> from baccarat.shoe import Shoe
>>> shoe = Shoe.shuffled(decks=8, rng=random.Random(5))
>>> trace = ev_trace(shoe, load_ruleset("standard"))
>>> len(trace.points) == len(list(shoe.coups())), trace.points[0].cards_left == 416 - len(shoe.burned)
(True, True)
>>> all(set(t) <= set(p) for t, p in zip(trace.turns_positive().values(), trace.positive().values()))
True
>>> exact = exact_ev_trace(Shoe.shuffled(decks=1, rng=random.Random(5)), load_ruleset("standard"))
>>> type(exact.points[0].evs["banker"]).__name__
'Fraction'
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, TypeVar

import numpy as np
from numpy.typing import NDArray

from baccarat.analysis.exact import exact_odds
from baccarat.analysis.exact.counts import CardCounts, card_number, known
from baccarat.analysis.exact.pricing import rule_plan
from baccarat.cards import RANKS
from baccarat.coup import Coup
from baccarat.rulesets import RuleSet
from baccarat.shoe import LastCoupRule, Shoe, ShoeProcedure

__all__ = [
    "FLOAT_TOLERANCE",
    "Trace",
    "TraceArrays",
    "TracePoint",
    "coups_ev_trace",
    "ev_trace",
    "ev_traces",
    "exact_coups_ev_trace",
    "exact_ev_trace",
]

Number = TypeVar("Number", Fraction, float)
#: The float path agrees with the exact one to this much (tests hold it to it).
FLOAT_TOLERANCE = 1e-12
Ints = NDArray[np.int64]
Floats = NDArray[np.float64]


@dataclass(frozen=True)
class TracePoint(Generic[Number]):
    """The EV per unit staked of each priced bet before one coup."""

    #: The number of the coup about to be dealt (1 for the first coup of the trace).
    coup: int
    cards_left: int
    evs: Mapping[str, Number]


@dataclass(frozen=True)
class Trace(Generic[Number]):
    """An EV trace: one point before each coup."""

    rules: str
    bets: tuple[str, ...]
    points: tuple[TracePoint[Number], ...]
    omitted: Mapping[str, str]
    #: How far above zero an EV must be to count as positive: 0 for exact EVs, the float
    #: path's accuracy for floats (a sure push must not show as a gain of 1e-16).
    tolerance: float = 0.0

    def positive(self) -> dict[str, list[int]]:
        """For each bet, the coups before which its EV is positive (the player has the edge)."""
        return {
            bet: [point.coup for point in self.points if point.evs[bet] > self.tolerance]
            for bet in self.bets
        }

    def turns_positive(self) -> dict[str, list[int]]:
        """For each bet, the coups before which its EV becomes positive (it was not before)."""
        turns: dict[str, list[int]] = {}
        for bet, coups in self.positive().items():
            turns[bet] = [c for i, c in enumerate(coups) if i == 0 or coups[i - 1] != c - 1]
        return turns


def _order(shoe: Shoe) -> Ints:
    return np.array([card_number(card) for card in shoe.order], dtype=np.int64)


def ev_trace(shoe: Shoe, ruleset: RuleSet) -> Trace[float]:
    """The float EV trace of ``shoe`` from its current position (the shoe is not dealt)."""
    if shoe.finished:
        return Trace(ruleset.name, _priced(ruleset), (), _omitted(ruleset), FLOAT_TOLERANCE)
    arrays = _trace(
        _order(shoe)[None, :],
        np.array([shoe.position]),
        np.array([shoe.cut_position]),
        shoe.last_coup,
        ruleset,
        last_coup_due=shoe.cut_card_out,
    )
    points = tuple(
        TracePoint(
            i + 1, int(arrays.cards_left[i]), dict(zip(arrays.bets, row.tolist(), strict=True))
        )
        for i, row in enumerate(arrays.evs)
    )
    return Trace(ruleset.name, arrays.bets, points, arrays.omitted, FLOAT_TOLERANCE)


def exact_ev_trace(shoe: Shoe, ruleset: RuleSet) -> Trace[Fraction]:
    """The exact EV trace of ``shoe`` from its current position (the shoe is not dealt)."""
    copied = copy.copy(shoe)  # a Shoe's state is a position and flags over an immutable order
    points: list[TracePoint[Fraction]] = []
    while not copied.finished:
        odds = exact_odds(CardCounts.of(copied.order[copied.position :]), ruleset)
        evs = {name: bet.ev for name, bet in odds.bets.items()}
        points.append(TracePoint(len(points) + 1, odds.cards_left, evs))
        copied.deal_coup()
    return Trace(ruleset.name, _priced(ruleset), tuple(points), _omitted(ruleset))


def coups_ev_trace(start: CardCounts, coups: Sequence[Coup], ruleset: RuleSet) -> Trace[float]:
    """The EV trace of coups already dealt (a table's records), from the counts ``start``.

    ``start`` is what the shoe held before the first of ``coups`` (a full shoe less the
    burned cards, if they are known); each coup's cards leave it in turn. ``ShoeError`` if
    a coup uses a card that is not there.
    """
    shoes = _before_each(start, coups)
    if not shoes:
        return Trace(ruleset.name, _priced(ruleset), (), _omitted(ruleset), FLOAT_TOLERANCE)
    from baccarat.analysis.exact.float_path import fast_engine

    engine = fast_engine(ruleset, "cards", "ev")
    rows: Floats = engine.evaluate(*engine.arrays([known(shoe) for shoe in shoes]))
    bets = tuple(name for name, _ in engine.columns)
    points = tuple(
        TracePoint(i + 1, shoe.total, dict(zip(bets, row.tolist(), strict=True)))
        for i, (shoe, row) in enumerate(zip(shoes, rows, strict=True))
    )
    return Trace(ruleset.name, bets, points, engine.omitted, FLOAT_TOLERANCE)


def exact_coups_ev_trace(
    start: CardCounts, coups: Sequence[Coup], ruleset: RuleSet
) -> Trace[Fraction]:
    """``coups_ev_trace`` in exact fractions.

    >>> from baccarat.cards import parse_cards
    >>> from baccarat.coup import deal
    >>> from baccarat.rulesets import load_ruleset
    >>> coups = [deal(parse_cards("4h 3c 2d 2s 7h")), deal(parse_cards("9h 3c Kd 3s"))]
    >>> trace = exact_coups_ev_trace(CardCounts.full(1), coups, load_ruleset("standard"))
    >>> [p.cards_left for p in trace.points], trace.points[0].evs["player_pair"]
    ([52, 47], Fraction(-5, 17))
    """
    points = []
    for i, shoe in enumerate(_before_each(start, coups)):
        odds = exact_odds(shoe, ruleset)
        evs = {name: bet.ev for name, bet in odds.bets.items()}
        points.append(TracePoint(i + 1, odds.cards_left, evs))
    return Trace(ruleset.name, _priced(ruleset), tuple(points), _omitted(ruleset))


def _before_each(start: CardCounts, coups: Sequence[Coup]) -> list[CardCounts]:
    shoes = [start] if coups else []
    for coup in coups[:-1]:
        shoes.append(shoes[-1].without(coup.cards))
    return shoes


@dataclass(frozen=True, eq=False)
class TraceArrays:
    """The EV traces of many shoes: one row per coup, shoe after shoe."""

    bets: tuple[str, ...]
    omitted: Mapping[str, str]
    #: For each row: the shoe (index into the input), the coup's number in it, cards left.
    shoe: Ints
    coup: Ints
    cards_left: Ints
    #: EV per unit staked of each bet of ``bets``, one row per coup.
    evs: Floats


def ev_traces(orders: Ints, procedure: ShoeProcedure, ruleset: RuleSet) -> TraceArrays:
    """The EV traces of many shoes, each a row of card numbers 0-51 (``card_number``).

    Each shoe is prepared by ``procedure`` (burn, cut card, last-coup rule) as
    ``Shoe.from_procedure`` would, then traced from its first coup.
    """
    orders = np.ascontiguousarray(orders, dtype=np.int64)
    turned = _POINT_OF_CARD[orders[:, 0]]
    # The burn: the turned card and as many more as its value (tens and faces burn 10).
    first = 1 + np.where(turned == 0, 10, turned) if procedure.burn else np.zeros(len(orders))
    cut = orders.shape[1] - procedure.cut_card_from_end
    return _trace(
        orders,
        first.astype(np.int64),
        np.full(len(orders), cut, dtype=np.int64),
        procedure.last_coup,
        ruleset,
    )


def _trace(
    orders: Ints,
    first: Ints,
    cut: Ints,
    last_coup: LastCoupRule,
    ruleset: RuleSet,
    *,
    last_coup_due: bool = False,
) -> TraceArrays:
    from baccarat.analysis.exact.float_path import fast_engine

    engine = fast_engine(ruleset, "cards", "ev")
    native = engine.native()
    if native is not None:
        shoe, coup, left, evs = native.traces(
            orders, first, cut, finish=last_coup is LastCoupRule.FINISH, due=last_coup_due
        )
        bets = tuple(name for name, _ in engine.columns)
        return TraceArrays(bets, engine.omitted, shoe, coup, left, evs)
    from baccarat.analysis.exact import kernels
    from baccarat.analysis.exact.coup_table import tableau_arrays

    player, banker = tableau_arrays()
    starts, coups = kernels.deal_shoes(
        orders,
        first,
        cut,
        last_coup is LastCoupRule.FINISH,
        last_coup_due,
        _POINT_OF_CARD,
        player,
        banker,
    )
    cards = kernels.remaining_cards(orders, starts, coups)
    values = cards @ _VALUE_OF_CARD
    ranks = cards @ _RANK_OF_CARD
    evs = engine.evaluate(values, ranks, cards, compiled=True)
    shoe = np.repeat(np.arange(len(orders)), coups)
    coup = np.arange(len(shoe)) - np.repeat(np.cumsum(coups) - coups, coups) + 1
    return TraceArrays(
        bets=tuple(name for name, _ in engine.columns),
        omitted=engine.omitted,
        shoe=shoe,
        coup=coup,
        cards_left=cards.sum(axis=1).astype(np.int64),
        evs=evs,
    )


def _priced(ruleset: RuleSet) -> tuple[str, ...]:
    return tuple(plan.name for plan in rule_plan(ruleset).split("cards")[0])


def _omitted(ruleset: RuleSet) -> Mapping[str, str]:
    return rule_plan(ruleset).split("cards")[1]


def _one_hot(of_card: Sequence[int], width: int) -> Floats:
    table = np.zeros((52, width))
    table[np.arange(52), of_card] = 1.0
    return table


_POINT_OF_CARD = np.array([RANKS[c % 13].point for c in range(52)], dtype=np.int64)
_VALUE_OF_CARD = _one_hot(_POINT_OF_CARD.tolist(), 10)
_RANK_OF_CARD = _one_hot([c % 13 for c in range(52)], 13)
