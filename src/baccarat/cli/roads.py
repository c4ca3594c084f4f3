"""``baccarat roads``: draw the five scoreboards of a shoe, its asks and statistics.

The input is a token sequence (``B Bbn9 Tp2 P``, spec §2), ``-`` for tokens on stdin, or
``--coups FILE`` with the JSON lines of ``baccarat deal --json``.
"""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from baccarat.cli.app import app, console, fail
from baccarat.roads import (
    DERIVED_ROADS,
    ROWS,
    Result,
    RoadName,
    Scoreboard,
    Side,
    TokenError,
    parse_results,
    render_svg,
)
from baccarat.roads.svg import TITLES

__all__ = ["roads"]

NOTE = "Roads record the past; they predict nothing (every coup is independent)."
_STYLE = {
    "B": "bold red",
    "P": "bold blue",
    "T": "bold green",
    "red": "bold red",
    "blue": "bold blue",
}
_SYMBOLS: dict[RoadName, str] = {"big_eye_boy": "○", "small_road": "●", "cockroach_pig": "╱"}


class TailRule(StrEnum):
    L = "L"
    greedy = "greedy"


class Label(StrEnum):
    letter = "letter"
    total = "total"


class AskSide(StrEnum):
    banker = "banker"
    player = "player"


def _read(source: str) -> str:
    if source == "-":
        return sys.stdin.read()
    try:
        return Path(source).read_text(encoding="utf-8")
    except OSError as error:
        fail(f"cannot read {source}: {error.strerror or error}")


def _coup_result(line: str, number: int, source: str) -> Result:
    where = f"{'stdin' if source == '-' else source} line {number}"
    try:
        coup: Any = json.loads(line)
    except json.JSONDecodeError as error:
        fail(f"{where}: not JSON ({error.msg})")
    if not isinstance(coup, dict) or coup.get("winner") not in ("player", "banker", "tie"):
        fail(f"{where}: expected an object with winner 'player', 'banker' or 'tie'")
    flags = {key: coup.get(key, False) for key in ("banker_pair", "player_pair", "natural")}
    if not all(isinstance(value, bool) for value in flags.values()):
        fail(f"{where}: banker_pair, player_pair and natural must be true or false")
    winner = coup["winner"]
    total = coup.get("player_total" if winner == "player" else "banker_total")
    if total is not None and (type(total) is not int or not 0 <= total <= 9):
        fail(f"{where}: totals must be whole numbers 0-9")
    return Result(winner[0].upper(), **flags, total=total)


def _coups(source: str) -> list[Result]:
    lines = _read(source).splitlines()
    return [_coup_result(line, i, source) for i, line in enumerate(lines, 1) if line.strip()]


def _tie_mark(ties: int) -> str:
    """One character: a slash for one tie, the count from two (``+`` past nine)."""
    if ties < 2:
        return "/" if ties else ""
    return str(ties) if ties < 10 else "+"


def _grid(board: Scoreboard, road: RoadName, width: int, label: Label) -> list[Text]:
    """Six lines of text for one road, showing the window of spec §4.6."""
    view = board.visible_columns(road, width)
    cells: dict[tuple[int, int], Text] = {}
    if road == "bead_plate":
        for bead in board.bead_plate():
            r = bead.result
            text = r.outcome if label is Label.letter or r.total is None else str(r.total)
            style = _STYLE[r.outcome] + (" underline" if r.natural else "")
            cells[bead.col, bead.row] = Text.assemble(
                ("•" if r.banker_pair else " ", "red"),
                (text, style),
                ("•" if r.player_pair else " ", "blue"),
            )
        blank = Text(" · ", "dim")
    elif road == "big_road":
        for cell in board.big_road_cells():
            tie = _tie_mark(cell.ties)
            cells[cell.col, cell.row] = Text.assemble(
                ("•" if cell.banker_pair else " ", "red"),
                (cell.outcome or " ", _STYLE[cell.outcome or "T"]),
                (tie or " ", "bold green"),
                ("•" if cell.player_pair else " ", "blue"),
            )
        blank = Text(" ·  ", "dim")
    else:
        # Without colour the symbols alone would hide red/blue: use the spec's R/B letters.
        plain = console.color_system is None
        for mark in board.derived(road).cells:
            symbol = mark.colour[0].upper() if plain else _SYMBOLS[road]
            cells[mark.col, mark.row] = Text(symbol + " ", _STYLE[mark.colour])
        blank = Text("· ", "dim")
    return [Text("").join(cells.get((col, row), blank) for col in view) for row in range(ROWS)]


