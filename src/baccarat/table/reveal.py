"""The order in which a dealt coup's cards are turned, and what each turn shows.

Cards are revealed one at a time in deal order: P1 B1 P2 B2, then the Player's third
card, then the Banker's. ``position`` is the card's place in its hand (0, 1 or 2).

>>> from baccarat.cards import parse_cards
>>> from baccarat.coup import deal
>>> [str(c) for c in reveal_order(deal(parse_cards("4h 3c 2d 2s 7h")))]
['player 0 4h', 'banker 0 3c', 'player 1 2d', 'banker 1 2s', 'banker 2 7h']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from baccarat.cards import Card
from baccarat.coup import Coup

__all__ = ["HandName", "RevealedCard", "reveal_order"]

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
