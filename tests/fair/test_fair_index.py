"""The unbiased index and the Fisher–Yates shuffle: exact on small words, chi-square on real ones."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from scipy.stats import chisquare

from baccarat.fair import (
    derive_order,
    fisher_yates,
    index_limit,
    order_key,
    stream_words,
    unbiased_index,
)

SMALL_N = range(1, 65)


class Words:
    """A synthetic stream: the given words, then a sentinel that must never be needed."""

    def __init__(self, words: list[int]) -> None:
        self.words = words
        self.read = 0

    def __call__(self) -> int:
        if self.read >= len(self.words):
            raise AssertionError("read past the end of the synthetic stream")
        self.read += 1
        return self.words[self.read - 1]


@pytest.mark.parametrize("bits", [6, 8, 12])
def test_every_word_exhaustively(bits: int) -> None:
    """Every word value of a small width, for every n: accepted iff below the limit, and each
    residue is produced by exactly the same number of accepted words."""
    size = 1 << bits
    for n in SMALL_N:
        if n > size:
            continue
        accepted: Counter[int] = Counter()
        rejected = []
        for word in range(size):
            stream = Words([word, 0])  # 0 is always accepted: it answers after a rejection
            index = unbiased_index(n, stream, bits=bits)
            if stream.read == 1:
                accepted[index] += 1
                assert index == word % n
            else:
                assert stream.read == 2 and index == 0
                rejected.append(word)
        limit = index_limit(n, bits)
        assert rejected == list(range(limit, size))
        assert sorted(accepted) == list(range(n))
        assert set(accepted.values()) == {size // n}
        assert limit % n == 0 and size - limit < n  # the fewest words rejected


def test_32_bit_boundaries() -> None:
    """At the scheme's width, around the limit, zero and the top: the same rule exactly."""
    top = 1 << 32
    for n in [*SMALL_N, 196, 415, 416]:
        limit = index_limit(n)
        assert limit == (top // n) * n and 0 <= top - limit < n
        probes = {*range(2 * n), *range(limit - 2 * n, min(limit + 2 * n, top)), top - 1, top - n}
        for word in sorted(probes):
            stream = Words([word, 5 * n + 3])
            index = unbiased_index(n, stream)
            if word < limit:
                assert (stream.read, index) == (1, word % n)
            else:
                assert (stream.read, index) == (2, (5 * n + 3) % n)


def test_a_run_of_rejected_words_is_all_skipped() -> None:
    limit = index_limit(3)  # 2**32 - 1: only the word 2**32 - 1 is rejected for n = 3
    stream = Words([limit] * 5 + [7])
    assert unbiased_index(3, stream) == 1 and stream.read == 6


def test_fisher_yates_skips_exactly_the_rejected_words() -> None:
    """Inserting words >= the limit before draws changes nothing; the shuffle is the same."""
    size = 52
    draws = [(i * 2654435761 + 12345) % (1 << 32) for i in range(size - 1)]
    steps = range(size, 1, -1)
    draws = [word if word < index_limit(n) else 0 for word, n in zip(draws, steps, strict=True)]
    plain = fisher_yates(size, draws)
    padded: list[int] = []
    for step, (word, n) in enumerate(zip(draws, steps, strict=True)):
        rejectable = (1 << 32) - index_limit(n)  # none when n is a power of two
        if rejectable:
            padded += [index_limit(n) + k % rejectable for k in range(step % 3)]
        padded.append(word)
    assert len(padded) > len(draws)
    assert fisher_yates(size, padded) == plain
    # And the draws are the unbiased indexes, applied from the top.
    deck = list(range(size))
    for i, word in zip(range(size - 1, 0, -1), draws, strict=True):
        j = unbiased_index(i + 1, iter([word]).__next__)
        deck[i], deck[j] = deck[j], deck[i]
    assert tuple(deck) == plain


def test_fisher_yates_reaches_every_permutation_of_four_equally() -> None:
    """Over all index choices (4 * 3 * 2 of them), each of the 24 orders comes out once."""
    outcomes = Counter(
        fisher_yates(4, [j3, j2, j1])
        for j3, j2, j1 in itertools.product(range(4), range(3), range(2))
    )
    assert len(outcomes) == 24 and set(outcomes.values()) == {1}


SAMPLES = 100_000
P_VALUE = 0.01


@pytest.fixture(scope="module")
def one_deck_orders() -> list[tuple[int, ...]]:
    """100,000 one-deck orders from a fixed set of seeds (deterministic)."""
    seed = bytes(range(32))
    return [derive_order(seed, f"chi-{k}", "chi-square", 1) for k in range(SAMPLES)]


@pytest.mark.slow
@pytest.mark.parametrize("position", [0, 25, 51])
def test_rank_at_a_position_is_uniform(
    one_deck_orders: list[tuple[int, ...]], position: int
) -> None:
    counts = Counter(order[position] % 13 for order in one_deck_orders)
    observed = [counts[rank] for rank in range(13)]
    assert chisquare(observed).pvalue > P_VALUE


@pytest.mark.slow
def test_card_at_the_first_position_is_uniform(one_deck_orders: list[tuple[int, ...]]) -> None:
    counts = Counter(order[0] for order in one_deck_orders)
    observed = [counts[card] for card in range(52)]
    assert chisquare(observed).pvalue > P_VALUE


@pytest.mark.slow
def test_last_card_of_eight_decks_is_uniform() -> None:
    """The last position of an 8-deck shoe is set by the first draw alone (i = 415): exact."""
    seed = bytes(32)
    counts: Counter[int] = Counter()
    for k in range(SAMPLES):
        words = stream_words(order_key(seed, f"chi8-{k}", "chi-square"), batch=1)
        counts[unbiased_index(416, words.__next__) % 13] += 1
    observed = [counts[rank] for rank in range(13)]
    assert chisquare(observed).pvalue > P_VALUE
    # The shortcut is the real thing: the first draw is the card at the last position.
    order = derive_order(seed, "chi8-0", "chi-square", 8)
    first = unbiased_index(416, stream_words(order_key(seed, "chi8-0", "chi-square")).__next__)
    assert order[415] == first


def test_chi_square_would_catch_modulo_bias() -> None:
    """The test has teeth: a plain ``u % n`` from 8-bit words is visibly biased for n = 52."""
    counts = Counter((word % 256) % 52 % 13 for word in range(SAMPLES))
    assert chisquare([counts[r] for r in range(13)]).pvalue < P_VALUE
