"""One coup: the cards of both hands, dealt by the tableau, and everything bets look at.

``deal`` takes the cards in deal order, P1 B1 P2 B2, then the Player's third card
if it draws, then the Banker's third card if it draws.

The seeds' worked example (000): Player 4+2 = 6 stands; Banker 3+2 = 5 draws a 7.

>>> from baccarat.cards import parse_cards
>>> coup = deal(parse_cards("4h 3c 2d 2s 7h"))
>>> coup.player_total, coup.banker_total, coup.winner
(6, 2, <Outcome.PLAYER: 'player'>)
>>> coup.banker_rule
'player stood: banker draws on 0-5'
>>> deal(parse_cards("4h 2c 5d 6s")).natural   # 001: Player 9 against Banker 8
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal, NamedTuple

from baccarat.cards import Card
from baccarat.tableau import NATURAL_RULE, banker_decision, is_natural, player_decision

__all__ = [
    "Coup",
    "DealError",
    "Hand",
    "Outcome",
    "Slot",
    "deal",
    "deal_from",
    "due_slot",
    "hand_total",
]


class DealError(ValueError):
    """The cards given cannot make exactly one coup (too few, or some left over)."""


class Outcome(StrEnum):
    """Who won a coup."""

    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"

    @property
    def letter(self) -> str:
        """``P``, ``B`` or ``T``."""
        return self.value[0].upper()


def hand_total(cards: Iterable[Card]) -> int:
    """The units digit of the sum of baccarat values.

    >>> from baccarat.cards import parse_cards
    >>> hand_total(parse_cards("7s 8d")), hand_total(parse_cards("As 6d 9c"))
    (5, 6)
    """
    return sum(card.point for card in cards) % 10


@dataclass(frozen=True, slots=True)
class Hand:
    """The cards of one hand, in the order they were dealt to it."""

    cards: tuple[Card, ...]
    #: The final value of the hand.
    total: int = field(init=False, compare=False)
    #: The value of the first two cards.
    two_card_total: int = field(init=False, compare=False)

    def __post_init__(self) -> None:
        # Stored once: bets, roads and analysis read totals many times per coup.
        object.__setattr__(self, "total", hand_total(self.cards))
        object.__setattr__(self, "two_card_total", hand_total(self.cards[:2]))

    @property
    def natural(self) -> bool:
        """A two-card 8 or 9. A 9 reached with a third card is not a natural."""
        return is_natural(self.two_card_total)

    @property
    def pair(self) -> bool:
        """The first two cards have the same rank (a ten and a king are no pair)."""
        return self.cards[0].rank == self.cards[1].rank

    @property
    def suited_pair(self) -> bool:
        """The first two cards have the same rank and suit (possible with two or more decks)."""
        return self.cards[0] == self.cards[1]

    @property
    def third_card(self) -> Card | None:
        """The third card, if the hand drew one."""
        return self.cards[2] if len(self.cards) == 3 else None

    def __str__(self) -> str:
        return " ".join(card.code for card in self.cards)


@dataclass(frozen=True, slots=True)
class Coup:
    """An immutable record of one coup."""

    player: Hand
    banker: Hand
    player_rule: str
    banker_rule: str
    #: All cards in deal order.
    cards: tuple[Card, ...]

    @property
    def player_total(self) -> int:
        return self.player.total

    @property
    def banker_total(self) -> int:
        return self.banker.total

    @property
    def winner(self) -> Outcome:
        """The higher final total wins; equal totals tie."""
        if self.player_total > self.banker_total:
            return Outcome.PLAYER
        if self.banker_total > self.player_total:
            return Outcome.BANKER
        return Outcome.TIE

    @property
    def natural(self) -> bool:
        """Either hand has a natural."""
        return self.player.natural or self.banker.natural

    @property
    def player_pair(self) -> bool:
        return self.player.pair

    @property
    def banker_pair(self) -> bool:
        return self.banker.pair

    @property
    def cards_used(self) -> int:
        """Four, five or six."""
        return len(self.cards)

    @property
    def winning_total(self) -> int:
        """The winner's final total (for a tie, the tied total)."""
        return max(self.player_total, self.banker_total)

    @property
    def margin(self) -> int:
        """How many points the winner won by (0 for a tie)."""
        return abs(self.player_total - self.banker_total)

    def to_json(self) -> dict[str, object]:
        """The coup as the JSON object of ``baccarat deal --json``."""
        return {
            "player": [card.code for card in self.player.cards],
            "banker": [card.code for card in self.banker.cards],
            "player_total": self.player_total,
            "banker_total": self.banker_total,
            "winner": self.winner.value,
            "natural": self.natural,
            "player_pair": self.player_pair,
            "banker_pair": self.banker_pair,
            "cards_used": self.cards_used,
        }

    def __str__(self) -> str:
        return (
            f"Player {self.player} ({self.player_total})  "
            f"Banker {self.banker} ({self.banker_total})  {self.winner.value}"
        )


