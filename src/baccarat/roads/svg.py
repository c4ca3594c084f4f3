"""Standalone SVG pictures of the roads (pure: returns text, writes nothing).

Symbols follow spec §3–§5: the bead plate has filled discs with a letter or total and pair dots
(banker pair red, top-left; player pair blue, bottom-right); the Big Road has hollow rings with a
green tie slash and the tie count from two ties; a natural greys the bead's top-right corner; Big Eye Boy small hollow circles, Small Road
small solid dots, Cockroach Pig short diagonal strokes. An ask's cells carry the CSS class ``ask``
and blink, except for viewers who prefer reduced motion.

>>> import xml.etree.ElementTree as ET
>>> from baccarat.roads.scoreboard import Scoreboard
>>> board = Scoreboard.from_tokens("B B P T P B")
>>> root = ET.fromstring(render_svg(board, width=10, ask="B"))
>>> root.tag
'{http://www.w3.org/2000/svg}svg'
>>> 'class="ask"' in road_svg(board, "big_road", ask="P")
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal
from xml.sax.saxutils import escape, quoteattr

from baccarat.roads.grid import ROWS, window
from baccarat.roads.views import DERIVED_ROADS, RoadName, Side

if TYPE_CHECKING:
    from baccarat.roads.scoreboard import Scoreboard

__all__ = ["COLOURS", "TITLES", "render_svg", "road_svg"]

COLOURS = {"B": "#d32f2f", "P": "#1565c0", "T": "#2e7d32", "red": "#d32f2f", "blue": "#1565c0"}
TITLES: dict[RoadName, str] = {
    "bead_plate": "Bead Plate",
    "big_road": "Big Road",
    "big_eye_boy": "Big Eye Boy",
    "small_road": "Small Road",
    "cockroach_pig": "Cockroach Pig",
}
# Cell edge in pixels: derived-road cells are half a Big-Road cell (spec §5.5).
SIZES: dict[RoadName, int] = {
    "bead_plate": 26,
    "big_road": 22,
    "big_eye_boy": 11,
    "small_road": 11,
    "cockroach_pig": 11,
}
_TITLE_HEIGHT = 18
_GAP = 10
_STYLE = (
    "<style>"
    ".ask{animation:ask-blink 1s step-end infinite}"
    "@keyframes ask-blink{50%{opacity:0.15}}"
    "@media (prefers-reduced-motion: reduce){.ask{animation:none}}"
    "text{font-family:sans-serif;text-anchor:middle}"
    "</style>"
)

Label = Literal["letter", "total"]


def _dot(x: float, y: float, r: float, colour: str) -> str:
    return (
        f'<circle cx="{x:g}" cy="{y:g}" r="{r:g}" fill="{colour}" stroke="#fff" stroke-width="1"/>'
    )


def _pairs(x: float, y: float, s: float, banker_pair: bool, player_pair: bool) -> str:
    out = ""
    if banker_pair:
        out += _dot(x + s * 0.2, y + s * 0.2, s * 0.14, COLOURS["B"])
    if player_pair:
        out += _dot(x + s * 0.8, y + s * 0.8, s * 0.14, COLOURS["P"])
    return out


def _natural(x: float, y: float, s: float) -> str:
    """A grey top-right corner (Gamicorp's natural marker; spec §3.3 leaves it to the vendor)."""
    return (
        f'<path d="M{x + s * 0.6:g} {y:g}H{x + s:g}V{y + s * 0.4:g}Z" fill="#9e9e9e" '
        'class="natural"/>'
    )


def _bead(board: Scoreboard, start: int, s: int, label: Label) -> list[str]:
    out = []
    for cell in board.bead_plate():
        if cell.col < start:
            continue
        x, y = (cell.col - start) * s, cell.row * s
        result = cell.result
        text = result.outcome if label == "letter" or result.total is None else str(result.total)
        out.append(
            f'<circle cx="{x + s / 2:g}" cy="{y + s / 2:g}" r="{s * 0.42:g}" '
            f'fill="{COLOURS[result.outcome]}"/>'
            f'<text x="{x + s / 2:g}" y="{y + s / 2:g}" font-size="{s * 0.5:g}" '
            f'dy="0.35em" fill="#fff">{escape(text)}</text>'
            + _pairs(x, y, s, result.banker_pair, result.player_pair)
            + (_natural(x, y, s) if result.natural else "")
        )
    return out


def _ring(x: float, y: float, s: float, colour: str, css: str = "") -> str:
    return (
        f'<circle{css} cx="{x + s / 2:g}" cy="{y + s / 2:g}" r="{s * 0.38:g}" fill="none" '
        f'stroke="{colour}" stroke-width="{s * 0.1:g}"/>'
    )


def _big_road(board: Scoreboard, start: int, s: int) -> list[str]:
    out = []
    for cell in board.big_road_cells():
        if cell.col < start:
            continue
        x, y = (cell.col - start) * s, cell.row * s
        item = "" if cell.outcome is None else _ring(x, y, s, COLOURS[cell.outcome])
        if cell.ties:
            item += (
                f'<line x1="{x + s * 0.2:g}" y1="{y + s * 0.8:g}" x2="{x + s * 0.8:g}" '
                f'y2="{y + s * 0.2:g}" stroke="{COLOURS["T"]}" stroke-width="{s * 0.1:g}"/>'
            )
        if cell.ties >= 2:
            item += (
                f'<text x="{x + s / 2:g}" y="{y + s / 2:g}" font-size="{s * 0.45:g}" '
                f'dy="0.35em" fill="{COLOURS["T"]}" font-weight="bold">{cell.ties}</text>'
            )
        out.append(item + _pairs(x, y, s, cell.banker_pair, cell.player_pair))
    return out


def _mark(road: RoadName, x: float, y: float, s: float, colour: str, css: str = "") -> str:
    """One derived-road symbol in the cell at ``(x, y)``."""
    cx, cy = x + s / 2, y + s / 2
    if road == "big_eye_boy":
        return (
            f'<circle{css} cx="{cx:g}" cy="{cy:g}" r="{s * 0.34:g}" fill="none" '
            f'stroke="{colour}" stroke-width="{s * 0.14:g}"/>'
        )
    if road == "small_road":
        return f'<circle{css} cx="{cx:g}" cy="{cy:g}" r="{s * 0.38:g}" fill="{colour}"/>'
    return (
        f'<line{css} x1="{x + s * 0.2:g}" y1="{y + s * 0.8:g}" x2="{x + s * 0.8:g}" '
        f'y2="{y + s * 0.2:g}" stroke="{colour}" stroke-width="{s * 0.16:g}" '
        'stroke-linecap="round"/>'
    )


def _derived(board: Scoreboard, road: RoadName, start: int, s: int) -> list[str]:
    return [
        _mark(road, (cell.col - start) * s, cell.row * s, s, COLOURS[cell.colour])
        for cell in board.derived(road).cells
        if cell.col >= start
    ]


def _ask_cell(board: Scoreboard, road: RoadName, side: Side | None) -> tuple[int, int, str] | None:
    """``(col, row, colour)`` an ask would add to ``road``, if any."""
    if side is None or road == "bead_plate":
        return None
    ask = board.ask(side)
    if road == "big_road":
        return (*ask.big_road, COLOURS[side])
    cell = ask.derived[road]
    return None if cell is None else (cell.col, cell.row, COLOURS[cell.colour])


def _road_group(
    board: Scoreboard, road: RoadName, width: int, ask: Side | None, label: Label
) -> tuple[str, int, int]:
    """The SVG group of one road (title, grid, marks) and its pixel width and height."""
    s = SIZES[road]
    asked = _ask_cell(board, road, ask)
    drawn = board.drawn_columns(road)
    if asked is not None:
        # Keep the asked cell in view even when it opens a new drawn column.
        drawn = max(drawn, asked[0] + 1)
    view = window(drawn, width)
    start = view.start
    if road == "bead_plate":
        marks = _bead(board, start, s, label)
    elif road == "big_road":
        marks = _big_road(board, start, s)
    else:
        marks = _derived(board, road, start, s)
    if asked is not None and asked[0] >= start:
        col, row, colour = asked
        x, y = (col - start) * s, row * s
        css = ' class="ask"'
        marks.append(
            _ring(x, y, s, colour, css) if road == "big_road" else _mark(road, x, y, s, colour, css)
        )
    w, h = width * s, ROWS * s
    lines = "".join(
        f'<line x1="{i * s}" y1="0" x2="{i * s}" y2="{h}"/>' for i in range(1, width)
    ) + "".join(f'<line x1="0" y1="{j * s}" x2="{w}" y2="{j * s}"/>' for j in range(1, ROWS))
    body = (
        f'<text x="{w / 2:g}" y="{_TITLE_HEIGHT / 2:g}" font-size="12" dy="0.35em">{escape(TITLES[road])}'
        f"</text>"
        f'<g transform="translate(0,{_TITLE_HEIGHT})">'
        f'<rect width="{w}" height="{h}" fill="#fff" stroke="#999"/>'
        f'<g stroke="#ddd" stroke-width="1">{lines}</g>'
        f"{''.join(marks)}</g>"
    )
    return f"<g data-road={quoteattr(road)}>{body}</g>", w, h + _TITLE_HEIGHT


def _document(groups: list[tuple[str, int, int]], title: str) -> str:
    y = _GAP
    placed = []
    for body, _w, h in groups:
        placed.append(f'<g transform="translate({_GAP},{y})">{body}</g>')
        y += h + _GAP
    width = max((w for _b, w, _h in groups), default=0) + 2 * _GAP
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{y}" '
        f'viewBox="0 0 {width} {y}" role="img"><title>{escape(title)}</title>{_STYLE}'
        f"{''.join(placed)}</svg>"
    )


def road_svg(
    board: Scoreboard,
    road: RoadName,
    *,
    width: int = 20,
    ask: Side | None = None,
    label: Label = "letter",
) -> str:
    """One road as a standalone SVG document showing a window of ``width`` columns (spec §4.6).

    ``ask`` (``"B"`` or ``"P"``) adds that ask's cell, blinking. ``label`` picks the bead text.
    """
    if road not in TITLES:
        raise ValueError(f"not a road: {road!r}")
    return _document([_road_group(board, road, width, ask, label)], TITLES[road])


def render_svg(
    board: Scoreboard, *, width: int = 20, ask: Side | None = None, label: Label = "letter"
) -> str:
    """All five roads, one above the other, in one standalone SVG document."""
    roads: list[RoadName] = ["bead_plate", "big_road", *(name for name, _k in DERIVED_ROADS)]
    return _document(
        [_road_group(board, road, width, ask, label) for road in roads], "Baccarat roads"
    )
