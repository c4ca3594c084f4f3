"""Properties of spec §5.4 and §6.2, and the incremental board against a from-scratch reference."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from baccarat.roads import DERIVED_ROADS, Result, Scoreboard, Tail

# Boards are cheap: at least 200 examples (more under a profile that asks for more), no deadline.
# A decorator, not a profile: loading a profile here would change every test after this module.
ROADS = settings(max_examples=max(200, settings().max_examples), deadline=None)

# -- strategies ------------------------------------------------------------------------------


def _result(code: int, outcome: str | None = None) -> Result:
    """A result from one byte: outcome, the three flags and a total (or none) from its bits."""
    total = code >> 5
    return Result(
        outcome or "BPT"[code % 3],  # type: ignore[arg-type]
        banker_pair=bool(code & 4),
        player_pair=bool(code & 8),
        natural=bool(code & 16),
        total=None if total == 7 else total,
    )


def _flat(data: bytes) -> list[Result]:
    return [_result(code) for code in data]


def _streaky(data: bytes) -> list[Result]:
    """Runs of 1-12 wins with some ties between them, so dragons and nested tails are common."""
    out: list[Result] = []
    for i, code in enumerate(data):
        outcome = "BP"[(code >> 7) ^ (i & 1)]
        out.extend(_result(code, outcome) for _ in range((code >> 1) % 12 + 1))
        if code & 1:
            out.append(_result(code, "T"))
    return out[:120]


# Results are decoded from bytes: generating 120 records field by field makes the suite slow.
shoes = (
    st.binary(max_size=120).map(_flat)
    | st.binary(min_size=60, max_size=120).map(_flat)
    | st.binary(max_size=24).map(_streaky)
)
tails = st.sampled_from(["L", "greedy"])


def board_of(results: list[Result], tail: Tail = "L") -> Scoreboard:
    board = Scoreboard(tail=tail)
    board.extend(results)
    return board


# -- a from-scratch reference, written from the spec text ------------------------------------


def place(lengths: list[int], greedy: bool) -> list[tuple[int, int]]:
    """Spec §4.3: drawn cells of runs with the given lengths."""
    occupied: set[tuple[int, int]] = set()
    cells = []
    previous_start = -1
    for j, length in enumerate(lengths):
        c = max(j, previous_start + 1)
        while (c, 0) in occupied:
            c += 1
        previous_start = c
        r, turned = 0, False
        for n in range(length):
            if n:
                if (greedy or not turned) and r + 1 < 6 and (c, r + 1) not in occupied:
                    r += 1
                else:
                    turned, c = True, c + 1
            assert (c, r) not in occupied
            occupied.add((c, r))
            cells.append((c, r))
    return cells


def runs(sequence: str) -> list[str]:
    out: list[str] = []
    for symbol in sequence:
        if out and out[-1][0] == symbol:
            out[-1] += symbol
        else:
            out.append(symbol)
    return out


def reference(results: list[Result], tail: Tail) -> dict[str, Any]:
    greedy = tail == "greedy"
    entries = [r for r in results if r.outcome != "T"]
    columns = runs("".join(r.outcome for r in entries))
    lengths = [len(column) for column in columns]
    ties = [0] * max(len(entries), 1)
    seen = 0
    for result in results:
        if result.outcome == "T":
            ties[max(seen - 1, 0)] += 1
        else:
            seen += 1
    big_cells: list[dict[str, Any]] = [
        {
            "col": c,
            "row": rw,
            "outcome": e.outcome,
            "ties": ties[i],
            "banker_pair": e.banker_pair,
            "player_pair": e.player_pair,
        }
        for i, ((c, rw), e) in enumerate(zip(place(lengths, greedy), entries, strict=True))
    ]
    if not entries and ties[0]:
        big_cells = [
            {"col": 0, "row": 0, "outcome": None, "ties": ties[0]}
            | {"banker_pair": False, "player_pair": False}
        ]
    logical = [(c, r) for c, n in enumerate(lengths) for r in range(n)]
    out: dict[str, Any] = {
        "big_road": {"columns": columns, "cells": big_cells},
        "bead_plate": [(i // 6, i % 6, r.token) for i, r in enumerate(results)],
    }
    for name, k in DERIVED_ROADS:
        sequence = ""
        for c, r in logical:
            if r >= 1 and c >= k:
                sequence += "B" if lengths[c - k] == r else "R"
            elif r == 0 and c >= k + 1:
                sequence += "R" if lengths[c - 1] == lengths[c - 1 - k] else "B"
        drawn = place([len(run) for run in runs(sequence)], greedy)
        out[name] = {
            "sequence": sequence,
            "columns": runs(sequence),
            "cells": [
                {"col": c, "row": r, "colour": "red" if s == "R" else "blue"}
                for (c, r), s in zip(drawn, sequence, strict=True)
            ],
        }
    return out


def reference_ask(results: list[Result], tail: Tail, side: str) -> dict[str, Any]:
    """Spec §6.1 taken literally: recompute with one more result, report what it added."""
    before = reference(results, tail)
    after = reference([*results, Result(side)], tail)  # type: ignore[arg-type]
    cell = after["big_road"]["cells"][-1]
    out: dict[str, Any] = {"big_road": {"col": cell["col"], "row": cell["row"]}}
    for name, _k in DERIVED_ROADS:
        grew = len(after[name]["sequence"]) > len(before[name]["sequence"])
        new = after[name]["cells"][-1] if grew else None
        out[name] = (
            None
            if new is None
            else {"colour": new["colour"]}
            | {
                "col": new["col"],
                "row": new["row"],
            }
        )
    return out


# -- properties ------------------------------------------------------------------------------


@ROADS
@given(shoes, tails)
def test_incremental_board_equals_reference(results: list[Result], tail: Tail) -> None:
    snap = board_of(results, tail).snapshot()
    expected = reference(results, tail)
    assert snap["big_road"]["columns"] == expected["big_road"]["columns"]
    assert snap["big_road"]["cells"] == expected["big_road"]["cells"]
    bead = [(c["col"], c["row"], c["outcome"]) for c in snap["bead_plate"]["cells"]]
    assert bead == [(c, r, token[0]) for c, r, token in expected["bead_plate"]]
    for name, _k in DERIVED_ROADS:
        assert snap[name] == expected[name]
    for side, key in (("B", "banker"), ("P", "player")):
        assert snap["predictions"][key] == reference_ask(results, tail, side)


@ROADS
@given(shoes, tails)
def test_derived_count_formula(results: list[Result], tail: Tail) -> None:
    board = board_of(results, tail)
    lengths = [len(column) for column in board.big_road_columns()]
    for name, k in DERIVED_ROADS:
        expected = max(0, sum(lengths[k:]) - 1) if len(lengths) > k else 0
        assert len(board.derived(name).sequence) == expected


def _strip(result: Result) -> Result:
    return Result(result.outcome)


@ROADS
@given(shoes, tails)
def test_derived_roads_ignore_ties_pairs_naturals_totals_and_tail(
    results: list[Result], tail: Tail
) -> None:
    full = board_of(results, tail)
    bare = board_of([_strip(r) for r in results if r.outcome != "T"], "L")
    for name, _k in DERIVED_ROADS:
        assert full.derived(name).sequence == bare.derived(name).sequence
    before = full.snapshot()
    for road in ("bead_plate", "big_road", *(name for name, _k in DERIVED_ROADS)):
        for width in (1, 6, 30):
            view = full.visible_columns(road, width)
            assert len(view) == width
            assert view.stop >= full.drawn_columns(road)
    assert full.snapshot() == before


@ROADS
@given(st.integers(0, 120), st.sampled_from("BP"))
def test_pure_chop_is_all_red(length: int, first: str) -> None:
    other = "P" if first == "B" else "B"
    board = board_of([Result(first if i % 2 == 0 else other) for i in range(length)])  # type: ignore[arg-type]
    for name, _k in DERIVED_ROADS:
        assert set(board.derived(name).sequence) <= {"R"}


@ROADS
@given(st.integers(1, 15), st.integers(1, 12))
def test_equal_length_columns_are_all_red(run: int, count: int) -> None:
    results = [Result("B" if j % 2 == 0 else "P") for j in range(count) for _ in range(run)]
    board = board_of(results)
    for name, _k in DERIVED_ROADS:
        assert set(board.derived(name).sequence) <= {"R"}


@ROADS
@given(shoes, tails)
def test_asks(results: list[Result], tail: Tail) -> None:
    board = board_of(results, tail)
    before = copy.deepcopy(board.snapshot())
    columns = board.big_road_columns()
    lengths = [len(column) for column in columns]
    banker, player = board.ask("B"), board.ask("P")
    for ask in (banker, player):
        # The entry lands where adding the result for real puts it, on a fresh board.
        real = board_of([*results, Result(ask.side)], tail)
        last = real.big_road_cells()[-1]
        assert ask.big_road == (last.col, last.row)
        logical = real.big_road_columns()
        if columns and columns[-1][0] == ask.side:
            assert len(logical) == len(columns)
            assert len(logical[-1]) == lengths[-1] + 1  # at (c, n_c)
        else:
            assert len(logical) == len(columns) + 1 and len(logical[-1]) == 1  # at (c+1, 0)
    if not columns:
        assert banker.big_road == player.big_road == (0, 0)
    for name, k in DERIVED_ROADS:
        b, p = banker.derived[name], player.derived[name]
        assert (b is None) == (p is None) == (len(columns) < k + 1)
        if b is None or p is None:
            continue
        assert b.colour != p.colour
        c = len(lengths) - 1
        extend, switch = (b, p) if columns[-1][0] == "B" else (p, b)
        assert (extend.colour == "red") == (lengths[c - k] != lengths[c])
        assert (switch.colour == "red") == (lengths[c] == lengths[c - k])
    assert board.snapshot() == before


@ROADS
@given(st.integers(0, 12), st.sampled_from("BP"))
def test_empty_and_tie_only_shoes(ties: int, side: str) -> None:
    board = board_of([Result("T")] * ties)
    ask = board.ask(side)  # type: ignore[arg-type]
    assert ask.big_road == (0, 0)
    assert all(cell is None for cell in ask.derived.values())
    cells = board.big_road_cells()
    assert [(c.col, c.row, c.outcome, c.ties) for c in cells] == (
        [(0, 0, None, ties)] if ties else []
    )


@ROADS
@given(shoes, shoes)
def test_reset_starts_a_new_shoe(first: list[Result], second: list[Result]) -> None:
    board = board_of(first)
    board.reset()
    board.extend(second)
    assert board.snapshot() == board_of(second).snapshot()


@ROADS
@given(shoes)
def test_stats(results: list[Result]) -> None:
    stats = board_of(results).stats()
    columns = board_of(results).big_road_columns()
    assert stats.rounds == len(results)
    for letter, count in (("B", stats.banker), ("P", stats.player), ("T", stats.tie)):
        assert count == sum(r.outcome == letter for r in results)
    assert stats.banker_pairs == sum(r.banker_pair for r in results)
    assert stats.player_pairs == sum(r.player_pair for r in results)
    assert stats.naturals == sum(r.natural for r in results)
    assert stats.longest_banker_streak == max((len(c) for c in columns if c[0] == "B"), default=0)
    assert stats.longest_player_streak == max((len(c) for c in columns if c[0] == "P"), default=0)
