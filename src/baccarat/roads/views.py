"""Read-only records the scoreboard hands out: cells of each road, an ask, the shoe statistics."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NamedTuple

from baccarat.roads.result import Letter, Result

__all__ = [
    "DERIVED_ROADS",
    "Ask",
    "BeadCell",
    "BigRoadCell",
    "Colour",
    "DerivedCell",
    "DerivedRoadView",
    "RoadName",
    "Side",
    "Stats",
]

Colour = Literal["red", "blue"]
Side = Literal["B", "P"]
RoadName = Literal["bead_plate", "big_road", "big_eye_boy", "small_road", "cockroach_pig"]

#: The derived roads and their cycle ``k`` (spec §5): each compares columns ``k`` apart.
DERIVED_ROADS: tuple[tuple[RoadName, int], ...] = (
    ("big_eye_boy", 1),
    ("small_road", 2),
    ("cockroach_pig", 3),
)


class BeadCell(NamedTuple):
    """One round on the bead plate."""

    col: int
    row: int
    result: Result


class BigRoadCell(NamedTuple):
    """One drawn Big-Road cell; ``outcome`` is ``None`` only for the tie-only cell of spec §4.5."""

    col: int
    row: int
    outcome: Letter | None
    ties: int
    banker_pair: bool
    player_pair: bool


class DerivedCell(NamedTuple):
    """One drawn entry of a derived road (or the one an ask would add)."""

    col: int
    row: int
    colour: Colour


@dataclass(frozen=True, slots=True)
class DerivedRoadView:
    """A derived road: its colour sequence (``R``/``B`` = red/blue), runs and drawn cells."""

    name: RoadName
    k: int
    sequence: str
    columns: tuple[str, ...]
    cells: tuple[DerivedCell, ...]


@dataclass(frozen=True, slots=True)
class Ask:
    """What one more Banker or Player result would add (spec §6): nothing here is committed.

    ``derived`` maps each derived road name to the entry it would gain, or ``None``.
    """

    side: Side
    big_road: tuple[int, int]
    derived: dict[RoadName, DerivedCell | None]


@dataclass(frozen=True, slots=True)
class Stats:
    """Counts for the shoe so far."""

    rounds: int
    banker: int
    player: int
    tie: int
    banker_pairs: int
    player_pairs: int
    naturals: int
    longest_banker_streak: int
    longest_player_streak: int
