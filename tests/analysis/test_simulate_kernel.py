"""The compiled kernel against the pure-Python game: same shuffle, same shoes, same events.

Every claim the simulator makes rests on three facts proved here: the kernel shuffles as
documented (xoshiro256**, Lemire, Fisher–Yates), it deals a shoe exactly as
``baccarat.shoe.Shoe`` does (burn, cut card, last-coup rule, the six-card floor), and its
key of a coup classifies every bet as ``baccarat.bets`` does.
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import cache
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

from baccarat.analysis.exact.signature import coup_signature, pair_level, representatives
from baccarat.analysis.simulate import compile_job, kernel, keys
from baccarat.analysis.simulate.strategy import Strategy
from baccarat.bets import BET_TYPES
from baccarat.cards import Card, Rank, Suit, full_deck
from baccarat.coup import Coup, deal, deal_from
from baccarat.rulesets import load_ruleset
from baccarat.shoe import Shoe
from baccarat.tableau import banker_decision, is_natural, player_decision

MASK32 = (1 << 32) - 1
MASK64 = (1 << 64) - 1


def rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & MASK64


class Xoshiro:
    """xoshiro256** as its authors publish it, in plain Python integers."""

    def __init__(self, state: Any) -> None:
        self.s = [int(word) for word in state]

    def __call__(self) -> int:
        s0, s1, s2, s3 = self.s
        out = rotl(s1 * 5 & MASK64, 7) * 9 & MASK64
        t = s1 << 17 & MASK64
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotl(s3, 45)
        self.s = [s0, s1, s2, s3]
        return out


def reference_shuffle(cards: list[int], draw: Xoshiro) -> None:
    """Fisher–Yates from the top; each index from 32 bits by Lemire's rejection method."""
    i = len(cards) - 1
    while i > 0:
        word = draw()
        for x in (word >> 32, word & MASK32):
            bound = i + 1
            m = x * bound
            while (m & MASK32) < (1 << 32) % bound:
                m = (draw() >> 32) * bound
            j = m >> 32
            cards[i], cards[j] = cards[j], cards[i]
            i -= 1
            if i == 0:
                break


def no_strategies() -> Any:
    return compile_job(load_ruleset("standard"), 1, 0)[0].strategies


def test_xoshiro_reference_matches_the_published_sequence() -> None:
    draw = Xoshiro([1, 2, 3, 4])
    assert [draw() for _ in range(4)] == [11520, 0, 1509978240, 1215971899390074240]


@pytest.mark.parametrize("decks", [1, 8])
def test_kernel_shuffle_is_the_documented_algorithm(decks: int) -> None:
    state = np.random.SeedSequence(2024).generate_state(4, np.uint64)
    draw = Xoshiro(state)
    orders = kernel.shuffled_orders(state.copy(), 5, decks)
    fresh = [int(keys.CARD_CODES[c % 52]) for c in range(52 * decks)]
    for order in orders:
        expected = list(fresh)
        reference_shuffle(expected, draw)
        assert order.tolist() == expected
        assert Counter(order.tolist()) == Counter(fresh)


def test_shuffle_is_uniform_enough_to_see() -> None:
    state = np.random.SeedSequence(99).generate_state(4, np.uint64)
    orders = kernel.shuffled_orders(state, 26_000, 1)
    for position in (0, 25, 51):
        seen = Counter(orders[:, position].tolist())
        assert len(seen) == 52
        assert chisquare(list(seen.values())).pvalue > 1e-4


def test_card_codes_keep_value_rank_and_suit() -> None:
    deck = full_deck()
    codes = [int(keys.CARD_CODES[n]) for n in range(52)]
    assert len(set(codes)) == 52
    for card, code in zip(deck, codes, strict=True):
        assert code & 15 == card.point
        assert keys.card_of_code(code) == card
    # Exhaustive over pairs of cards: the rank test and the same-card test the kernel uses.
    for (a, ca), (b, cb) in itertools.product(zip(deck, codes, strict=True), repeat=2):
        assert (((ca ^ cb) & 0xCF) == 0) == (a.rank == b.rank)
        assert (ca == cb) == (a == b)


