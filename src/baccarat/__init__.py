"""Punto banco baccarat: an exact rules library, provably fair shoes, roads, odds and a live table.

>>> from baccarat import deal, parse_cards
>>> deal(parse_cards("4h 3c 2d 2s 7h")).winner.value
'player'
"""

from __future__ import annotations

from baccarat.cards import Card, CardCodeError, Rank, Suit, parse_cards
from baccarat.coup import Coup, DealError, Hand, Outcome, deal
from baccarat.shoe import Composition, LastCoupRule, Shoe, ShoeError, ShoeProcedure

__all__ = [
    "Card",
    "CardCodeError",
    "Composition",
    "Coup",
    "DealError",
    "Hand",
    "LastCoupRule",
    "Outcome",
    "Rank",
    "Shoe",
    "ShoeError",
    "ShoeProcedure",
    "Suit",
    "deal",
    "parse_cards",
]

__version__ = "0.1.0"
