"""Strategies: how they are written, and a running count checked by hand on a real shoe."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from baccarat.analysis.simulate import compile_job, kernel, keys
from baccarat.analysis.simulate.results import bet_nets
from baccarat.analysis.simulate.strategy import (
    DRAGON_7_COUNT,
    PANDA_8_COUNT,
    Count,
    Strategy,
    StrategyError,
)
from baccarat.bets import BET_TYPES
from baccarat.cards import Card, full_deck, parse_cards
from baccarat.rulesets import load_ruleset


def test_published_counts_are_balanced() -> None:
    # A balanced count sums to zero over a deck: the running count ends a shoe at zero.
    for count in (DRAGON_7_COUNT, PANDA_8_COUNT):
        assert sum(count.tags) == 0
    assert DRAGON_7_COUNT.tags == (0, 0, 0, -1, -1, -1, -1, 2, 2, 0, 0, 0, 0)
    assert PANDA_8_COUNT.tags == (1, 1, -2, -2, -2, -1, -1, -2, 4, 1, 1, 1, 1)
    assert DRAGON_7_COUNT.threshold == 4


@pytest.mark.parametrize(
    ("text", "bet", "count"),
    [
        ("banker", "banker", None),
        ("flat:tie", "tie", None),
        (" flat : player ", "player", None),
        ("count:dragon_7", "dragon_7", DRAGON_7_COUNT),
        ("count:panda_8", "panda_8", PANDA_8_COUNT),
        ("count:dragon_7::2.5", "dragon_7", Count(DRAGON_7_COUNT.tags, Fraction(5, 2))),
        (
            "count:tie:1,2,3,4,5,6,7,8,9,0:-1",
            "tie",
            Count((1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0), Fraction(-1)),
        ),
        (
            "count:big:1,1,1,1,1,1,1,1,1,-1,-2,-3,-4:1/3",
            "big",
            Count((1,) * 9 + (-1, -2, -3, -4), Fraction(1, 3)),
        ),
    ],
)
def test_strategies_are_read(text: str, bet: str, count: Count | None) -> None:
    strategy = Strategy.parse(text)
    assert strategy == Strategy(bet, count)
    assert Strategy.parse(strategy.text) == strategy


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("nonsense", "unknown bet 'nonsense'"),
        ("flat:", "unknown bet ''"),
        ("count:banker", "no published count for 'banker'"),
        ("count:tie::3", "no published count for 'tie'"),
        ("count:dragon_7:1,2,3:4", "give 13 tags by rank"),
        ("count:dragon_7:1,x,3:4", "whole numbers"),
        ("count:dragon_7::four", "must be a number"),
        ("count:dragon_7:1", "bad strategy"),
        ("martingale:banker", "bad strategy"),
    ],
)
def test_bad_strategies_are_refused(text: str, message: str) -> None:
    with pytest.raises(StrategyError, match=message):
        Strategy.parse(text)


@given(st.integers(-500, 500), st.integers(6, 416), st.fractions(-20, 20))
def test_true_count_decision(running: int, left: int, threshold: Fraction) -> None:
    count = Count(DRAGON_7_COUNT.tags, threshold)
    assert count.true_count(running, left) == Fraction(running, 1) / Fraction(left, 52)
    assert count.bets(running, left) == (running * 52 >= threshold * left)


# A one-deck shoe, written out: the turned 5h burns six cards (8s 8h 9s 9h 9c face down).
HAND_SHOE = (
    "5h 8s 8h 9s 9h 9c"
    " Kc Qd Jh Ts 4c 7d"  # Player 0 draws 4; Banker 0 draws 7: Banker wins 7-4 (three-card 7)
    " 8d 2c Ad 3h"  # Player 9 natural beats Banker 5
    " 9d 8c Kd Ks"  # naturals, Player 9 beats Banker 8
    " 2d 3c 2h Qh 6c 5d"  # Player 4 draws 6 (0); Banker 3 draws on a 6: 5 -> 8; Banker wins
    " Ac Jc Ah Jd 6d 7c"  # Player 2 draws 6 (8); Banker 0 draws 7; Player wins 8-7
)


def hand_shoe() -> np.ndarray[tuple[int], np.dtype[np.uint8]]:
    first = parse_cards(HAND_SHOE)
    rest = [card for card in full_deck() if card not in first]
    order = first + rest
    assert sorted(order) == sorted(full_deck())
    return np.array([keys.CARD_CODES[c.rank.index + 13 * c.suit.index] for c in order], np.uint8)


def test_running_count_by_hand() -> None:
    """The Dragon 7 count through the shoe above, worked out by hand.

    Seen before coup 1: 5h (-1); the five burned cards are face down. Coup 1 adds 4c, 7d
    (-2), coup 2 adds 8d (+2), coup 3 adds 9d, 8c (+4), coup 4 adds 6c, 5d (-2). True count
    before coup 4: 3 / (32 / 52) = 4.875 >= 4, the only bet; it loses (Banker wins with 8).
    With the cut card 21 from the end (position 31), coup 5 ends at 32: past it, and the
    shoe finishes there.
    """
    job, _ = compile_job(load_ruleset("ez"), 1, 0, [Strategy.parse("count:dragon_7")])
    record, _, shoe_net, tc_events, bet_events = kernel.play_order(
        hand_shoe(), True, 21, True, job.strategies
    )
    positions, used, _, running = (record[:, i].tolist() for i in range(4))
    assert positions == [6, 12, 16, 20, 26]
    assert used == [6, 4, 4, 6, 6]
    assert running == [-1, -3, -1, 3, 1]
    left = [52 - p for p in positions]
    assert [DRAGON_7_COUNT.true_count(r, n) for r, n in zip(running, left, strict=True)] == [
        Fraction(-52, 46),
        Fraction(-156, 40),
        Fraction(-52, 36),
        Fraction(39, 8),
        Fraction(2),
    ]
    dragon = BET_TYPES["dragon_7"].events
    assert bet_events[0, : len(dragon)].tolist() == [0, 1]  # one bet, lost
    assert shoe_net.tolist() == [[-1]]
    # Every coup is tallied by its true count, rounded down: -2, -4, -2, 4, 2.
    by_tc = {
        tc - kernel.TC_LIMIT: row[: len(dragon)].tolist()
        for tc, row in enumerate(tc_events[0])
        if row.any()
    }
    assert by_tc == {-4: [0, 1], -2: [1, 1], 2: [0, 1], 4: [0, 1]}


def test_the_hand_shoe_is_what_the_comments_say() -> None:
    from baccarat.shoe import Shoe

    order = [keys.card_of_code(int(c)) for c in hand_shoe()]
    shoe = Shoe(order, cut_card_from_end=21, last_coup="finish")
    coups = list(shoe.coups())
    assert [c.winner.value for c in coups] == ["banker", "player", "player", "banker", "player"]
    assert [(c.player_total, c.banker_total) for c in coups] == [
        (4, 7),
        (9, 5),
        (9, 8),
        (0, 8),
        (8, 7),
    ]
    assert shoe.burned == tuple(order[:6]) and order[0] == Card.parse("5h")


@pytest.mark.parametrize(
    ("text", "ties"),
    [
        ("count:dragon_7::0", 20),
        ("count:panda_8::3/2", 0),
        ("count:tie:1,-1,0,0,0,0,0,0,0,0:-1/3", 0),
    ],
)
def test_kernel_bets_exactly_when_the_count_says(text: str, ties: int) -> None:
    """On real shoes, the kernel's bets and true-count bins are those of ``Count``, to the coup.

    A threshold of 0 makes the true count land exactly on it often (``ties`` times at least):
    the kernel must bet then.
    """
    strategy = Strategy.parse(text)
    assert strategy.count is not None
    job, scales = compile_job(load_ruleset("ez"), 1, 0, [strategy])
    table = keys.key_events(BET_TYPES[strategy.bet])
    nets = bet_nets(load_ruleset("ez"), strategy.bet)
    state = np.random.SeedSequence(3).generate_state(4, np.uint64)
    on_threshold = 0
    for order in kernel.shuffled_orders(state, 40, 8):
        record, _, shoe_net, tc_events, bet_events = kernel.play_order(
            order, True, 14, False, job.strategies
        )
        expected_bets = np.zeros_like(bet_events)
        expected_tc = np.zeros_like(tc_events)
        won = Fraction(0)
        # The count, kept here from the cards: the turned card, then each coup's cards.
        rank = [keys.card_of_code(int(code)).rank.index for code in order]
        count = strategy.count.tags[rank[0]]
        for position, used, key, running in record.tolist():
            assert running == count
            count += sum(strategy.count.tags[r] for r in rank[position : position + used])
            left = len(order) - position
            true_count = strategy.count.true_count(running, left)
            on_threshold += true_count == strategy.count.threshold
            event = table[key]
            tc = min(max(math.floor(true_count), -kernel.TC_LIMIT), kernel.TC_LIMIT)
            expected_tc[0, tc + kernel.TC_LIMIT, event] += 1
            if strategy.count.bets(running, left):
                expected_bets[0, event] += 1
                won += nets[event]
        assert (bet_events == expected_bets).all()
        assert (tc_events == expected_tc).all()
        assert shoe_net[0, 0] == won * scales[0]
    assert on_threshold >= ties
