"""The order in which a dealt coup's cards are turned, and what each turn shows.

Face up, cards are revealed one at a time in deal order: P1 B1 P2 B2, then the Player's third
card, then the Banker's. Face down, the Player's two come first, then the Banker's two
(``squeeze_order``). ``position`` is the card's place in its hand (0, 1 or 2).

The coup is stored whole before its first card is turned, so every view of a round goes
through one rule, ``round_face``: a card is shown once it has been turned (the set of turned
cards is kept as ``reveal_bits``, bit ``i`` for the card dealt ``i``-th, whatever the order
they were turned in), and the winner and totals only once every card has been shown.

>>> from baccarat.cards import parse_cards
>>> from baccarat.coup import deal
>>> [str(c) for c in reveal_order(deal(parse_cards("4h 3c 2d 2s 7h")))]
['player 0 4h', 'banker 0 3c', 'player 1 2d', 'banker 1 2s', 'banker 2 7h']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from baccarat.cards import Card
from baccarat.coup import Coup, deal, due_slot
from baccarat.table.settings import Dealing

__all__ = [
    "HandName",
    "RevealedCard",
    "RoundFace",
    "drawn_order",
    "reveal_bits",
    "reveal_order",
    "round_face",
    "squeeze_order",
    "turn_order",
]

HandName = Literal["player", "banker"]


@dataclass(frozen=True, slots=True)
class RevealedCard:
    """One turned card: which hand, its place in that hand, and its place in the deal."""

    hand: HandName
    position: int
    index: int
    card: Card

    def to_json(self) -> dict[str, object]:
        return {
            "hand": self.hand,
            "position": self.position,
            "index": self.index,
            "card": self.card.code,
        }

    def __str__(self) -> str:
        return f"{self.hand} {self.position} {self.card}"


def reveal_order(coup: Coup) -> tuple[RevealedCard, ...]:
    """Every card of ``coup`` in the order it is turned."""
    hands: list[tuple[HandName, int]] = [("player", 0), ("banker", 0), ("player", 1), ("banker", 1)]
    if coup.player.third_card is not None:
        hands.append(("player", 2))
    if coup.banker.third_card is not None:
        hands.append(("banker", 2))
    return tuple(
        RevealedCard(hand, position, index, card)
        for index, ((hand, position), card) in enumerate(zip(hands, coup.cards, strict=True))
    )


def drawn_order(drawn: Sequence[Card]) -> tuple[RevealedCard, ...]:
    """The cards of a coup drawn so far, each in its place: a studio shows each card as it is
    dealt, before the coup is complete. For a complete coup it is ``reveal_order``.

    >>> from baccarat.cards import parse_cards
    >>> [str(c) for c in drawn_order(parse_cards("2h 3c 2d"))]
    ['player 0 2h', 'banker 0 3c', 'player 1 2d']
    >>> cards = parse_cards("4h 3c 2d 2s 7h")
    >>> drawn_order(cards) == reveal_order(deal(cards))
    True
    """
    placed: list[RevealedCard] = []
    for index, card in enumerate(drawn):
        slot = due_slot(drawn[:index])
        if slot is None:
            raise ValueError(f"card {index + 1} is after the coup is complete")
        placed.append(RevealedCard(slot.hand, slot.position, index, card))
    return tuple(placed)


def squeeze_order(coup: Coup) -> tuple[RevealedCard, ...]:
    """Face down, the order cards are turned: the Player's two, the Banker's two, the Player's
    third, the Banker's third last (the house's drama; the deal order itself is unchanged).

    >>> from baccarat.cards import parse_cards
    >>> [str(c) for c in squeeze_order(deal(parse_cards("3h 3c 2d 2s 5h 7c")))]
    ['player 0 3h', 'player 1 2d', 'banker 0 3c', 'banker 1 2s', 'player 2 5h', 'banker 2 7c']
    """
    return tuple(
        sorted(reveal_order(coup), key=lambda c: (c.position == 2, c.hand == "banker", c.position))
    )


def turn_order(coup: Coup, dealing: Dealing) -> tuple[RevealedCard, ...]:
    """The order a table dealing ``face-up`` or ``face-down`` turns the cards of ``coup``."""
    return squeeze_order(coup) if dealing == "face-down" else reveal_order(coup)


def reveal_bits(cards: Iterable[RevealedCard]) -> int:
    """The turned cards as one number: bit ``i`` set for the card dealt ``i``-th.

    >>> from baccarat.cards import parse_cards
    >>> order = reveal_order(deal(parse_cards("4h 3c 2d 2s 7h")))
    >>> reveal_bits(order[:2]), reveal_bits([order[2], order[0]]), reveal_bits(order)
    (3, 5, 31)
    """
    bits = 0
    for card in cards:
        bits |= 1 << card.index
    return bits


@dataclass(frozen=True, slots=True)
class RoundFace:
    """What anyone may see of a round: the cards turned so far, in deal order, and the coup
    (its winner, totals, pairs) only once every one of its cards has been turned."""

    cards: tuple[RevealedCard, ...]
    coup: Coup | None

    @property
    def codes(self) -> list[str]:
        return [card.card.code for card in self.cards]


def round_face(cards: Sequence[Card] | None, revealed: int, *, settled: bool = False) -> RoundFace:
    """The visible part of a round whose stored cards are ``cards`` (a coup, or the part of
    one drawn so far), ``revealed`` being its ``reveal_bits``. A settled round shows everything: it is settled only after its result
    was announced (and rounds stored before reveals were recorded are all settled).

    The dealer records the last card's bit only after announcing the result, so "all cards
    shown" and "result announced" are one and the same state.

    >>> from baccarat.cards import parse_cards
    >>> cards = parse_cards("4h 3c 2d 2s 7h")
    >>> face = round_face(cards, 0b00101)
    >>> face.codes, face.coup
    (['4h', '2d'], None)
    >>> round_face(cards, 0b11111).coup.winner.value
    'player'
    >>> round_face(cards, 0, settled=True).codes
    ['4h', '3c', '2d', '2s', '7h']
    >>> round_face(cards[:3], 0b011).codes
    ['4h', '3c']
    >>> round_face(None, 0)
    RoundFace(cards=(), coup=None)
    """
    if not cards:
        return RoundFace((), None)
    if due_slot(cards) is not None:  # part of a coup: a studio turns each card as it comes
        drawn = tuple(card for card in drawn_order(cards) if revealed >> card.index & 1)
        return RoundFace(drawn, None)
    coup = deal(cards)
    order = reveal_order(coup)
    if settled:
        return RoundFace(order, coup)
    shown = tuple(card for card in order if revealed >> card.index & 1)
    return RoundFace(shown, coup if len(shown) == len(order) else None)