@cache
def events_by_key() -> dict[str, Any]:
    """Every bet's event index by key, as the simulator settles it."""
    return {name: keys.key_events(bet) for name, bet in BET_TYPES.items()}


def test_every_kind_of_coup_is_keyed_as_the_exact_engine_sorts_it() -> None:
    """Exhaustive over kinds: the kernel keys one coup of each (signature, pair levels) by
    that kind, and each bet's event by key is the catalogue's ``classify`` of that coup."""
    reps = representatives()
    rows = np.zeros((len(reps.coups), 6), dtype=np.uint8)
    for row, coup in zip(rows, reps.coups, strict=True):
        row[: coup.cards_used] = [keys.code_of(card) for card in coup.cards]
    levels = (reps.signature.tolist(), reps.player_level.tolist(), reps.banker_level.tolist())
    kinds = zip(*levels, strict=True)
    seen = set()
    for coup, (key, used), kind in zip(
        reps.coups, kernel.coup_keys(rows).tolist(), kinds, strict=True
    ):
        assert used == coup.cards_used
        assert key == keys.key_of(*kind) == keys.key_of(*coup_signature(coup))
        assert_same_coup(key, coup)
        seen.add(key)
    # The keys no coup has are exactly those without an event.
    for name, events in events_by_key().items():
        assert set(np.flatnonzero(events >= 0).tolist()) == seen, name


def assert_same_coup(key: int, coup: Coup) -> None:
    fields = keys.key_fields(key)
    assert fields.player_total == coup.player_total
    assert fields.banker_total == coup.banker_total
    assert fields.player_drew == (coup.player.third_card is not None)
    assert fields.banker_drew == (coup.banker.third_card is not None)
    assert fields.player_level == pair_level(coup.player)
    assert fields.banker_level == pair_level(coup.banker)
    assert fields.player_pair == coup.player_pair
    assert fields.banker_pair == coup.banker_pair
    assert fields.perfect_pair == (coup.player.suited_pair or coup.banker.suited_pair)
    for name, events in events_by_key().items():
        assert BET_TYPES[name].events[events[key]] == BET_TYPES[name].classify(coup), name


def tableau_outcome(values: tuple[int, ...]) -> tuple[int, int, bool, bool]:
    """Final totals and who drew, by the tableau functions, for six card values in deal order."""
    player, banker = (values[0] + values[2]) % 10, (values[1] + values[3]) % 10
    if is_natural(player) or is_natural(banker):
        return player, banker, False, False
    player_drew = player_decision(player).draws
    third = values[4] if player_drew else None
    banker_drew = banker_decision(banker, third).draws
    banker_card = values[5] if player_drew else values[4]
    return (
        (player + values[4]) % 10 if player_drew else player,
        (banker + banker_card) % 10 if banker_drew else banker,
        player_drew,
        banker_drew,
    )


def test_every_five_card_start() -> None:
    """Exhaustive over the values of the first five cards (the sixth varies with them)."""
    code = {Rank(r).point: keys.code_of(Card(Rank(r), Suit.CLUBS)) for r in range(1, 11)}
    starts = list(itertools.product(range(10), repeat=5))
    values = [(*start, (start[0] + 3 * start[4] + 1) % 10) for start in starts]
    found = kernel.coup_keys(np.array([[code[v] for v in row] for row in values], dtype=np.uint8))
    for row, (key, used) in zip(values, found.tolist(), strict=True):
        fields = keys.key_fields(key)
        player, banker, player_drew, banker_drew = tableau_outcome(row)
        assert (fields.player_total, fields.banker_total) == (player, banker)
        assert (fields.player_drew, fields.banker_drew) == (player_drew, banker_drew)
        assert used == 4 + player_drew + banker_drew


