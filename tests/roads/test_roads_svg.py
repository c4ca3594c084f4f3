"""The SVG pictures are well-formed standalone documents with the symbols of spec §3-§5."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from baccarat.roads import DERIVED_ROADS, RoadName, Scoreboard, render_svg, road_svg

NS = {"svg": "http://www.w3.org/2000/svg"}
V2 = "T T Bb P Tp T Pp8 Bn9 T B P"
ROADS: list[RoadName] = ["bead_plate", "big_road", *(name for name, _k in DERIVED_ROADS)]


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return root


def road_group(root: ET.Element, road: str) -> ET.Element:
    found = root.find(f".//svg:g[@data-road='{road}']", NS)
    assert found is not None
    return found


@pytest.mark.parametrize("tokens", ["", "T T", V2, "B" * 20 + "P" * 9, "BP" * 40])
@pytest.mark.parametrize("ask", [None, "B", "P"])
def test_full_board_parses(tokens: str, ask: str | None) -> None:
    root = parse(render_svg(Scoreboard.from_tokens(tokens), width=12, ask=ask))  # type: ignore[arg-type]
    for road in ROADS:
        road_group(root, road)
    style = root.find("svg:style", NS)
    assert style is not None and style.text is not None
    assert "prefers-reduced-motion" in style.text


@pytest.mark.parametrize("road", ROADS)
def test_each_road_alone_parses(road: RoadName) -> None:
    parse(road_svg(Scoreboard.from_tokens(V2), road, width=8, ask="B"))


def test_bead_plate_discs_labels_and_pair_dots() -> None:
    group = road_group(parse(road_svg(Scoreboard.from_tokens(V2), "bead_plate")), "bead_plate")
    discs = [c for c in group.iter("{http://www.w3.org/2000/svg}circle") if c.get("stroke") is None]
    assert len(discs) == 11  # every round, ties included
    fills = {c.get("fill") for c in discs}
    assert len(fills) == 3  # red, blue, green
    labels = [t.text for t in group.iter("{http://www.w3.org/2000/svg}text")][1:]
    assert labels == ["T", "T", "B", "P", "T", "T", "P", "B", "T", "B", "P"]
    dots = [c for c in group.iter("{http://www.w3.org/2000/svg}circle") if c.get("stroke")]
    assert len(dots) == 3  # Bb, Tp, Pp8
    totals = road_svg(Scoreboard.from_tokens(V2), "bead_plate", label="total")
    assert ">8<" in totals and ">9<" in totals


def test_big_road_rings_tie_slashes_and_counts() -> None:
    group = road_group(parse(road_svg(Scoreboard.from_tokens(V2), "big_road")), "big_road")
    rings = [c for c in group.iter("{http://www.w3.org/2000/svg}circle") if c.get("fill") == "none"]
    assert len(rings) == 6
    slashes = [
        line for line in group.iter("{http://www.w3.org/2000/svg}line") if line.get("stroke-width")
    ]
    assert len(slashes) == 3  # cells with ties: (0,0), (1,0), (2,0)
    counts = [t.text for t in group.iter("{http://www.w3.org/2000/svg}text")][1:]
    assert counts == ["2", "2"]  # the number only from two ties


def test_tie_only_board_shows_the_tie_cell() -> None:
    text = road_svg(Scoreboard.from_tokens("T T T"), "big_road")
    group = road_group(parse(text), "big_road")
    assert [t.text for t in group.iter("{http://www.w3.org/2000/svg}text")][1:] == ["3"]


def test_ask_cells_blink() -> None:
    board = Scoreboard.from_tokens("B B P P P B P B B B P P B")
    root = parse(render_svg(board, ask="P"))
    assert len(root.findall(".//*[@class='ask']")) == 4  # big road and the three derived roads
    assert "ask" not in render_svg(board).split("</style>")[1]


def test_window_shows_the_last_columns() -> None:
    board = Scoreboard.from_tokens("BP" * 15)  # 30 big road columns
    group = road_group(parse(road_svg(board, "big_road", width=10)), "big_road")
    rings = [c for c in group.iter("{http://www.w3.org/2000/svg}circle") if c.get("fill") == "none"]
    assert len(rings) == 10


def test_unknown_road_is_refused() -> None:
    with pytest.raises(ValueError, match="not a road"):
        road_svg(Scoreboard(), "pearl")  # type: ignore[arg-type]
