"""A physical shoe of real cards: decks shuffled together, then drawn one by one in order.

This is the box on a studio table, not the server's shoe: it knows nothing of burns, hands or
the cut card. The dealer draws the next card and the server says where it goes, so what a robot
dealing this shoe reads is what a real shoe would read. The shuffle is the OS CSPRNG's
(``secrets.SystemRandom``) unless a generator is given.

>>> import random
>>> shoe = PhysicalShoe.shuffled(rng=random.Random(7))
>>> shoe.left, shoe.drawn
(416, 0)
>>> first = shoe.draw()
>>> first == shoe.order[0], shoe.left, shoe.drawn
(True, 415, 1)
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence

from baccarat.cards import Card, full_deck

__all__ = ["DECKS", "PhysicalShoe", "ShoeEmptyError"]

#: A studio shoe holds eight decks.
DECKS = 8


class ShoeEmptyError(LookupError):
    """Every card of the shoe has been drawn."""


class PhysicalShoe:
    """Cards in the order they leave the shoe; ``draw`` takes the next."""

    def __init__(self, order: Sequence[Card]) -> None:
        self.order: tuple[Card, ...] = tuple(order)
        self._next = 0

    @classmethod
    def shuffled(cls, decks: int = DECKS, rng: random.Random | None = None) -> PhysicalShoe:
        """``decks`` full decks shuffled together, by the OS CSPRNG unless ``rng`` is given.

        >>> from collections import Counter
        >>> shoe = PhysicalShoe.shuffled()
        >>> len(shoe.order), set(Counter(shoe.order).values())
        (416, {8})
        """
        if not 1 <= decks <= 8:
            raise ValueError(f"a shoe holds 1 to 8 decks, not {decks}")
        order = full_deck() * decks
        # Not the random module's Mersenne Twister: its state can be recovered from its output.
        (rng or secrets.SystemRandom()).shuffle(order)
        return cls(order)

    @property
    def drawn(self) -> int:
        """Cards drawn so far."""
        return self._next

    @property
    def left(self) -> int:
        """Cards still in the shoe."""
        return len(self.order) - self._next

    def draw(self) -> Card:
        """The next card out of the shoe; ``ShoeEmptyError`` when none is left.

        >>> shoe = PhysicalShoe([Card.parse("Ah")])
        >>> shoe.draw()
        Card.parse('Ah')
        >>> shoe.draw()
        Traceback (most recent call last):
        ...
        baccarat.shoedevice.physical.ShoeEmptyError: all 1 cards of the shoe are drawn
        """
        if self._next >= len(self.order):
            raise ShoeEmptyError(f"all {len(self.order)} cards of the shoe are drawn")
        card = self.order[self._next]
        self._next += 1
        return card
