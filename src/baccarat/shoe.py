"""The shoe: decks, shuffle, burn, cut card, the last-coup rule and what is left.

The procedure is that of ``docs/fairness.md``: turn the first card and burn as many
more as its value (tens and faces burn 10); place the cut card so that
``cut_card_from_end`` cards stay behind it; when the cut card comes out during a
coup, finish that coup and deal one more (``one-more``), or stop there (``finish``).
A coup is only started when six cards remain, so no coup ever runs short.

>>> import random
>>> shoe = Shoe.shuffled(decks=1, rng=random.Random(7))
>>> len(shoe.burned) >= 2 and shoe.burned[0].point in (0, len(shoe.burned) - 1)
True
>>> coups = list(shoe.coups())
>>> shoe.finished, 6 <= len(coups) <= 10, shoe.cards_left >= 6
(True, True, True)
>>> Shoe.shuffled(decks=9)
Traceback (most recent call last):
...
baccarat.shoe.ShoeError: a shoe holds 1 to 8 decks, not 9
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum

from baccarat.cards import RANKS, Card, Rank
from baccarat.coup import Coup, deal_from

__all__ = [
    "MAX_COUP_CARDS",
    "CardCounts",
    "Composition",
    "LastCoupRule",
    "Shoe",
    "ShoeError",
    "ShoeProcedure",
    "burn_count",
    "card_number",
    "check_counts",
    "check_decks",
]

MAX_COUP_CARDS = 6


class ShoeError(ValueError):
    """A shoe that cannot be built or dealt as asked."""


class LastCoupRule(StrEnum):
    """What happens when the cut card comes out."""

    ONE_MORE = "one-more"
    FINISH = "finish"


def check_decks(decks: int) -> int:
    """Return ``decks`` if it is 1 to 8, else raise ``ShoeError``."""
    if isinstance(decks, bool) or not isinstance(decks, int) or not 1 <= decks <= 8:
        raise ShoeError(f"a shoe holds 1 to 8 decks, not {decks}")
    return decks


@dataclass(frozen=True, slots=True)
class ShoeProcedure:
    """How a shoe is prepared and when it ends (data, part of a rule set)."""

    decks: int = 8
    burn: bool = True
    cut_card_from_end: int = 14
    last_coup: LastCoupRule = LastCoupRule.ONE_MORE

    def __post_init__(self) -> None:
        check_decks(self.decks)
        if not 0 <= self.cut_card_from_end <= 52 * self.decks:
            raise ShoeError(
                f"cut_card_from_end must be 0 to {52 * self.decks}, not {self.cut_card_from_end}"
            )


def burn_count(first: Card) -> int:
    """How many cards the burn takes in all: the turned card and as many more as its value.

    >>> burn_count(Card.parse("As")), burn_count(Card.parse("5d")), burn_count(Card.parse("Kc"))
    (2, 6, 11)
    """
    return 1 + (first.point or 10)


@dataclass(frozen=True, slots=True)
class Composition:
    """How many cards of each rank are left (A first, K last).

    >>> comp = Composition.full(8)
    >>> comp.total, comp.by_value()[0], comp.by_value()[5]
    (416, 128, 32)
    >>> comp.without([Rank.FIVE, Rank.FIVE]).count(Rank.FIVE)
    30
    """

    counts: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.counts) != 13:
            raise ShoeError(f"a composition has 13 counts by rank, not {len(self.counts)}")
        if any(n < 0 for n in self.counts):
            raise ShoeError(f"counts cannot be negative: {list(self.counts)}")

    @classmethod
    def full(cls, decks: int = 8) -> Composition:
        """A full shoe of ``decks`` decks."""
        return cls((4 * check_decks(decks),) * 13)

    @classmethod
    def of(cls, cards: Iterable[Card | Rank]) -> Composition:
        """The composition of the given cards or ranks."""
        counts = [0] * 13
        for item in cards:
            rank = item.rank if isinstance(item, Card) else item
            counts[rank.index] += 1
        return cls(tuple(counts))

    @property
    def total(self) -> int:
        return sum(self.counts)

    def count(self, rank: Rank) -> int:
        return self.counts[rank.index]

    def by_value(self) -> tuple[int, ...]:
        """Ten counts by baccarat value: tens and faces first, then 1 to 9."""
        tens = sum(self.counts[9:])
        return (tens, *self.counts[:9])

    def without(self, cards: Iterable[Card | Rank]) -> Composition:
        """This composition with the given cards taken out."""
        counts = list(self.counts)
        for item in cards:
            rank = item.rank if isinstance(item, Card) else item
            if counts[rank.index] == 0:
                raise ShoeError(f"no {rank.symbol} left to remove")
            counts[rank.index] -= 1
        return Composition(tuple(counts))

    def __str__(self) -> str:
        return " ".join(f"{rank.symbol}:{n}" for rank, n in zip(RANKS, self.counts, strict=True))


def card_number(card: Card) -> int:
    """The card's number 0-51 in ``baccarat-shoe-v1`` order (clubs A-K, diamonds, hearts, spades).

    >>> card_number(Card.parse("Ac")), card_number(Card.parse("Td")), card_number(Card.parse("Ks"))
    (0, 22, 51)
    """
    return card.suit.index * 13 + card.rank.index


def check_counts(counts: tuple[int, ...], size: int, what: str) -> None:
    """Raise ``ShoeError`` unless ``counts`` is ``size`` whole numbers, none negative."""
    if len(counts) != size:
        raise ShoeError(f"{what}, not {len(counts)}")
    for n in counts:
        if isinstance(n, bool) or not isinstance(n, int):
            raise ShoeError(f"counts must be whole numbers, not {n!r}")
        if n < 0:
            raise ShoeError(f"counts cannot be negative: {list(counts)}")


@dataclass(frozen=True, slots=True)
class CardCounts:
    """How many of each of the 52 cards are left, in ``baccarat-shoe-v1`` order."""

    counts: tuple[int, ...]

    def __post_init__(self) -> None:
        check_counts(
            self.counts, 52, "counts by card are 52 numbers (clubs A-K, diamonds, hearts, spades)"
        )

    @classmethod
    def full(cls, decks: int = 8) -> CardCounts:
        """A full shoe of ``decks`` decks."""
        return cls((check_decks(decks),) * 52)

    @classmethod
    def of(cls, cards: Iterable[Card]) -> CardCounts:
        """The counts of the given cards."""
        counts = [0] * 52
        for card in cards:
            counts[card_number(card)] += 1
        return cls(tuple(counts))

    @property
    def total(self) -> int:
        return sum(self.counts)

    def count(self, card: Card) -> int:
        return self.counts[card_number(card)]

    def holds(self, card: Card) -> bool:
        """Whether at least one ``card`` is left."""
        return self.counts[card_number(card)] > 0

    def by_rank(self) -> Composition:
        """The counts by rank (A first), forgetting suits."""
        return Composition(tuple(sum(self.counts[s * 13 + r] for s in range(4)) for r in range(13)))

    def without(self, cards: Iterable[Card]) -> CardCounts:
        """These counts with the given cards taken out; ``ShoeError`` if one is not there."""
        counts = list(self.counts)
        for card in cards:
            number = card_number(card)
            if counts[number] == 0:
                raise ShoeError(f"no {card.code} left to remove")
            counts[number] -= 1
        return CardCounts(tuple(counts))


class Shoe:
    """A shoe being dealt: a fixed card order, the burn, the cut card and a position.

    The order never changes after construction; dealing only moves the position.
    """

    def __init__(
        self,
        order: Sequence[Card],
        *,
        burn: bool = True,
        cut_card_from_end: int = 14,
        last_coup: LastCoupRule | str = LastCoupRule.ONE_MORE,
    ) -> None:
        if len(order) < MAX_COUP_CARDS:
            raise ShoeError(f"a shoe needs at least {MAX_COUP_CARDS} cards, not {len(order)}")
        self.order: tuple[Card, ...] = tuple(order)
        self.last_coup = LastCoupRule(last_coup)
        burned = burn_count(self.order[0]) if burn else 0
        if len(self.order) - burned < MAX_COUP_CARDS:
            raise ShoeError("the burn leaves fewer cards than one coup needs")
        self.burned: tuple[Card, ...] = self.order[:burned]
        if not 0 <= cut_card_from_end <= len(self.order):
            raise ShoeError(f"cut_card_from_end must be 0 to {len(self.order)}")
        #: Index of the first card behind the cut card.
        self.cut_position = len(self.order) - cut_card_from_end
        self.position = burned
        self.coups_dealt = 0
        self._cut_card_out = False
        self._last_coup_due = False
        self._finished = False

    @classmethod
    def shuffled(
        cls,
        decks: int = 8,
        rng: random.Random | None = None,
        *,
        procedure: ShoeProcedure | None = None,
    ) -> Shoe:
        """A freshly shuffled shoe. ``rng`` defaults to the OS CSPRNG (``secrets.SystemRandom``)."""
        proc = procedure or ShoeProcedure(decks=decks)
        order = [Card.from_index(c) for c in range(52 * check_decks(proc.decks))]
        (rng or secrets.SystemRandom()).shuffle(order)
        return cls.from_procedure(order, proc)

    @classmethod
    def from_procedure(cls, order: Sequence[Card], procedure: ShoeProcedure) -> Shoe:
        """A shoe over a given order (a replay, or a provably fair order) and a procedure."""
        return cls(
            order,
            burn=procedure.burn,
            cut_card_from_end=procedure.cut_card_from_end,
            last_coup=procedure.last_coup,
        )

    @property
    def cards_left(self) -> int:
        return len(self.order) - self.position

    @property
    def cut_card_out(self) -> bool:
        """The cut card has come out."""
        return self._cut_card_out

    @property
    def finished(self) -> bool:
        """No further coup will be dealt from this shoe."""
        return self._finished or self.cards_left < MAX_COUP_CARDS

    def composition(self) -> Composition:
        """The cards not yet dealt or burned."""
        return Composition.of(self.order[self.position :])

    def draw(self) -> Card:
        """Take the next card (one card of a coup; ``deal_coup`` takes a whole coup)."""
        if self.position >= len(self.order):
            raise ShoeError("the shoe is empty")
        card = self.order[self.position]
        self.position += 1
        return card

    def end_coup(self) -> None:
        """A coup drawn card by card is complete: apply the cut card and the last-coup rule."""
        self.coups_dealt += 1
        if self._last_coup_due:
            self._finished = True
        elif self.position > self.cut_position:
            # This coup dealt the card behind the cut card: the cut card came out.
            self._cut_card_out = True
            if self.last_coup is LastCoupRule.FINISH:
                self._finished = True
            else:
                self._last_coup_due = True

    def deal_coup(self) -> Coup:
        """Deal the next coup, applying the cut card and the last-coup rule."""
        if self.finished:
            raise ShoeError("the shoe is finished")
        coup = deal_from(self.draw)
        self.end_coup()
        return coup

    def coups(self) -> Iterator[Coup]:
        """Deal coups until the shoe ends."""
        while not self.finished:
            yield self.deal_coup()
