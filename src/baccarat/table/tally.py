"""What a shoe still holds, card by card: the check that a card read can be the next one.

A physical shoe of eight decks holds eight of each card. A card source keeps a tally of what
it has given out (burned or dealt), never of its future order, and a round refuses a card the
tally says is gone: a ninth ace of spades is a misread, not a card.

The counts are in ``baccarat-shoe-v1`` order (clubs A–K, diamonds, hearts, spades), the order
of ``baccarat.analysis.exact.counts.CardCounts``, which the odds engine and the integrity
monitor are given.

>>> from baccarat.cards import Card
>>> ace = Card.parse("As")
>>> tally = CardTally.full(1)
>>> tally.holds(ace), tally.without(ace).holds(ace), tally.without(ace).total
(True, False, 51)
>>> tally.without(ace).without(ace)
Traceback (most recent call last):
...
baccarat.shoe.ShoeError: the shoe holds no more As
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from baccarat.cards import Card
from baccarat.shoe import Composition, ShoeError, check_decks

__all__ = ["CardTally"]


def _number(card: Card) -> int:
    return card.suit.index * 13 + card.rank.index


@dataclass(frozen=True, slots=True)
class CardTally:
    """How many of each of the 52 cards a shoe still holds."""

    counts: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.counts) != 52 or any(n < 0 for n in self.counts):
            raise ShoeError("a tally is 52 counts, none negative")

    @classmethod
    def full(cls, decks: int = 8) -> CardTally:
        """A full shoe of ``decks`` decks."""
        return cls((check_decks(decks),) * 52)

    @classmethod
    def of(cls, cards: Iterable[Card]) -> CardTally:
        """A shoe holding exactly ``cards`` (their number of each, not their order).

        >>> from baccarat.cards import parse_cards
        >>> CardTally.of(parse_cards("As As Kd")).count(Card.parse("As"))
        2
        """
        counts = [0] * 52
        for card in cards:
            counts[_number(card)] += 1
        return cls(tuple(counts))

    @classmethod
    def after(cls, decks: int, given: Iterable[Card]) -> CardTally:
        """A shoe of ``decks`` decks once ``given`` (burned or dealt) has left it.

        >>> from baccarat.cards import parse_cards
        >>> CardTally.after(8, parse_cards("As As Kd")).total
        413
        """
        return cls.full(decks).without_all(given)

    @property
    def total(self) -> int:
        return sum(self.counts)

    def count(self, card: Card) -> int:
        return self.counts[_number(card)]

    def holds(self, card: Card) -> bool:
        """Whether at least one ``card`` is left."""
        return self.counts[_number(card)] > 0

    def without(self, card: Card) -> CardTally:
        """The tally once ``card`` has left the shoe; ``ShoeError`` if none is left."""
        number = _number(card)
        if self.counts[number] == 0:
            raise ShoeError(f"the shoe holds no more {card.code}")
        counts = list(self.counts)
        counts[number] -= 1
        return CardTally(tuple(counts))

    def without_all(self, cards: Iterable[Card]) -> CardTally:
        """The tally once every card of ``cards`` has left the shoe."""
        counts = list(self.counts)
        for card in cards:
            number = _number(card)
            if counts[number] == 0:
                raise ShoeError(f"the shoe holds no more {card.code}")
            counts[number] -= 1
        return CardTally(tuple(counts))

    def composition(self) -> Composition:
        """The counts by rank, forgetting suits.

        >>> CardTally.full(8).composition().total
        416
        """
        return Composition(tuple(sum(self.counts[s * 13 + r] for s in range(4)) for r in range(13)))