@settings(max_examples=400, deadline=None)
@given(st.lists(st.integers(0, 52 * 8 - 1), min_size=6, max_size=6, unique=True))
def test_any_six_cards_classify_as_the_catalogue(numbers: list[int]) -> None:
    cards = [Card.from_index(n) for n in numbers]
    coup = deal_from(iter(cards).__next__)
    assert_same_coup(kernel.coup_key(coup.cards), coup)
    assert deal(list(coup.cards)) == coup


@pytest.mark.parametrize(
    ("decks", "last_coup", "burn", "cut"),
    [
        (8, "one-more", True, 14),
        (8, "finish", True, 14),
        (8, "one-more", False, 60),
        (1, "one-more", True, 14),
        (1, "finish", True, 14),
        (1, "finish", False, 0),
        (6, "one-more", True, 52),
    ],
)
def test_kernel_deals_shoes_exactly_as_shoe(
    decks: int, last_coup: str, burn: bool, cut: int
) -> None:
    state = np.random.SeedSequence([decks, cut, burn]).generate_state(4, np.uint64)
    orders = kernel.shuffled_orders(state, 30 if decks > 1 else 200, decks)
    seen: dict[str, set[str]] = {name: set() for name in BET_TYPES}
    for order in orders:
        record = kernel.play_order(order, burn, cut, last_coup == "finish", no_strategies())[0]
        shoe = Shoe(
            [keys.card_of_code(c) for c in order],
            burn=burn,
            cut_card_from_end=cut,
            last_coup=last_coup,
        )
        coups = list(shoe.coups())
        assert len(record) == len(coups) == shoe.coups_dealt
        assert record[0, 0] == len(shoe.burned)
        position = len(shoe.burned)
        for (start, used, key, _), coup in zip(record.tolist(), coups, strict=True):
            assert start == position and used == coup.cards_used
            assert [keys.card_of_code(c) for c in order[start : start + used]] == list(coup.cards)
            assert_same_coup(key, coup)
            for name, events in events_by_key().items():
                seen[name].add(BET_TYPES[name].events[events[key]])
            position += used
        assert position == shoe.position
    if decks == 8 and burn:
        # The comparison reached every event of every bet (not a vacuous agreement).
        for name in BET_TYPES:
            assert seen[name] == set(BET_TYPES[name].events), name


def test_run_batch_tallies_what_play_order_deals() -> None:
    """The batch kernel (two shoes at a time) counts the very coups of the orders it shuffled."""
    job, _ = compile_job(
        load_ruleset("ez"),
        1,
        0,
        [Strategy.parse("count:dragon_7"), Strategy.parse("flat:banker")],
    )
    state = np.random.SeedSequence(7).generate_state(4, np.uint64)
    shoes = 9  # odd: the last shoe is dealt alone
    orders = kernel.shuffled_orders(state.copy(), shoes, 8)
    key_counts = np.zeros(keys.N_KEYS, dtype=np.int64)
    shoe_net = np.zeros((2, shoes), dtype=np.int64)
    tc_events = np.zeros((2, kernel.N_TC_BINS, keys.MAX_EVENTS), dtype=np.int64)
    bet_events = np.zeros((2, keys.MAX_EVENTS), dtype=np.int64)
    coups = kernel.run_batch(
        state,
        shoes,
        8,
        True,
        14,
        False,
        job.strategies,
        key_counts,
        shoe_net,
        tc_events,
        bet_events,
    )
    expected = [kernel.play_order(order, True, 14, False, job.strategies) for order in orders]
    assert coups == sum(len(e[0]) for e in expected)
    assert (key_counts == sum(e[1] for e in expected)).all()
    assert shoe_net.tolist() == np.concatenate([e[2] for e in expected], axis=1).tolist()
    assert (tc_events == sum(e[3] for e in expected)).all()
    assert (bet_events == sum(e[4] for e in expected)).all()