def deal_from(draw: Callable[[], Card]) -> Coup:
    """Deal one coup, taking each card from ``draw`` only when the rules call for it."""
    p1, b1, p2, b2 = draw(), draw(), draw(), draw()
    player, banker = [p1, p2], [b1, b2]
    if is_natural(hand_total(player)) or is_natural(hand_total(banker)):
        player_rule = banker_rule = NATURAL_RULE
    else:
        player_decides = player_decision(hand_total(player))
        player_rule = player_decides.rule
        player_third: int | None = None
        if player_decides.draws:
            player.append(draw())
            player_third = player[2].point
        banker_decides = banker_decision(hand_total(banker), player_third)
        banker_rule = banker_decides.rule
        if banker_decides.draws:
            banker.append(draw())
    in_order = [p1, b1, p2, b2, *player[2:], *banker[2:]]
    return Coup(Hand(tuple(player)), Hand(tuple(banker)), player_rule, banker_rule, tuple(in_order))


class Slot(NamedTuple):
    """Where a card goes: a hand and the card's place in it (0, 1, or 2 for a third card)."""

    hand: Literal["player", "banker"]
    position: int

    def __str__(self) -> str:
        return f"{self.hand}_{self.position + 1}"


_FIRST_FOUR = (Slot("player", 0), Slot("banker", 0), Slot("player", 1), Slot("banker", 1))
_PLAYER_THIRD, _BANKER_THIRD = Slot("player", 2), Slot("banker", 2)


def due_slot(cards: Sequence[Card]) -> Slot | None:
    """The slot the next card goes to after ``cards`` (a coup's first cards in deal order),
    or ``None`` when they are a complete coup. The tableau decides once the first four are out.

    >>> from baccarat.cards import parse_cards
    >>> [str(due_slot(parse_cards("4h 3c 2d 2s 7h")[:n])) for n in range(6)]
    ['player_1', 'banker_1', 'player_2', 'banker_2', 'banker_3', 'None']
    >>> due_slot(parse_cards("4h 2c 5d 6s"))  # a natural: nobody draws
    >>> due_slot(parse_cards("4h 2c 5d 6s 7c"))
    Traceback (most recent call last):
    ...
    baccarat.coup.DealError: the coup uses 4 cards; 1 left over
    """
    n = len(cards)
    if n < 4:
        return _FIRST_FOUR[n]
    player = hand_total((cards[0], cards[2]))
    banker = hand_total((cards[1], cards[3]))
    third: list[Slot] = []
    if not (is_natural(player) or is_natural(banker)):
        player_third: int | None = None
        if player_decision(player).draws:
            if n == 4:
                return _PLAYER_THIRD
            third.append(_PLAYER_THIRD)
            player_third = cards[4].point
        if banker_decision(banker, player_third).draws:
            third.append(_BANKER_THIRD)
    needed = 4 + len(third)
    if n > needed:
        raise DealError(f"the coup uses {needed} cards; {n - needed} left over")
    return third[n - 4] if n < needed else None


def deal(cards: Sequence[Card]) -> Coup:
    """Deal exactly one coup from ``cards`` in deal order.

    Raises ``DealError`` when the rules need more cards than given, or leave some unused.

    >>> from baccarat.cards import parse_cards
    >>> deal(parse_cards("4h 3c 2d"))
    Traceback (most recent call last):
    ...
    baccarat.coup.DealError: the coup needs more cards than the 3 given
    """
    position = 0

    def draw() -> Card:
        nonlocal position
        if position >= len(cards):
            raise DealError(f"the coup needs more cards than the {len(cards)} given")
        position += 1
        return cards[position - 1]

    coup = deal_from(draw)
    if position < len(cards):
        raise DealError(f"the coup uses {position} cards; {len(cards) - position} left over")
    return coup
