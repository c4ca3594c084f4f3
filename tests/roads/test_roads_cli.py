"""``baccarat roads``: JSON keys, terminal view, stdin, ``--coups`` JSON lines, one-line errors."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

import baccarat.cli.roads  # noqa: F401  (registers the command)
from baccarat.cards import parse_cards
from baccarat.cli.app import app
from baccarat.coup import deal

runner = CliRunner()
V1 = "B B P P P B P B B B P P B"
DERIVED = ("big_eye_boy", "small_road", "cockroach_pig")


def snapshot(*args: str, stdin: str | None = None) -> dict[str, object]:
    result = runner.invoke(app, ["roads", *args, "--json"], input=stdin)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def test_json_has_every_key() -> None:
    data = snapshot(V1)
    assert {"bead_plate", "big_road", "predictions", "stats", *DERIVED} <= set(data)
    big = data["big_road"]
    assert isinstance(big, dict)
    assert big["columns"] == ["BB", "PPP", "B", "P", "BBB", "PP", "B"]
    assert set(big["cells"][0]) >= {"col", "row", "outcome", "ties", "banker_pair", "player_pair"}
    for name in DERIVED:
        road = data[name]
        assert isinstance(road, dict) and set(road) >= {"sequence", "cells"}
        assert all(cell["colour"] in ("red", "blue") for cell in road["cells"])
    assert data["big_eye_boy"]["sequence"] == "RBBBRBRBRB"  # type: ignore[index]
    predictions = data["predictions"]
    assert predictions == {
        "banker": {
            "big_road": {"col": 6, "row": 1},
            "big_eye_boy": {"colour": "red", "col": 8, "row": 0},
            "small_road": {"colour": "red", "col": 3, "row": 0},
            "cockroach_pig": {"colour": "blue", "col": 2, "row": 2},
        },
        "player": {
            "big_road": {"col": 7, "row": 0},
            "big_eye_boy": {"colour": "blue", "col": 7, "row": 1},
            "small_road": {"colour": "blue", "col": 2, "row": 3},
            "cockroach_pig": {"colour": "red", "col": 3, "row": 0},
        },
    }
    assert data["stats"]["banker"] == 7  # type: ignore[index]


def test_tie_only_pseudo_cell_is_null() -> None:
    data = snapshot("T,T|T")
    assert data["big_road"]["cells"] == [  # type: ignore[index]
        {"col": 0, "row": 0, "outcome": None, "ties": 3, "banker_pair": False, "player_pair": False}
    ]


def test_tail_option() -> None:
    shoe = "B" * 8 + "P" * 8 + "B" * 6 + "P" * 5
    cells = snapshot(shoe, "--tail", "greedy")["big_road"]["cells"]  # type: ignore[index]
    assert {k: cells[15][k] for k in ("col", "row")} == {"col": 3, "row": 5}
    cells = snapshot(shoe, "--tail", "L")["big_road"]["cells"]  # type: ignore[index]
    assert {k: cells[15][k] for k in ("col", "row")} == {"col": 4, "row": 4}


def test_terminal_view() -> None:
    result = runner.invoke(app, ["roads", "T T Bb P Tp T Pp8 Bn9 T B P", "--width", "8"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    for title in ("Bead Plate", "Big Road", "Big Eye Boy", "Small Road", "Cockroach Pig"):
        assert title in out
    assert "Banker" in out and "Player" in out
    assert "predict nothing" in out
    assert "Rounds 11: Banker 3, Player 3, Tie 5" in out


def test_stdin_tokens() -> None:
    assert snapshot("-", stdin="B B\nP P P\n")["big_road"]["columns"] == ["BB", "PPP"]  # type: ignore[index]


@pytest.mark.parametrize(
    ("tokens", "culprit"), [("B Bx P", "'Bx'"), ("B Q", "'Q'"), ("B10", "'B10'"), ("Bbb", "'Bbb'")]
)
def test_bad_token_is_a_one_line_error(tokens: str, culprit: str) -> None:
    result = runner.invoke(app, ["roads", tokens])
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and culprit in lines[0] and "Traceback" not in result.stderr


def coup_lines(*hands: str) -> str:
    return "".join(json.dumps(deal(parse_cards(cards)).to_json()) + "\n" for cards in hands)


def test_coups_from_stdin() -> None:
    lines = coup_lines(
        "4h 3c 2d 2s 7h",  # Player 6 - Banker 2
        "9h 9c 9d Ks",  # Player 9+9 = 8 against Banker 9: Banker natural 9, player pair
        "4h 4c 4d 4s",  # 8 - 8: a tie of naturals with both pairs
    )
    data = snapshot("--coups", "-", stdin=lines)
    beads = data["bead_plate"]["cells"]  # type: ignore[index]
    assert [b["outcome"] for b in beads] == ["P", "B", "T"]
    assert [b["total"] for b in beads] == [6, 9, 8]
    assert beads[1]["player_pair"] and not beads[1]["banker_pair"] and beads[1]["natural"]
    assert beads[2]["banker_pair"] and beads[2]["player_pair"] and beads[2]["natural"]
    assert data["stats"]["tie"] == 1  # type: ignore[index]


def test_coups_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "coups.jsonl"
    path.write_text(coup_lines("4h 3c 2d 2s 7h", "4h 3c 2d 2s 7h"), encoding="utf-8")
    assert snapshot("--coups", str(path))["big_road"]["columns"] == ["PP"]  # type: ignore[index]


@pytest.mark.parametrize(
    "line", ["not json", '{"winner": "dragon"}', "[1]", '{"winner": "tie", "natural": 1}']
)
def test_bad_coup_line_is_a_one_line_error(line: str) -> None:
    result = runner.invoke(
        app, ["roads", "--coups", "-"], input=coup_lines("4h 3c 2d 2s 7h") + line
    )
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "line 2" in lines[0]


def test_needs_exactly_one_input() -> None:
    assert runner.invoke(app, ["roads"]).exit_code == 2
    assert runner.invoke(app, ["roads", "B", "--coups", "-"], input="").exit_code == 2


def test_svg_file(tmp_path: Path) -> None:
    path = tmp_path / "roads.svg"
    result = runner.invoke(app, ["roads", V1, "--svg", str(path), "--ask", "banker"])
    assert result.exit_code == 0, result.output
    root = ET.fromstring(path.read_text(encoding="utf-8"))
    assert len(root.findall(".//{http://www.w3.org/2000/svg}g[@data-road]")) == 5
    assert root.findall(".//*[@class='ask']")
