"""The test vectors of the roads spec (§10), pasted verbatim and checked line by line.

Each block is parsed from the spec's own notation, so further vectors can be pasted in as they are.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import pytest

from baccarat.roads import DERIVED_ROADS, Scoreboard, Tail, parse_results

V1 = """
input   : B B P P P B P B B B P P B
big road logical columns: BB|PPP|B|P|BBB|PP|B   leading ties: 0
big road grid:
       0123456
    r0 BPBPBPB
    r1 BP..BP.
    r2 .P..B..
    r3 .......
    r4 .......
    r5 .......
Big Eye Boy (k=1)    sequence: RBBBRBRBRB
                     columns : R|BBB|R|B|R|B|R|B
       01234567
    r0 RBRBRBRB
    r1 .B......
    r2 .B......
    r3 ........
    r4 ........
    r5 ........
Small Road (k=2)     sequence: BBBRBBB
                     columns : BBB|R|BBB
       012
    r0 BRB
    r1 B.B
    r2 B.B
    r3 ...
    r4 ...
    r5 ...
Cockroach Pig (k=3)  sequence: BRRRBB
                     columns : B|RRR|BB
       012
    r0 BRB
    r1 .RB
    r2 .R.
    r3 ...
    r4 ...
    r5 ...
Banker ask -> big road (6,1); BEB=R@(8,0) SR=R@(3,0) CP=B@(2,2)
Player ask -> big road (7,0); BEB=B@(7,1) SR=B@(2,3) CP=R@(3,0)
"""

V1_SOURCES = {
    "big_eye_boy": "R<-(1,1) B<-(1,2) B<-(2,0) B<-(3,0) R<-(4,0) B<-(4,1) R<-(4,2) B<-(5,0) "
    "R<-(5,1) B<-(6,0)",
    "small_road": "B<-(3,0) B<-(4,0) B<-(4,1) R<-(4,2) B<-(5,0) B<-(5,1) B<-(6,0)",
    "cockroach_pig": "B<-(4,0) R<-(4,1) R<-(4,2) R<-(5,0) B<-(5,1) B<-(6,0)",
}

V2 = """
input   : T T Bb P Tp T Pp8 Bn9 T B P
bead plate columns (top to bottom):
  c0  T T Bb P Tp T
  c1  Pp8 Bn9 T B P
big road logical columns: B|PP|BB|P   leading ties: 2
big road marked cells (col,row): (0,0) B ties=2 bpair; (1,0) P ties=2; (1,1) P ties=0 ppair; (2,0) B ties=1
big road grid:
       0123
    r0 BPBP
    r1 .PB.
    r2 ....
    r3 ....
    r4 ....
    r5 ....
Big Eye Boy (k=1)    sequence: BBRR
                     columns : BB|RR
       01
    r0 BR
    r1 BR
    r2 ..
    r3 ..
    r4 ..
    r5 ..
Small Road (k=2)     sequence: BB
                     columns : BB
       0
    r0 B
    r1 B
    r2 .
    r3 .
    r4 .
    r5 .
Cockroach Pig (k=3)  sequence: (none)
Banker ask -> big road (4,0); BEB=B@(2,0) SR=B@(0,2) CP=R@(0,0)
Player ask -> big road (3,1); BEB=R@(1,2) SR=R@(1,0) CP=B@(0,0)
"""

V3 = """
input   : B B B B B B B B B T P P B
big road logical columns: BBBBBBBBB|PP|B   leading ties: 0
big road marked cells (col,row): (3,5) B ties=1
big road grid:
       0123
    r0 BPB.
    r1 BP..
    r2 B...
    r3 B...
    r4 B...
    r5 BBBB
Big Eye Boy (k=1)    sequence: RB
                     columns : R|B
       01
    r0 RB
    r1 ..
    r2 ..
    r3 ..
    r4 ..
    r5 ..
