"""A float-path engine's arrays, kept on disk, and the same engine in C, one shoe per call.

Preparing ``FastOdds`` for a rule set (the outcome of 1,417 representative coups, the
leaf table, a least-squares fit) takes about a third of a second, always with the same
result: :func:`prepared` keeps the arrays in the analysis cache under the rule set's
content, the engine's detail and mode, and the code that computes them.

:class:`NativePlan` hands those arrays to the C kernels (``baccarat.analysis.native``):
:meth:`NativePlan.row` prices one shoe in a few microseconds, counts in, floats out, with
no numpy in the call, and :meth:`NativePlan.many` prices a batch.

>>> from baccarat.analysis.exact.float_path import fast_engine
>>> from baccarat.rulesets import load_ruleset
>>> engine = fast_engine(load_ruleset("standard"), "ranks", "ev")
>>> plan = engine.native()
>>> plan is None or [round(ev, 6) for ev in plan.row([32] * 13)[:2]]
[-0.012351, -0.010579]
"""

from __future__ import annotations

import ctypes
import io
import json
import threading
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from baccarat.analysis.cache import cache_dir, content_hash, read_entry, write_entry
from baccarat.analysis.exact.multiset_sums import part_layout
from baccarat.analysis.native.tables import CARD_CODES, STEP

__all__ = ["NativePlan", "Prepared", "prepared"]

Floats = NDArray[np.float64]
Column = tuple[str, str | None]
#: The kernels' code for each level of detail of the counts, and how many counts it takes.
DETAIL_CODE = {"values": (0, 10), "ranks": (1, 13), "cards": (2, 52)}
FEWER_THAN_SIX = "a coup may need 6 cards; a shoe holds fewer"


@dataclass(frozen=True, eq=False)
class Prepared:
    """What ``FastOdds`` computes from a rule set: its columns and the arrays that price them."""

    value_columns: list[Column]
    pair_columns: list[Column]
    mixed_columns: list[Column]
    #: Output column ``k`` is computed column ``order[k]`` (values, then pairs, then mixed).
    order: list[int]
    #: ``constant``, ``coefficients`` (value columns from the basis sums), ``table`` (the
    #: basis over the 5,005 leaves) and ``pairs`` (pair columns from the nine pair levels).
    arrays: dict[str, Floats]

    @property
    def columns(self) -> list[Column]:
        computed = self.value_columns + self.pair_columns + self.mixed_columns
        return [computed[i] for i in self.order]

    def to_bytes(self) -> bytes:
        out = io.BytesIO()
        head = [self.value_columns, self.pair_columns, self.mixed_columns, self.order]
        arrays: dict[str, Any] = {"head": np.frombuffer(json.dumps(head).encode(), np.uint8)}
        arrays.update(self.arrays)
        np.savez(out, **arrays)
        return out.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes) -> Prepared:
        with np.load(io.BytesIO(data), allow_pickle=False) as stored:
            head = json.loads(stored["head"].tobytes())
            arrays = {
                name: np.asarray(stored[name], dtype=np.float64)
                for name in ("constant", "coefficients", "table", "pairs")
            }
        value, pairs, mixed = ([(str(b), e) for b, e in cols] for cols in head[:3])
        return cls(value, pairs, mixed, [int(i) for i in head[3]], arrays)


def prepared(key: object, build: Callable[[], Prepared]) -> Prepared:
    """``build()``, or what it gave before for ``key`` (the analysis cache; see
    ``baccarat.analysis.cache``: a damaged entry is built again)."""
    path = cache_dir() / f"fast-odds-{content_hash(1, key)}.npz"
    data = read_entry(path)
    if data is not None:
        try:
            return Prepared.from_bytes(data)
        except (ValueError, KeyError, OSError, TypeError):
            pass
    made = build()
    write_entry(path, made.to_bytes())
    return made


class _Plan(ctypes.Structure):
    # The C ``Plan`` of kernels.c, field for field.
    _fields_ = [
        *((name, ctypes.c_int64) for name in ("basis", "outputs", "suited", "pairs")),
        *((name, ctypes.c_void_p) for name in ("parent", "last", "used", "start")),
        *((name, ctypes.c_void_p) for name in ("table", "constant", "coef", "pair", "table_t")),
    ]


