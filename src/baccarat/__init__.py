"""Punto banco baccarat: an exact rules library, provably fair shoes, roads, odds and a live table.

Importing the package loads the rules core only (no third-party module); ``__version__`` is the
installed distribution's.

>>> from baccarat import deal, parse_cards
>>> deal(parse_cards("4h 3c 2d 2s 7h")).winner.value
'player'
>>> import baccarat, importlib.metadata
>>> baccarat.__version__ == importlib.metadata.version("baccarat")
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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

if TYPE_CHECKING:
    __version__: str
else:

    def __getattr__(name: str) -> str:
        # Read from the package metadata when asked: importlib.metadata costs about as much to
        # import as the whole rules core.
        if name == "__version__":
            from importlib.metadata import version

            return version("baccarat")
        raise AttributeError(f"module 'baccarat' has no attribute {name!r}")