Small Road (k=2)     sequence: (none)
Cockroach Pig (k=3)  sequence: (none)
Banker ask -> big road (2,1); BEB=R@(2,0) SR=R@(0,0) CP=none
Player ask -> big road (3,0); BEB=B@(1,1) SR=B@(0,0) CP=none
"""

V4 = """
input   : B B B B B B B B P P P P P P P P B B B B B B P P P P P
big road logical columns: BBBBBBBB|PPPPPPPP|BBBBBB|PPPPP   leading ties: 0
big road grid:
       012345
    r0 BPBP..
    r1 BPBP..
    r2 BPBPPP
    r3 BPBBB.
    r4 BPPPP.
    r5 BBB...
Big Eye Boy (k=1)    sequence: RRRRRRRRRRRRRBRRRR
                     columns : RRRRRRRRRRRRR|B|RRRR
       01234567
    r0 RBR.....
    r1 R.R.....
    r2 R.R.....
    r3 R.R.....
    r4 R.......
    r5 RRRRRRRR
Small Road (k=2)     sequence: RRRRRBRRRR
                     columns : RRRRR|B|RRRR
       012
    r0 RBR
    r1 R.R
    r2 R.R
    r3 R.R
    r4 R..
    r5 ...
Cockroach Pig (k=3)  sequence: RRRR
                     columns : RRRR
       0
    r0 R
    r1 R
    r2 R
    r3 R
    r4 .
    r5 .
Banker ask -> big road (4,0); BEB=B@(3,0) SR=B@(3,0) CP=B@(1,0)
Player ask -> big road (6,2); BEB=R@(2,4) SR=R@(2,4) CP=R@(0,4)
"""

V4_GREEDY = """
input   : B B B B B B B B P P P P P P P P B B B B B B P P P P P
options : tail=greedy derive=logical
big road logical columns: BBBBBBBB|PPPPPPPP|BBBBBB|PPPPP   leading ties: 0
big road grid:
       012345
    r0 BPBP..
    r1 BPBP..
    r2 BPBPPP
    r3 BPBBB.
    r4 BPPP..
    r5 BBBP..
Big Eye Boy (k=1)    sequence: RRRRRRRRRRRRRBRRRR
                     columns : RRRRRRRRRRRRR|B|RRRR
Small Road (k=2)     sequence: RRRRRBRRRR
                     columns : RRRRR|B|RRRR
Cockroach Pig (k=3)  sequence: RRRR
                     columns : RRRR
Banker ask -> big road (4,0); BEB=B@(3,0) SR=B@(3,0) CP=B@(1,0)
Player ask -> big road (5,3); BEB=R@(2,4) SR=R@(2,4) CP=R@(0,4)
"""

V5 = """
input   : B P B P B P B P B P B P
big road logical columns: B|P|B|P|B|P|B|P|B|P|B|P   leading ties: 0
big road grid:
       012345678901
    r0 BPBPBPBPBPBP
    r1 ............
    r2 ............
    r3 ............
    r4 ............
    r5 ............
Big Eye Boy (k=1)    sequence: RRRRRRRRRR
                     columns : RRRRRRRRRR
       01234
    r0 R....
    r1 R....
    r2 R....
    r3 R....
    r4 R....
    r5 RRRRR
Small Road (k=2)     sequence: RRRRRRRRR
                     columns : RRRRRRRRR
       0123
    r0 R...
    r1 R...
    r2 R...
    r3 R...
    r4 R...
    r5 RRRR
Cockroach Pig (k=3)  sequence: RRRRRRRR
                     columns : RRRRRRRR
       012
    r0 R..
    r1 R..
    r2 R..
    r3 R..
    r4 R..
    r5 RRR
