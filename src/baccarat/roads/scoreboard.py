"""The scoreboard of one shoe: all five roads, the two asks and the shoe statistics.

Each :meth:`Scoreboard.add` does a constant amount of work: it appends to the bead plate, extends
the Big Road, and appends at most one entry to each derived road using only the logical column
lengths (spec §5). Nothing is ever recomputed; views and the snapshot are built when asked for.

>>> board = Scoreboard()
>>> board.extend(parse_results("B B P P P B P B B B P P B"))
>>> board.big_road_columns()
['BB', 'PPP', 'B', 'P', 'BBB', 'PP', 'B']
>>> board.derived("big_eye_boy").sequence
'RBBBRBRBRB'
>>> ask = board.ask("B")
>>> ask.big_road, ask.derived["small_road"]
((6, 1), DerivedCell(col=3, row=0, colour='red'))
>>> len(board), board.stats().banker
(13, 7)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Literal

from baccarat.roads.grid import Road, decode, window
from baccarat.roads.result import Result, parse_results, result_from_coup
from baccarat.roads.snapshot import snapshot
from baccarat.roads.views import (
    DERIVED_ROADS,
    Ask,
    BeadCell,
    BigRoadCell,
    DerivedCell,
    DerivedRoadView,
    RoadName,
    Side,
    Stats,
)

if TYPE_CHECKING:
    from baccarat.coup import Coup

__all__ = ["BEAD_ROWS", "Scoreboard", "Tail"]

Tail = Literal["L", "greedy"]
#: The bead plate fills columns of six, top to bottom (spec §3).
BEAD_ROWS = 6


def _colour(red: bool) -> Literal["red", "blue"]:
    return "red" if red else "blue"


class Scoreboard:
    """The roads of one shoe, fed one result at a time.

    ``tail`` picks the dragon-tail drawing rule of every road: ``"L"`` (adopted) or ``"greedy"``
    (the variant of spec §9). It changes drawn cells only, never a sequence or a colour.
    """

    __slots__ = (
        "_banker_pairs",
        "_beb",
        "_big",
        "_closed",
        "_cp",
        "_entries",
        "_naturals",
        "_player_pairs",
        "_results",
        "_sr",
        "_ties",
        "tail",
    )

    def __init__(self, *, tail: Tail = "L") -> None:
        if tail not in ("L", "greedy"):
            raise ValueError(f"tail must be 'L' or 'greedy', not {tail!r}")
        self.tail: Tail = tail
        self.reset()

    def reset(self) -> None:
        """Start a new shoe: every road empty.

        >>> board = Scoreboard.from_tokens("B P")
        >>> board.reset()
        >>> len(board), board.big_road_cells()
        (0, [])
        """
        greedy = self.tail == "greedy"
        self._results: list[Result] = []
        # The Result of each Big-Road entry, for its pair flags.
        self._entries: list[Result] = []
        # Tie count per Big-Road entry index; only entries with ties appear. Leading ties are
        # counted on entry 0, which is where the first B/P will be drawn (spec §4.2).
        self._ties: dict[int, int] = {}
        self._big = Road(greedy=greedy)
        self._beb = Road(greedy=greedy)
        self._sr = Road(greedy=greedy)
        self._cp = Road(greedy=greedy)
        self._banker_pairs = self._player_pairs = self._naturals = 0
        # Wins and longest streak per side over the closed logical columns; the open one is added
        # when asked, so this costs nothing per entry.
        self._closed: dict[str, list[int]] = {"B": [0, 0], "P": [0, 0]}

    def __len__(self) -> int:
        """Rounds recorded, ties included."""
        return len(self._results)

    def add(self, result: Result) -> None:
        """Record one round.

        >>> board = Scoreboard()
        >>> board.add(Result("B", banker_pair=True, natural=True, total=9))
        >>> board.add(Result("T", total=4))
        >>> board.big_road_cells()
        [BigRoadCell(col=0, row=0, outcome='B', ties=1, banker_pair=True, player_pair=False)]
        """
        self._results.append(result)
        if result.banker_pair:
            self._banker_pairs += 1
        if result.player_pair:
            self._player_pairs += 1
        if result.natural:
            self._naturals += 1
        outcome = result.outcome
        entries = self._entries
        if outcome == "T":
            index = len(entries) - 1 if entries else 0
            ties = self._ties
            ties[index] = ties.get(index, 0) + 1
            return
        entries.append(result)
        big = self._big
        lengths = big.lengths
        if outcome != big.last and lengths:
            closed = self._closed[big.last]  # type: ignore[index]  # last is a B/P letter here
            done = lengths[-1]
            closed[0] += done
            if done > closed[1]:
                closed[1] = done
        big.append(outcome)
        # Spec §5.2 for k = 1, 2, 3, on logical lengths. Blue iff n[c-k] == r in a column;
        # for a new column red iff n[c-1] == n[c-1-k].
        col = len(lengths) - 1
        row = lengths[col] - 1
        if row:
            if col >= 1:
                self._beb.append(lengths[col - 1] != row)
                if col >= 2:
                    self._sr.append(lengths[col - 2] != row)
                    if col >= 3:
                        self._cp.append(lengths[col - 3] != row)
        elif col >= 2:
            before = lengths[col - 1]
            self._beb.append(before == lengths[col - 2])
            if col >= 3:
                self._sr.append(before == lengths[col - 3])
                if col >= 4:
                    self._cp.append(before == lengths[col - 4])

    def add_coup(self, coup: Coup) -> None:
        """Record a dealt :class:`baccarat.coup.Coup`.

        >>> from baccarat.cards import parse_cards
        >>> from baccarat.coup import deal
        >>> board = Scoreboard()
        >>> board.add_coup(deal(parse_cards("4h 3c 2d 2s 7h")))
        >>> board.results[0].token
        'P6'
        """
        self.add(result_from_coup(coup))

    def extend(self, results: Iterable[Result]) -> None:
        """Record several rounds in order."""
        for result in results:
            self.add(result)

    @classmethod
    def from_tokens(cls, text: str, *, tail: Tail = "L") -> Scoreboard:
        """A board fed the token sequence ``text`` (spec §2).

        >>> Scoreboard.from_tokens("T B T").big_road_cells()
        [BigRoadCell(col=0, row=0, outcome='B', ties=2, banker_pair=False, player_pair=False)]
        """
        board = cls(tail=tail)
        board.extend(parse_results(text))
        return board

    # -- views ---------------------------------------------------------------------------------

    @property
    def results(self) -> tuple[Result, ...]:
        """Every round so far, in order."""
        return tuple(self._results)

    def bead_plate(self) -> list[BeadCell]:
        """One cell per round, columns of six filled top to bottom (spec §3).

        >>> beads = Scoreboard.from_tokens("B B P T B Tp P").bead_plate()
        >>> [(c.col, c.row, c.result.token) for c in beads[4:]]
        [(0, 4, 'B'), (0, 5, 'Tp'), (1, 0, 'P')]
        """
        return [BeadCell(i // BEAD_ROWS, i % BEAD_ROWS, r) for i, r in enumerate(self._results)]

    def big_road_columns(self) -> list[str]:
        """The logical columns: one string of ``B`` or ``P`` per streak, no 6-row limit."""
        return _runs(self._big, "B", "P")

    @property
    def leading_ties(self) -> int:
        """Ties dealt before the first Banker or Player win."""
        if not self._entries:
            return len(self._results)
        return next(i for i, result in enumerate(self._results) if result.outcome != "T")

    def big_road_cells(self) -> list[BigRoadCell]:
        """Drawn Big-Road cells in the order the entries were made (spec §4).

        A shoe of ties only has one cell at (0, 0) with no outcome (spec §4.5).
        """
        ties = self._ties
        if not self._entries:
            return [BigRoadCell(0, 0, None, ties[0], False, False)] if ties else []
        cells = []
        for index, (cell, entry) in enumerate(zip(self._big.cells, self._entries, strict=True)):
            col, row = decode(cell)
            cells.append(
                BigRoadCell(
                    col,
                    row,
                    entry.outcome,
                    ties.get(index, 0),
                    entry.banker_pair,
                    entry.player_pair,
                )
            )
        return cells

    def derived(self, name: RoadName) -> DerivedRoadView:
        """One derived road: ``big_eye_boy``, ``small_road`` or ``cockroach_pig``.

        >>> road = Scoreboard.from_tokens("B B P P P B").derived("big_eye_boy")
        >>> road.sequence, road.columns, road.cells[-1]
        ('RBB', ('R', 'BB'), DerivedCell(col=1, row=1, colour='blue'))
        """
        road = self._derived_road(name)
        columns = _runs(road, "R", "B")
        cells = []
        for cell, letter in zip(road.cells, "".join(columns), strict=True):
            col, row = decode(cell)
            cells.append(DerivedCell(col, row, "red" if letter == "R" else "blue"))
        return DerivedRoadView(
            name, dict(DERIVED_ROADS)[name], "".join(columns), tuple(columns), tuple(cells)
        )

    def _derived_road(self, name: RoadName) -> Road:
        roads = {"big_eye_boy": self._beb, "small_road": self._sr, "cockroach_pig": self._cp}
        if name not in roads:
            raise ValueError(f"not a derived road: {name!r}")
        return roads[name]

    def ask(self, side: Side) -> Ask:
        """What a Banker (``"B"``) or Player (``"P"``) result would add; changes nothing (§6).

        >>> ask = Scoreboard.from_tokens("B B P").ask("P")
        >>> ask.big_road, ask.derived["big_eye_boy"], ask.derived["small_road"]
        ((1, 1), DerivedCell(col=0, row=0, colour='red'), None)
        """
        if side not in ("B", "P"):
            raise ValueError(f"side must be 'B' or 'P', not {side!r}")
        big = self._big
        lengths = big.lengths
        predicted: dict[RoadName, DerivedCell | None] = {}
        extends = side == big.last
        col = len(lengths) - 1 if extends else len(lengths)
        for name, k in DERIVED_ROADS:
            prediction = None
            # The same rule as in add(), for the one entry the hypothetical result would make:
            # extending puts it at row n_c of column c, switching at row 0 of column c + 1.
            if lengths and col >= k + (not extends):
                if extends:
                    red = lengths[col - k] != lengths[col]
                else:
                    red = lengths[col - 1] == lengths[col - 1 - k]
                cell_col, cell_row = decode(self._derived_road(name).peek(red))
                prediction = DerivedCell(cell_col, cell_row, _colour(red))
            predicted[name] = prediction
        return Ask(side, decode(big.peek(side)), predicted)

    def stats(self) -> Stats:
        """Outcome, pair and natural counts and the longest streak of each side.

        >>> stats = Scoreboard.from_tokens("Bb B T Pn P B").stats()
        >>> stats.banker, stats.player, stats.tie, stats.banker_pairs, stats.naturals
        (3, 2, 1, 1, 1)
        >>> stats.longest_banker_streak, stats.longest_player_streak
        (2, 2)
        """
        wins = {side: list(values) for side, values in self._closed.items()}
        big = self._big
        if big.lengths:
            current = wins[big.last]  # type: ignore[index]  # last is a B/P letter here
            current[0] += big.lengths[-1]
            current[1] = max(current[1], big.lengths[-1])
        rounds = len(self._results)
        return Stats(
            rounds=rounds,
            banker=wins["B"][0],
            player=wins["P"][0],
            tie=rounds - len(self._entries),
            banker_pairs=self._banker_pairs,
            player_pairs=self._player_pairs,
            naturals=self._naturals,
            longest_banker_streak=wins["B"][1],
            longest_player_streak=wins["P"][1],
        )

    def drawn_columns(self, road: RoadName) -> int:
        """Width of a road's drawn grid: its right-most occupied column plus one."""
        if road == "bead_plate":
            return -(-len(self._results) // BEAD_ROWS)
        if road == "big_road":
            return max(self._big.drawn_columns, 1 if self._ties else 0)
        return self._derived_road(road).drawn_columns

    def visible_columns(self, road: RoadName, width: int) -> range:
        """The drawn columns a window of ``width`` columns shows for ``road`` (spec §4.6).

        >>> Scoreboard.from_tokens("BPBPB").visible_columns("big_road", 3)
        range(2, 5)
        """
        return window(self.drawn_columns(road), width)

    def snapshot(self) -> dict[str, Any]:
        """Everything as a JSON-serialisable dict (the output of ``baccarat roads --json``)."""
        return snapshot(self)


def _runs(road: Road, first: str, second: str) -> list[str]:
    """The logical columns of ``road`` as strings.

    ``first`` names the symbol ``"B"`` or ``True`` (red), ``second`` the other one.
    """
    if not road.lengths:
        return []
    letters = (first, second) if road.first in ("B", True) else (second, first)
    return [letters[i & 1] * n for i, n in enumerate(road.lengths)]
