"""What the odds engine is told about a shoe: counts by card, by rank or by value.

The finer the counts, the more bets can be computed exactly. Counts by value (ten
numbers) say nothing about which ten-valued rank a card has, so no pair bet can be
priced; counts by rank (``baccarat.shoe.Composition``) price pairs but not suited
pairs; counts by card (52 numbers) price everything.

>>> from baccarat.cards import parse_cards
>>> shoe = CardCounts.full(8)
>>> shoe.total, shoe.count(Card.parse("Kd")), shoe.by_rank().count(Rank.KING)
(416, 8, 32)
>>> known(shoe.without(parse_cards("5s 5d Kc"))).values[:6]
(127, 32, 32, 32, 32, 30)
>>> known(ValueCounts.full(1)).detail
'values'
>>> ValueCounts((4, 4, 4))
Traceback (most recent call last):
...
baccarat.shoe.ShoeError: counts by value are 10 numbers (tens first, then 1 to 9), not 3
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, TypeAlias

from baccarat.cards import Card, Rank
from baccarat.shoe import CardCounts, Composition, ShoeError, card_number, check_counts, check_decks

__all__ = [
    "MIN_CARDS",
    "CardCounts",
    "Detail",
    "Known",
    "ShoeCounts",
    "ValueCounts",
    "card_number",
    "known",
]

#: The fewest cards a shoe may hold for the engine: a coup may need six.
MIN_CARDS = 6

#: How fine the counts are: by card, by rank or by value.
Detail: TypeAlias = Literal["cards", "ranks", "values"]


@dataclass(frozen=True, slots=True)
class ValueCounts:
    """How many cards of each baccarat value are left: tens and faces first, then 1 to 9."""

    counts: tuple[int, ...]

    def __post_init__(self) -> None:
        check_counts(self.counts, 10, "counts by value are 10 numbers (tens first, then 1 to 9)")

    @classmethod
    def full(cls, decks: int = 8) -> ValueCounts:
        """A full shoe of ``decks`` decks."""
        d = check_decks(decks)
        return cls((16 * d, *(4 * d,) * 9))

    @property
    def total(self) -> int:
        return sum(self.counts)

    def without(self, cards: Iterable[Card | Rank]) -> ValueCounts:
        """These counts with the given cards (or bare ranks) taken out."""
        counts = list(self.counts)
        for item in cards:
            rank = item.rank if isinstance(item, Card) else item
            if counts[rank.point] == 0:
                raise ShoeError(f"no card of value {rank.point} left to remove ({rank.symbol})")
            counts[rank.point] -= 1
        return ValueCounts(tuple(counts))


#: Any of the three ways to say what is left in a shoe.
ShoeCounts: TypeAlias = CardCounts | Composition | ValueCounts


@dataclass(frozen=True, slots=True)
class Known:
    """A shoe as the engine sees it: values always, ranks and cards when they were given."""

    values: tuple[int, ...]
    ranks: tuple[int, ...] | None
    cards: tuple[int, ...] | None

    @property
    def detail(self) -> Detail:
        """The finest counts known: ``cards``, ``ranks`` or ``values``."""
        if self.cards is not None:
            return "cards"
        return "ranks" if self.ranks is not None else "values"

    @property
    def total(self) -> int:
        return sum(self.values)


def known(counts: ShoeCounts) -> Known:
    """What ``counts`` tells the engine; ``ShoeError`` if it holds fewer than six cards."""
    if isinstance(counts, CardCounts):
        ranks = counts.by_rank().counts
        result = Known(_values_of_ranks(ranks), ranks, counts.counts)
    elif isinstance(counts, Composition):
        result = Known(_values_of_ranks(counts.counts), counts.counts, None)
    elif isinstance(counts, ValueCounts):
        result = Known(counts.counts, None, None)
    else:
        raise TypeError(f"expected CardCounts, Composition or ValueCounts, not {counts!r}")
    if result.total < MIN_CARDS:
        raise ShoeError(f"a coup may need {MIN_CARDS} cards; the shoe holds {result.total}")
    return result


def _values_of_ranks(ranks: tuple[int, ...]) -> tuple[int, ...]:
    return (sum(ranks[9:]), *ranks[:9])