def _asks(board: Scoreboard) -> Table:
    table = Table("Ask", "Big Road", *(TITLES[name] for name, _k in DERIVED_ROADS), box=None)
    for ask in (board.ask("B"), board.ask("P")):
        row: list[Text] = [
            Text("Banker" if ask.side == "B" else "Player", _STYLE[ask.side]),
            Text(f"({ask.big_road[0]},{ask.big_road[1]})"),
        ]
        for name, _k in DERIVED_ROADS:
            cell = ask.derived[name]
            if cell is None:
                row.append(Text("-", "dim"))
            else:
                mark = Text(f"{_SYMBOLS[name]} {cell.colour}", _STYLE[cell.colour])
                row.append(mark + Text(f" ({cell.col},{cell.row})"))
        table.add_row(*row)
    return table


def _show(board: Scoreboard, width: int, label: Label) -> None:
    roads: list[RoadName] = ["bead_plate", "big_road", *(name for name, _k in DERIVED_ROADS)]
    for road in roads:
        derived = road in _SYMBOLS
        extra = f"  {board.derived(road).sequence or '(empty)'}" if derived else ""
        console.print(Text(TITLES[road], "bold") + Text(extra, "dim"), no_wrap=True, crop=False)
        for line in _grid(board, road, width, label):
            console.print(line, crop=False, no_wrap=True)
    console.print(_asks(board))
    s = board.stats()
    console.print(
        f"Rounds {s.rounds}: Banker {s.banker}, Player {s.player}, Tie {s.tie}; "
        f"pairs Banker {s.banker_pairs}, Player {s.player_pairs}; naturals {s.naturals}",
        markup=False,
    )
    console.print(
        f"Longest streak: Banker {s.longest_banker_streak}, Player {s.longest_player_streak}",
        markup=False,
    )
    console.print(NOTE, style="italic", markup=False)


@app.command("roads")
def roads(
    sequence: Annotated[
        str | None,
        typer.Argument(help="Tokens such as 'B Bbn9 Tp2 P' (spec notation); '-' reads stdin."),
    ] = None,
    width: Annotated[
        int, typer.Option("--width", "-w", min=1, help="Columns shown of each road.")
    ] = 18,
    tail: Annotated[
        TailRule, typer.Option(help="Dragon tail: L (turn once, keep right) or greedy.")
    ] = TailRule.L,
    as_json: Annotated[bool, typer.Option("--json", help="Print the snapshot as JSON.")] = False,
    svg: Annotated[
        Path | None, typer.Option(help="Also write all five roads to this SVG file.")
    ] = None,
    ask: Annotated[
        AskSide | None, typer.Option(help="Show this side's ask, blinking, in the SVG.")
    ] = None,
    label: Annotated[
        Label, typer.Option(help="Bead plate label: the outcome letter or the winning total.")
    ] = Label.letter,
    coups: Annotated[
        str | None,
        typer.Option(help="Read `baccarat deal --json` lines from FILE ('-' for stdin)."),
    ] = None,
) -> None:
    """Draw the bead plate, big road and derived roads of one shoe, with both asks."""
    if (sequence is None) == (coups is None):
        fail("give either a SEQUENCE of tokens or --coups FILE")
    if coups is not None:
        results = _coups(coups)
    else:
        assert sequence is not None
        text = _read("-") if sequence == "-" else sequence
        try:
            results = list(parse_results(text))
        except TokenError as error:
            fail(str(error))
    board = Scoreboard(tail=tail.value)
    board.extend(results)
    if svg is not None:
        side: Side | None = None if ask is None else "B" if ask is AskSide.banker else "P"
        try:
            svg.write_text(
                render_svg(board, width=width, ask=side, label=label.value), encoding="utf-8"
            )
        except OSError as error:
            fail(f"cannot write {svg}: {error.strerror or error}")
    if as_json:
        typer.echo(json.dumps(board.snapshot()))
    else:
        _show(board, width, label)
