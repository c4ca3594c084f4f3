"""The JSON form of a scoreboard (what ``baccarat roads --json`` prints).

>>> from baccarat.roads.scoreboard import Scoreboard
>>> snap = Scoreboard.from_tokens("Tb B").snapshot()
>>> snap["big_road"]["cells"][0]
{'col': 0, 'row': 0, 'outcome': 'B', 'ties': 1, 'banker_pair': False, 'player_pair': False}
>>> snap["predictions"]["player"]
{'big_road': {'col': 1, 'row': 0}, 'big_eye_boy': None, 'small_road': None, 'cockroach_pig': None}
>>> snap["stats"]["banker_pairs"], snap["bead_plate"]["cells"][0]["outcome"]
(1, 'T')
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any, Protocol

from baccarat.roads.views import (
    DERIVED_ROADS,
    Ask,
    BeadCell,
    BigRoadCell,
    DerivedRoadView,
    RoadName,
    Side,
    Stats,
)

__all__ = ["Board", "snapshot"]


class Board(Protocol):
    """The views of one shoe's roads that a snapshot reads; a ``Scoreboard`` is one.

    Named here, not imported, so that the scoreboard can use this module without a cycle.
    """

    @property
    def tail(self) -> str: ...

    @property
    def leading_ties(self) -> int: ...

    def bead_plate(self) -> list[BeadCell]: ...

    def big_road_columns(self) -> list[str]: ...

    def big_road_cells(self) -> list[BigRoadCell]: ...

    def derived(self, name: RoadName) -> DerivedRoadView: ...

    def ask(self, side: Side) -> Ask: ...

    def stats(self) -> Stats: ...


def _ask(ask: Ask) -> dict[str, Any]:
    col, row = ask.big_road
    out: dict[str, Any] = {"big_road": {"col": col, "row": row}}
    for name, cell in ask.derived.items():
        out[name] = (
            None if cell is None else {"colour": cell.colour, "col": cell.col, "row": cell.row}
        )
    return out


def snapshot(board: Board) -> dict[str, Any]:
    """Every road, both asks and the statistics as plain dicts, lists, strings and numbers."""
    out: dict[str, Any] = {
        "tail": board.tail,
        "bead_plate": {
            "cells": [
                {
                    "col": cell.col,
                    "row": cell.row,
                    "outcome": cell.result.outcome,
                    "banker_pair": cell.result.banker_pair,
                    "player_pair": cell.result.player_pair,
                    "natural": cell.result.natural,
                    "total": cell.result.total,
                }
                for cell in board.bead_plate()
            ]
        },
        "big_road": {
            "columns": board.big_road_columns(),
            "leading_ties": board.leading_ties,
            "cells": [cell._asdict() for cell in board.big_road_cells()],
        },
    }
    for name, _k in DERIVED_ROADS:
        road = board.derived(name)
        out[name] = {
            "sequence": road.sequence,
            "columns": list(road.columns),
            "cells": [cell._asdict() for cell in road.cells],
        }
    out["predictions"] = {"banker": _ask(board.ask("B")), "player": _ask(board.ask("P"))}
    out["stats"] = asdict(board.stats())
    return out