class NativePlan:
    """One engine's arrays laid out for the C kernels (kept alive as long as the plan)."""

    def __init__(self, plan: Prepared, detail: str, lib: ctypes.CDLL) -> None:
        values, pairs = len(plan.value_columns), len(plan.pair_columns)
        outputs = len(plan.order)
        table = plan.arrays["table"]
        basis = table.shape[0]
        if plan.mixed_columns or basis > lib.bk_max_basis():
            raise ValueError("this engine cannot run in C")
        constant = np.zeros(outputs)
        coef = np.zeros((outputs, basis))
        pair = np.zeros((outputs, 9))
        for k, i in enumerate(plan.order):
            if i < values:
                constant[k] = plan.arrays["constant"][i]
                coef[k] = plan.arrays["coefficients"][i]
            else:
                pair[k] = plan.arrays["pairs"][i - values]
        parent, last, used, start, _ = part_layout()
        # The C loop reads the table by groups of four columns, each leaf by leaf, then the
        # one to three columns left, each on its own.
        whole = basis - basis % 4
        grouped = np.concatenate(
            [
                np.zeros(1),
                *(table[g : g + 4].T.ravel() for g in range(0, whole, 4)),
                table[whole:].ravel(),
            ]
        )[1:]
        self._keep: list[Any] = [
            np.ascontiguousarray(a)
            for a in (parent, last, used, start, grouped, constant, coef, pair, table.T)
        ]
        self._plan = _Plan(
            basis,
            outputs,
            int(detail == "cards"),
            int(pairs > 0),
            *(a.ctypes.data for a in self._keep),
        )
        self._lib = lib
        self._address = ctypes.addressof(self._plan)
        self.detail, self.width = DETAIL_CODE[detail]
        self.outputs = outputs
        self._local = threading.local()
        self._odds = lib.bk_odds

    def row(self, counts: Sequence[int]) -> list[float]:
        """Every output column for one shoe of ``counts`` (``width`` whole numbers)."""
        given = array("q", counts)  # whole numbers only (TypeError otherwise), one copy
        if len(given) != self.width:
            raise ValueError(f"expected {self.width} counts, not {len(given)}")
        out = getattr(self._local, "out", None)
        if out is None:  # each thread its own: ctypes lets go of the GIL during the call
            out = self._local.out = (ctypes.c_double * self.outputs)()
        status = self._odds(self._address, self.detail, given.buffer_info()[0], out)
        if status:
            raise ValueError(FEWER_THAN_SIX if status == -1 else "a count is negative")
        return out[:]

    def many(self, counts: Floats) -> Floats:
        """Every output column for each row of ``counts`` (shoes x ``width``)."""
        rows = np.ascontiguousarray(counts, dtype=np.float64).reshape(-1, self.width)
        out = np.empty((rows.shape[0], self.outputs))
        status = self._lib.bk_odds_many(
            self._address, self.detail, rows.shape[0], self.width, rows.ctypes.data, out.ctypes.data
        )
        if status:
            raise ValueError(FEWER_THAN_SIX if status == -1 else "a count is negative")
        return out

    def traces(
        self,
        orders: NDArray[np.int64],
        first: NDArray[np.int64],
        cut: NDArray[np.int64],
        *,
        finish: bool,
        due: bool,
    ) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], Floats]:
        """EV traces of shoes given as rows of card numbers (``baccarat.analysis.trace``):
        per coup, its shoe, its number, the cards left, and every output column."""
        if self.detail != DETAIL_CODE["cards"][0]:
            raise ValueError("a trace prices counts by card")
        orders = np.ascontiguousarray(orders, dtype=np.int64)
        first = np.ascontiguousarray(first, dtype=np.int64)
        cut = np.ascontiguousarray(cut, dtype=np.int64)
        shoes, length = orders.shape
        if orders.size and (orders.min() < 0 or orders.max() > 51):
            raise ValueError("cards are numbered 0 to 51")
        if first.shape != (shoes,) or cut.shape != (shoes,) or (first < 0).any():
            raise ValueError("one first card and one cut card position a shoe")
        room = shoes * (length // 4 + 1)
        columns = [np.empty(room, dtype=np.int64) for _ in range(3)]
        out = np.empty((room, self.outputs))
        codes = np.ascontiguousarray(CARD_CODES, dtype=np.uint8)
        rows = self._lib.bk_ev_traces(
            self._address,
            orders.ctypes.data,
            shoes,
            length,
            first.ctypes.data,
            cut.ctypes.data,
            int(finish),
            int(due),
            STEP.ctypes.data,
            codes.ctypes.data,
            room,
            *(c.ctypes.data for c in columns),
            out.ctypes.data,
        )
        if rows < 0:
            raise ValueError("a shoe holds at most 8 decks")
        shoe, coup, left = (c[:rows] for c in columns)
        return shoe, coup, left, out[:rows]
