"""The EV trace deals exactly as ``Shoe`` does, and prices each coup's shoe as the engine does.

The compiled trace does not deal ``Coup`` objects: it walks the card order with the
tableau's arrays. These tests hold it to ``Shoe.coups()`` for burn, cut card and both
last-coup rules, and its EVs to the odds of ``Shoe.composition()`` before each coup.
"""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

from baccarat.analysis.exact import exact_odds
from baccarat.analysis.exact.counts import CardCounts, card_number
from baccarat.analysis.exact.float_path import fast_odds
from baccarat.analysis.trace import (
    Trace,
    TracePoint,
    coups_ev_trace,
    ev_trace,
    ev_traces,
    exact_coups_ev_trace,
    exact_ev_trace,
)
from baccarat.cards import Card, parse_cards
from baccarat.coup import deal
from baccarat.rulesets import load_ruleset
from baccarat.shoe import LastCoupRule, Shoe, ShoeError, ShoeProcedure

STANDARD = load_ruleset("standard")


def shoe_points(shoe: Shoe) -> list[tuple[int, CardCounts]]:
    """Cards left and the counts before each coup, dealt by ``Shoe`` itself."""
    points = []
    while not shoe.finished:
        points.append((shoe.cards_left, CardCounts.of(shoe.order[shoe.position :])))
        shoe.deal_coup()
    return points


@pytest.mark.parametrize(
    "procedure",
    [
        ShoeProcedure(8),
        ShoeProcedure(6, burn=False, cut_card_from_end=60),
        ShoeProcedure(1, cut_card_from_end=0, last_coup=LastCoupRule.FINISH),
        ShoeProcedure(2, cut_card_from_end=30, last_coup=LastCoupRule.FINISH),
        ShoeProcedure(3, burn=True, cut_card_from_end=7, last_coup=LastCoupRule.ONE_MORE),
    ],
)
def test_the_compiled_deal_follows_shoe(procedure: ShoeProcedure) -> None:
    shoes = [Shoe.shuffled(rng=random.Random(seed), procedure=procedure) for seed in range(40)]
    orders = np.array([[card_number(c) for c in shoe.order] for shoe in shoes])
    arrays = ev_traces(orders, procedure, STANDARD)
    for i, shoe in enumerate(shoes):
        expected = [left for left, _ in shoe_points(shoe)]
        assert arrays.cards_left[arrays.shoe == i].tolist() == expected
        assert arrays.coup[arrays.shoe == i].tolist() == list(range(1, len(expected) + 1))


def test_trace_evs_are_the_odds_of_the_cards_left() -> None:
    shoe = Shoe.shuffled(decks=8, rng=random.Random(2))
    trace = ev_trace(shoe, STANDARD)
    points = shoe_points(Shoe.shuffled(decks=8, rng=random.Random(2)))
    assert shoe.position == len(shoe.burned)  # the trace did not deal the shoe
    assert len(trace.points) == len(points)
    for point, (left, counts) in zip(trace.points, points, strict=True):
        assert point.cards_left == left
        odds = fast_odds(counts, STANDARD)
        for bet, ev in point.evs.items():
            assert ev == pytest.approx(odds.bets[bet].ev, abs=1e-12)


def test_float_trace_agrees_with_the_exact_trace() -> None:
    shoe = Shoe.shuffled(decks=1, rng=random.Random(9))
    exact, fast = exact_ev_trace(shoe, STANDARD), ev_trace(shoe, STANDARD)
    assert [p.cards_left for p in exact.points] == [p.cards_left for p in fast.points]
    for e, f in zip(exact.points, fast.points, strict=True):
        for bet in exact.bets:
            assert abs(float(e.evs[bet]) - f.evs[bet]) < 1e-12
    first = exact.points[0]
    odds = exact_odds(CardCounts.of(shoe.order[len(shoe.burned) :]), STANDARD)
    assert first.evs == {name: bet.ev for name, bet in odds.bets.items()}


def test_turning_positive_is_the_start_of_each_positive_run() -> None:
    trace = Trace(
        "t",
        ("a", "b"),
        tuple(
            TracePoint(i + 1, 50 - i, {"a": ev, "b": -1.0})
            for i, ev in enumerate([-0.1, 0.2, 0.3, -0.2, 0.1, 0.0, 0.5])
        ),
        {},
        1e-12,
    )
    assert trace.positive() == {"a": [2, 3, 5, 7], "b": []}
    assert trace.turns_positive() == {"a": [2, 5, 7], "b": []}


def test_a_trace_of_recorded_coups_is_the_trace_of_the_shoe() -> None:
    shoe = Shoe.shuffled(decks=2, rng=random.Random(6))
    start = CardCounts.of(shoe.order[shoe.position :])
    from_shoe = ev_trace(shoe, STANDARD)
    coups = list(shoe.coups())
    recorded = coups_ev_trace(start, coups, STANDARD)
    exact = exact_coups_ev_trace(start, coups[:5], STANDARD)
    assert [p.cards_left for p in recorded.points] == [p.cards_left for p in from_shoe.points]
    for a, b in zip(recorded.points, from_shoe.points, strict=True):
        assert a.evs == pytest.approx(b.evs, abs=1e-12)
    for a, e in zip(recorded.points, exact.points, strict=False):
        assert a.evs == pytest.approx({k: float(v) for k, v in e.evs.items()}, abs=1e-12)
    with pytest.raises(ShoeError, match="no 9s left"):
        coups_ev_trace(CardCounts.full(1), [deal(parse_cards("9s 2c 9s 2d"))] * 2, STANDARD)


def test_a_trace_continues_a_shoe_already_in_play() -> None:
    shoe = Shoe.shuffled(decks=2, rng=random.Random(4))
    while not shoe.cut_card_out:
        shoe.deal_coup()
    trace = ev_trace(shoe, STANDARD)
    assert len(trace.points) == 1  # the cut card is out: one more coup
    assert trace.points[0].cards_left == shoe.cards_left
    shoe.deal_coup()
    assert ev_trace(shoe, STANDARD).points == ()


def test_positive_points_are_marked() -> None:
    # Eight nines and four low cards: Small is already good before coup 1, and after
    # coup 1 (four cards, a Banker natural) only nines are left: every coup is then a
    # natural tie on four cards, so Small wins for sure (+1.5) and Big loses (-1).
    order = parse_cards("2c 3c 4c 5c") + [Card.parse("9s")] * 8
    shoe = Shoe(order, burn=False, cut_card_from_end=0)
    trace = exact_ev_trace(shoe, STANDARD)
    assert [p.cards_left for p in trace.points] == [12, 8]
    assert (trace.points[1].evs["small"], trace.points[1].evs["big"]) == (
        Fraction(3, 2),
        Fraction(-1),
    )
    positive = trace.positive()
    assert positive["small"] == [1, 2]
    assert positive["big"] == positive["banker"] == positive["player"] == []
    assert ev_trace(shoe, STANDARD).positive() == positive
    assert trace.turns_positive()["small"] == [1]
