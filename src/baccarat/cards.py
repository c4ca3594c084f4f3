"""Playing cards: ranks, suits, card codes and baccarat values.

A card code is a rank then a suit: ``As``, ``Td``, ``10h``, ``kd``. Parsing is
case-insensitive; the canonical form writes ten as ``T``.

>>> card = Card.parse("10h")
>>> card
Card.parse('Th')
>>> card.point, str(card)
(0, 'Th')
>>> [c.point for c in parse_cards("As 9c Kd")]
[1, 9, 0]
>>> Card.parse("Xs")
Traceback (most recent call last):
...
baccarat.cards.CardCodeError: bad card code 'Xs': unknown rank 'X'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum, IntEnum

__all__ = [
    "RANKS",
    "SUITS",
    "Card",
    "CardCodeError",
    "Rank",
    "Suit",
    "full_deck",
    "parse_cards",
    "parse_rank",
]


class CardCodeError(ValueError):
    """A card or rank code that cannot be read; ``token`` is the offending text."""

    def __init__(self, token: str, reason: str) -> None:
        super().__init__(f"bad card code {token!r}: {reason}")
        self.token = token
        self.reason = reason


class Rank(IntEnum):
    """A card rank, ace low. The integer value is the rank's pip count (J, Q, K = 11, 12, 13).

    >>> Rank.SEVEN.point, Rank.KING.point, Rank.ACE.point
    (7, 0, 1)
    >>> Rank.TEN.symbol
    'T'
    """

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def point(self) -> int:
        """The baccarat value: ace 1, two to nine at face value, ten and faces 0."""
        return self.value if self.value < 10 else 0

    @property
    def symbol(self) -> str:
        """The one-character canonical symbol (``A 2 … 9 T J Q K``)."""
        return _RANK_SYMBOLS[self.value - 1]

    @property
    def index(self) -> int:
        """Zero-based position (A = 0 … K = 12), the numbering of ``baccarat-shoe-v1``."""
        return self.value - 1


class Suit(Enum):
    """A suit, in the order of ``baccarat-shoe-v1``: clubs, diamonds, hearts, spades."""

    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"
    SPADES = "s"

    @property
    def symbol(self) -> str:
        """The suit symbol used in displays (``♣ ♦ ♥ ♠``)."""
        return _SUIT_GLYPHS[self]

    @property
    def index(self) -> int:
        """Zero-based position (clubs 0 … spades 3)."""
        return SUITS.index(self)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Suit):
            return NotImplemented
        return self.index < other.index


_RANK_SYMBOLS = "A23456789TJQK"
RANKS: tuple[Rank, ...] = tuple(Rank)
SUITS: tuple[Suit, ...] = tuple(Suit)
_SUIT_GLYPHS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
_POINTS = {rank: rank.point for rank in Rank}
_RANK_BY_TEXT = {s: Rank(i + 1) for i, s in enumerate(_RANK_SYMBOLS)} | {"10": Rank.TEN}
_SUIT_BY_TEXT = {s.value: s for s in Suit}
_SEPARATORS = re.compile(r"[\s,]+")


def parse_rank(token: str) -> Rank:
    """Read a rank alone (``"5"``, ``"t"``, ``"10"``, ``"K"``).

    >>> parse_rank("10"), parse_rank("q")
    (<Rank.TEN: 10>, <Rank.QUEEN: 12>)
    """
    rank = _RANK_BY_TEXT.get(token.strip().upper())
    if rank is None:
        raise CardCodeError(token, f"unknown rank {token.strip()!r}")
    return rank


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card. Immutable and hashable; ordered by rank, then suit."""

    rank: Rank
    suit: Suit
    #: The baccarat value, stored because dealing and settling read it on every card.
    point: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "point", _POINTS[self.rank])

    @classmethod
    def parse(cls, code: str) -> Card:
        """Read a card code such as ``As``, ``Td``, ``10h`` or ``kd``."""
        text = code.strip()
        if len(text) < 2:
            raise CardCodeError(code, "a card code is a rank then a suit, like 'As' or '10h'")
        rank_text, suit_text = text[:-1], text[-1].lower()
        rank = _RANK_BY_TEXT.get(rank_text.upper())
        if rank is None:
            raise CardCodeError(code, f"unknown rank {rank_text!r}")
        suit = _SUIT_BY_TEXT.get(suit_text)
        if suit is None:
            raise CardCodeError(code, f"unknown suit {text[-1]!r} (use c, d, h or s)")
        return cls(rank, suit)

    @classmethod
    def from_index(cls, number: int) -> Card:
        """The card with number ``c`` in ``baccarat-shoe-v1`` (rank ``c % 13``, suit ``(c // 13) % 4``).

        >>> Card.from_index(0), Card.from_index(22), Card.from_index(51)
        (Card.parse('Ac'), Card.parse('Td'), Card.parse('Ks'))
        """
        if number < 0:
            raise ValueError(f"card number must be non-negative, not {number}")
        return cls(RANKS[number % 13], SUITS[(number // 13) % 4])

    @property
    def code(self) -> str:
        """The canonical code, ten written as ``T``."""
        return self.rank.symbol + self.suit.value

    @property
    def pretty(self) -> str:
        """The code with a suit glyph, for terminals (``T♦``)."""
        return self.rank.symbol + self.suit.symbol

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"


def parse_cards(text: str) -> list[Card]:
    """Read card codes separated by spaces or commas.

    >>> parse_cards("4h, 3c 2d")
    [Card.parse('4h'), Card.parse('3c'), Card.parse('2d')]
    """
    return [Card.parse(token) for token in _SEPARATORS.split(text.strip()) if token]


def full_deck() -> list[Card]:
    """One 52-card deck in ``baccarat-shoe-v1`` numbering order (clubs A–K, diamonds, …)."""
    return [Card.from_index(c) for c in range(52)]
