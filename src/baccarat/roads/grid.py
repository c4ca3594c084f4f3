"""Runs of a two-symbol sequence drawn on the 6-row grid (spec §4.3), shared by every road but the bead plate.

A road is fed one symbol at a time. Equal consecutive symbols form one *logical column* (a run);
each entry is placed on a grid of six rows that is unbounded to the right:

* a new run starts in the top row, in the first drawn column right of the previous run's start
  whose top cell is free;
* a run goes down while it can; once it cannot, it *turns* and runs right along its row (the
  "dragon tail"). With the default L-shaped tail it never goes down again; with ``greedy=True`` it
  goes down again as soon as the cell below is free (the variant of spec §9).

>>> road = Road()
>>> for symbol in "BBBBBBBBPPB":
...     road.append(symbol)
>>> road.lengths
[8, 2, 1]
>>> [decode(cell) for cell in road.cells]  # doctest: +NORMALIZE_WHITESPACE
[(0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (1, 5), (2, 5), (1, 0), (1, 1), (2, 0)]
>>> decode(road.peek("B")), decode(road.peek("P"))
((2, 1), (3, 0))
"""

from __future__ import annotations

from collections.abc import Hashable

__all__ = ["ROWS", "Road", "decode", "window"]

#: Every road has six rows.
ROWS = 6
_BOTTOM = ROWS - 1
# A drawn cell is one int, col << 3 | row: cheaper to store and compare than a tuple on the hot path.
_SHIFT = 3
_ROW_MASK = (1 << _SHIFT) - 1


def decode(cell: int) -> tuple[int, int]:
    """``(col, row)`` of an encoded cell.

    >>> decode(2 << 3 | 5)
    (2, 5)
    """
    return cell >> _SHIFT, cell & _ROW_MASK


def window(drawn_columns: int, width: int) -> range:
    """The drawn columns a view of ``width`` columns shows (spec §4.6).

    The right-most drawn column sits at the right edge once the grid is wider than the view;
    before that the view is left-aligned.

    >>> window(5, 3), window(2, 3)
    (range(2, 5), range(0, 3))
    """
    if width < 1:
        raise ValueError(f"a view needs at least one column, not {width}")
    start = max(0, drawn_columns - width)
    return range(start, start + width)


class Road:
    """A sequence of symbols grouped into runs and drawn per spec §4.3, built incrementally.

    ``lengths`` are the logical column lengths; ``cells`` the encoded drawn cell of each entry
    (see :func:`decode`). Runs alternate between the two symbols, so ``first`` and ``lengths``
    determine the whole sequence and the symbols themselves are not stored.
    """

    __slots__ = (
        "_col",
        "_descend",
        "_masks",
        "_row",
        "_start",
        "cells",
        "first",
        "greedy",
        "last",
        "lengths",
    )

    def __init__(self, *, greedy: bool = False) -> None:
        self.greedy = greedy
        self.first: Hashable = None
        self.last: Hashable = None
        self.lengths: list[int] = []
        self.cells: list[int] = []
        # Bit r of _masks[c] is set when cell (c, r) is occupied; len(_masks) is the drawn width.
        self._masks: list[int] = []
        self._col = -1
        self._row = 0
        self._start = -1
        # False once an L-shaped tail has turned: it must keep going right.
        self._descend = True

    @property
    def drawn_columns(self) -> int:
        """Index of the right-most occupied drawn column, plus one."""
        return len(self._masks)

    def __len__(self) -> int:
        return len(self.cells)

    def append(self, symbol: Hashable) -> None:
        """Add one entry: extend the current run if ``symbol`` equals the last one, else open a run."""
        masks = self._masks
        if symbol == self.last:
            self.lengths[-1] += 1
            col = self._col
            row = self._row
            if self._descend and row < _BOTTOM and not masks[col] >> (row + 1) & 1:
                row += 1
                masks[col] |= 1 << row
                self._row = row
            else:
                # An earlier run cannot hold (col+1, row) without holding (col, row) (spec §4.3.4),
                # so the cell to the right is free and needs no test.
                self._descend = self.greedy
                col += 1
                if col == len(masks):
                    masks.append(1 << row)
                else:
                    masks[col] |= 1 << row
                self._col = col
            self.cells.append(col << _SHIFT | row)
            return
        if self.last is None:
            self.first = symbol
        self.last = symbol
        self.lengths.append(1)
        col = self._start + 1
        width = len(masks)
        while col < width and masks[col] & 1:
            col += 1
        if col == width:
            masks.append(1)
        else:
            masks[col] |= 1
        self._start = self._col = col
        self._row = 0
        self._descend = True
        self.cells.append(col << _SHIFT)

    def peek(self, symbol: Hashable) -> int:
        """The encoded cell :meth:`append` would use for ``symbol``, without changing anything."""
        masks = self._masks
        if symbol == self.last:
            col, row = self._col, self._row
            if self._descend and row < _BOTTOM and not masks[col] >> (row + 1) & 1:
                return col << _SHIFT | (row + 1)
            return (col + 1) << _SHIFT | row
        col = self._start + 1
        while col < len(masks) and masks[col] & 1:
            col += 1
        return col << _SHIFT

    def occupied(self, col: int, row: int) -> bool:
        """Whether drawn cell ``(col, row)`` holds an entry."""
        return 0 <= col < len(self._masks) and 0 <= row < ROWS and bool(self._masks[col] >> row & 1)
