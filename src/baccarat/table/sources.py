"""Card sources: where a table's next card comes from.

A round asks for cards one at a time (``Round.due`` and ``Round.draw``); a source gives them.
The runtime treats every source alike: it asks for the next card, passes the round the
source's tally of what the shoe still held (``left``), and tells the source when a coup is
complete (``coup_done``), which is when a shoe applies its cut card and last-coup rule.
Nothing outside a source sees its future: a fair shoe's order stays inside it, and what the
integrity monitor prices side bets on is the source's own tally of the cards it has given.

- ``FairShoeSource``: the provably fair shoe (``baccarat-shoe-v1``), whose order was fixed by
  its seeds; its cards are exactly those ``Shoe.deal_coup`` deals.
- ``PushedSource``: cards pushed in from outside, as a card-reading shoe or a dealer reads
  them; ``take`` answers ``None`` until the next one arrives.
- ``StudioSource``: a studio's physical shoe (``baccarat.table.studio_shoe``), whose reads
  are judged and stored as they come, card by card; ``take`` never has one at hand.

Adding a source is writing these four members; the round does the checking.

>>> import random
>>> from baccarat.shoe import Shoe
>>> from baccarat.table.round import Round
>>> source = FairShoeSource(Shoe.shuffled(decks=8, rng=random.Random(1)))
>>> r = Round.open(1, opened_at=0, closes_at=10).round.close(10).round
>>> while r.due() is not None:
...     left = source.left
...     card = source.take()
...     assert card is not None
...     r = r.draw(card, 11, left=left).round
>>> source.coup_done()
>>> r.phase.value, source.left.total == 416 - len(source.given)
('dealt', True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from baccarat.cards import Card
from baccarat.coup import due_slot
from baccarat.shoe import CardCounts, Shoe, ShoeError
from baccarat.table.studio_shoe import StudioShoe

__all__ = ["CardSource", "FairShoeSource", "PushedSource", "StudioSource"]


class CardSource(Protocol):
    """What a table's runtime asks of a source of cards."""

    @property
    def left(self) -> CardCounts:
        """What the shoe still holds, by the source's record of what it has given out."""
        ...

    @property
    def finished(self) -> bool:
        """No new coup may start from this shoe."""
        ...

    def take(self) -> Card | None:
        """The next card, or ``None`` when none is available yet."""
        ...

    def coup_done(self) -> None:
        """The coup in play is complete."""
        ...


class FairShoeSource:
    """A provably fair shoe behind the ``CardSource`` protocol. The burn is given out (and
    counted in ``left``) when the shoe is made, as the procedure burns before the first coup."""

    def __init__(self, shoe: Shoe) -> None:
        self._shoe = shoe
        self._given = list(shoe.order[: shoe.position])
        self._left = CardCounts.of(shoe.order).without(self._given)

    @classmethod
    def resume(cls, shoe: Shoe, coups: Sequence[Sequence[Card]]) -> FairShoeSource:
        """The source after the cards already stored, round by round in order: each complete
        coup ends one (cut card and last-coup rule applied), the last may be part of a coup.
        ``ShoeError`` if the stored cards are not the shoe's.

        >>> from baccarat.cards import parse_cards
        >>> import random
        >>> shoe = Shoe.shuffled(decks=8, rng=random.Random(2))
        >>> source = FairShoeSource(Shoe(shoe.order))
        >>> first, second = source.deal_coup(), source.deal_coup()
        >>> again = FairShoeSource.resume(Shoe(shoe.order), [first, second[:2]])
        >>> again.given == source.given[: len(again.given)], again.take() == second[2]
        (True, True)
        >>> FairShoeSource.resume(Shoe(shoe.order), [first[1:]])  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        baccarat.shoe.ShoeError: stored card 1 of a coup is ... but the shoe gives ...
        """
        source = cls(shoe)
        for cards in coups:
            for number, stored in enumerate(cards, 1):
                card = source.take()
                if card != stored:
                    raise ShoeError(
                        f"stored card {number} of a coup is {stored.code} "
                        f"but the shoe gives {card.code if card else 'nothing'}"
                    )
            if due_slot(cards) is None:
                source.coup_done()
        return source

    @property
    def left(self) -> CardCounts:
        return self._left

    @property
    def given(self) -> tuple[Card, ...]:
        """Every card given out so far, the burn first."""
        return tuple(self._given)

    @property
    def finished(self) -> bool:
        return self._shoe.finished

    @property
    def cut_card_out(self) -> bool:
        return self._shoe.cut_card_out

    @property
    def cards_left(self) -> int:
        return self._shoe.cards_left

    def take(self) -> Card:
        card = self._shoe.draw()
        self._given.append(card)
        self._left = self._left.without([card])
        return card

    def coup_done(self) -> None:
        self._shoe.end_coup()

    def deal_coup(self) -> tuple[Card, ...]:
        """Every card of the next coup, drawn as a round draws them (for replays and tests)."""
        cards: list[Card] = []
        while due_slot(cards) is not None:
            cards.append(self.take())
        self.coup_done()
        return tuple(cards)


class PushedSource:
    """Cards pushed in from outside, taken in the order they came.

    >>> from baccarat.cards import parse_cards
    >>> source = PushedSource(decks=8)
    >>> source.take() is None
    True
    >>> for card in parse_cards("4h 3c"):
    ...     source.push(card)
    >>> source.take(), source.left.total
    (Card.parse('4h'), 415)
    """

    def __init__(self, decks: int, given: Sequence[Card] = ()) -> None:
        self._left = CardCounts.full(decks).without(given)
        self._waiting: list[Card] = []
        self._finished = False

    @property
    def left(self) -> CardCounts:
        return self._left

    @property
    def finished(self) -> bool:
        return self._finished

    def push(self, card: Card) -> None:
        """A card read from the shoe, waiting to be taken."""
        self._waiting.append(card)

    def take(self) -> Card | None:
        if not self._waiting:
            return None
        card = self._waiting.pop(0)
        self._left = self._left.without([card]) if self._left.holds(card) else self._left
        return card

    def coup_done(self) -> None:
        """Nothing to apply: a dealer's shoe shows its cut card itself (``end``)."""

    def end(self) -> None:
        """The cut card came out, or the dealer ends the shoe: no new coup starts."""
        self._finished = True


class StudioSource:
    """A studio's physical shoe behind the ``CardSource`` protocol: its cards are not taken
    but read (each judged and stored as it comes, ``baccarat.table.studio.judge``), so
    ``take`` has none at hand; ``shoe`` is replaced with each read.

    >>> from baccarat.table.studio_shoe import Certificate
    >>> source = StudioSource(StudioShoe.new(Certificate("ani", 0, decks=1)))
    >>> source.take(), source.left.total, source.finished
    (None, 52, False)
    """

    def __init__(self, shoe: StudioShoe) -> None:
        self.shoe = shoe

    @property
    def left(self) -> CardCounts:
        return self.shoe.left

    @property
    def finished(self) -> bool:
        return self.shoe.finished

    def take(self) -> Card | None:
        return None

    def coup_done(self) -> None:
        """Nothing: the read that completes a coup applies the last-coup rule when stored."""
