"""Baccarat scoreboards ("roads"): bead plate, big road, the three derived roads and the asks.

The rules are those of the roads specification, summarised in ``docs/roads.md``: derived roads
are computed from the logical Big-Road columns, every road is drawn on six rows with an L-shaped
dragon tail (or the ``greedy`` variant), and leading ties sit in cell (0, 0). Roads record the
past; they predict nothing.

>>> from baccarat.roads import Scoreboard
>>> board = Scoreboard.from_tokens("T Bb P P B")
>>> board.big_road_columns(), board.derived("big_eye_boy").sequence
(['B', 'PP', 'B'], 'BB')
>>> board.ask("P").derived["big_eye_boy"]
DerivedCell(col=0, row=2, colour='blue')
"""

from __future__ import annotations

from baccarat.roads.grid import ROWS, Road, decode, window
from baccarat.roads.result import (
    OUTCOMES,
    Letter,
    Result,
    TokenError,
    parse_results,
    result_from_coup,
)
from baccarat.roads.scoreboard import BEAD_ROWS, Scoreboard, Tail
from baccarat.roads.snapshot import snapshot
from baccarat.roads.svg import render_svg, road_svg
from baccarat.roads.views import (
    DERIVED_ROADS,
    Ask,
    BeadCell,
    BigRoadCell,
    Colour,
    DerivedCell,
    DerivedRoadView,
    RoadName,
    Side,
    Stats,
)

__all__ = [
    "BEAD_ROWS",
    "DERIVED_ROADS",
    "OUTCOMES",
    "ROWS",
    "Ask",
    "BeadCell",
    "BigRoadCell",
    "Colour",
    "DerivedCell",
    "DerivedRoadView",
    "Letter",
    "Result",
    "Road",
    "RoadName",
    "Scoreboard",
    "Side",
    "Stats",
    "Tail",
    "TokenError",
    "decode",
    "parse_results",
    "render_svg",
    "result_from_coup",
    "road_svg",
    "snapshot",
    "window",
]