Banker ask -> big road (12,0); BEB=R@(5,5) SR=R@(4,5) CP=R@(3,5)
Player ask -> big road (11,1); BEB=B@(1,0) SR=B@(1,0) CP=B@(1,0)
"""

VECTORS = {"V1": V1, "V2": V2, "V3": V3, "V4": V4, "V4-greedy": V4_GREEDY, "V5": V5}

# -- parsing the spec notation ---------------------------------------------------------------

_ROAD_TITLES = {
    "Big Eye Boy": "big_eye_boy",
    "Small Road": "small_road",
    "Cockroach Pig": "cockroach_pig",
}
_ASK_KEYS = {"BEB": "big_eye_boy", "SR": "small_road", "CP": "cockroach_pig"}
_CELL = re.compile(r"\((\d+),(\d+)\)")


@dataclass
class Vector:
    tokens: str
    tail: Tail = "L"
    bead_columns: list[str] = field(default_factory=list)
    big_columns: str = ""
    leading_ties: int = 0
    marked: dict[tuple[int, int], str] = field(default_factory=dict)
    grids: dict[str, list[str]] = field(default_factory=dict)
    sequences: dict[str, str] = field(default_factory=dict)
    columns: dict[str, str] = field(default_factory=dict)
    asks: dict[str, str] = field(default_factory=dict)


def parse_vector(text: str) -> Vector:
    lines = [line for line in text.splitlines() if line.strip()]
    vector = Vector(tokens="")
    current = ""
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        i += 1
        if line.startswith("input"):
            vector.tokens = line.split(":", 1)[1].strip()
        elif line.startswith("options"):
            vector.tail = "greedy" if "tail=greedy" in line else "L"
        elif line.startswith("c") and lines[i - 2].strip().startswith(("bead", "c")):
            vector.bead_columns.append(line.split(None, 1)[1])
        elif line.startswith("big road logical columns"):
            match = re.match(r"big road logical columns: (\S+)\s+leading ties: (\d+)", line)
            assert match, line
            vector.big_columns, vector.leading_ties = match[1], int(match[2])
        elif line.startswith("big road marked cells"):
            for item in line.split(":", 1)[1].split(";"):
                cell = _CELL.search(item)
                assert cell, item
                vector.marked[int(cell[1]), int(cell[2])] = item[cell.end() :].strip()
        elif line.startswith("big road grid"):
            current = "big_road"
        elif any(line.startswith(title) for title in _ROAD_TITLES):
            current = next(name for title, name in _ROAD_TITLES.items() if line.startswith(title))
            sequence = line.split("sequence:", 1)[1].strip()
            vector.sequences[current] = "" if sequence == "(none)" else sequence
        elif line.startswith("columns :"):
            vector.columns[current] = line.split(":", 1)[1].strip()
        elif re.fullmatch(r"\d+", line):
            vector.grids[current] = [lines[i + r].split()[1] for r in range(6)]
            i += 6
        elif line.startswith(("Banker ask", "Player ask")):
            vector.asks[line[0]] = line.split("->", 1)[1].strip()
    return vector


def draw(cells: Sequence[tuple[int, int, str]], width: int) -> list[str]:
    """Rows r0..r5 of a grid ``width`` columns wide, ``.`` where nothing is drawn."""
    rows = [["."] * width for _ in range(6)]
    for col, row, letter in cells:
        assert rows[row][col] == ".", f"two entries in cell ({col},{row})"
        rows[row][col] = letter
    return ["".join(row) for row in rows]


def format_ask(board: Scoreboard, side: str) -> str:
    ask = board.ask("B" if side == "B" else "P")
    parts = []
    for key, name in _ASK_KEYS.items():
        cell = ask.derived[name]  # type: ignore[index]
        text = "none" if cell is None else f"{cell.colour[0].upper()}@({cell.col},{cell.row})"
        parts.append(f"{key}={text}")
    return f"big road ({ask.big_road[0]},{ask.big_road[1]}); " + " ".join(parts)


# -- the tests -------------------------------------------------------------------------------

CASES = [pytest.param(parse_vector(text), id=name) for name, text in VECTORS.items()]


def board_for(vector: Vector) -> Scoreboard:
    board = Scoreboard(tail=vector.tail)
    board.extend(parse_results(vector.tokens))
    return board


@pytest.mark.parametrize("vector", CASES)
def test_big_road_logical_columns(vector: Vector) -> None:
    board = board_for(vector)
    assert "|".join(board.big_road_columns()) == vector.big_columns
    assert board.leading_ties == vector.leading_ties


@pytest.mark.parametrize("vector", CASES)
def test_big_road_grid(vector: Vector) -> None:
    board = board_for(vector)
    expected = vector.grids["big_road"]
    cells = [(c.col, c.row, c.outcome or "T") for c in board.big_road_cells()]
    assert draw(cells, len(expected[0])) == expected
    assert board.drawn_columns("big_road") == len(expected[0])


@pytest.mark.parametrize("vector", CASES)
def test_big_road_marked_cells(vector: Vector) -> None:
    marks = {}
    for cell in board_for(vector).big_road_cells():
        text = f"{cell.outcome} ties={cell.ties}"
        text += " bpair" * cell.banker_pair + " ppair" * cell.player_pair
        if (
            cell.ties
            or cell.banker_pair
            or cell.player_pair
            or (cell.col, cell.row) in vector.marked
        ):
            marks[cell.col, cell.row] = text
    assert marks == vector.marked


@pytest.mark.parametrize("vector", CASES)
@pytest.mark.parametrize(("name", "k"), DERIVED_ROADS)
def test_derived_road(vector: Vector, name: str, k: int) -> None:
    road = board_for(vector).derived(name)  # type: ignore[arg-type]
    assert road.k == k
    assert road.sequence == vector.sequences[name]
    if name in vector.columns:
        assert "|".join(road.columns) == vector.columns[name]
    if name in vector.grids:
        expected = vector.grids[name]
        cells = [(c.col, c.row, c.colour[0].upper()) for c in road.cells]
        assert draw(cells, len(expected[0])) == expected


@pytest.mark.parametrize("vector", CASES)
@pytest.mark.parametrize("side", ["B", "P"])
def test_asks(vector: Vector, side: str) -> None:
    board = board_for(vector)
    before = board.snapshot()
    assert format_ask(board, side) == vector.asks[side]
    assert board.snapshot() == before


def test_v1_sources_of_derived_entries() -> None:
    """Which Big-Road entry (logical col, row) produced each derived entry, made one at a time."""
    board = Scoreboard()
    sources: dict[str, list[str]] = {name: [] for name, _k in DERIVED_ROADS}
    for result in parse_results(parse_vector(V1).tokens):
        sizes = {name: len(board.derived(name).sequence) for name in sources}  # type: ignore[arg-type]
        board.add(result)
        columns = board.big_road_columns()
        col, row = len(columns) - 1, len(columns[-1]) - 1
        for name, seen in sources.items():
            sequence = board.derived(name).sequence  # type: ignore[arg-type]
            assert len(sequence) - sizes[name] in (0, 1)
            if len(sequence) > sizes[name]:
                seen.append(f"{sequence[-1]}<-({col},{row})")
    assert {name: " ".join(seen) for name, seen in sources.items()} == V1_SOURCES


def test_v2_bead_plate() -> None:
    vector = parse_vector(V2)
    board = board_for(vector)
    columns: dict[int, list[str]] = {}
    for cell in board.bead_plate():
        columns.setdefault(cell.col, []).append(cell.result.token)
        assert cell.row == len(columns[cell.col]) - 1
    assert [" ".join(tokens) for tokens in columns.values()] == vector.bead_columns
    stats = board.stats()
    assert (stats.banker, stats.player, stats.tie) == (3, 3, 5)
    assert (stats.banker_pairs, stats.player_pairs, stats.naturals) == (1, 2, 1)


def test_v4_tail_rules_differ_only_in_drawn_cells() -> None:
    shoe = parse_vector(V4).tokens
    lshape, greedy = Scoreboard.from_tokens(shoe), Scoreboard.from_tokens(shoe, tail="greedy")
    assert lshape.big_road_columns() == greedy.big_road_columns()
    for name, _k in DERIVED_ROADS:
        assert lshape.derived(name).sequence == greedy.derived(name).sequence
    moved = [
        (a.col, a.row, b.col, b.row)
        for a, b in zip(lshape.big_road_cells(), greedy.big_road_cells(), strict=True)
        if a != b
    ]
    assert moved == [(4, 4, 3, 5)]  # only the 8th Player moves (V4 note)


def test_parser_reads_every_vector() -> None:
    for text in VECTORS.values():
        vector = parse_vector(text)
        assert vector.tokens and vector.big_columns and len(vector.asks) == 2
        assert set(vector.sequences) == {name for name, _k in DERIVED_ROADS}
