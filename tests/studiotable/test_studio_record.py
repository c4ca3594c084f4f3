"""A studio shoe's record: after the shoe, every card read in order with its scan id, each
coup, what was set aside and the shuffle certificate, published like a fair shoe's; `baccarat
verify` replays the reads through the rules and finds exactly the recorded coups, results and
payouts, and fails a record changed anywhere."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from studiotable_support import TABLE, Studio, running_studio
from typer.testing import CliRunner

from baccarat.cli import app
from baccarat.verify import verify_record


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A shoe with a settled round, a round voided for a card drawn before time, a coup voided
    part-way by a misdeal, an impossible read set aside and a misscan confirmed; then ended by
    the dealer's next shoe."""
    with running_studio(tmp_path_factory.mktemp("record")) as studio:
        studio.new_shoe("Ac Kd")
        shoe_id = studio.console()["shoe"]["id"]
        _, token = studio.guest()
        first = studio.open_round()
        assert studio.bet(token, first, {"banker": 1_000, "player_pair": 100}).status_code == 200
        _deal(studio, "4h 3c 2d 2s 7h")
        studio.wait_final(first)
        second = studio.open_round()
        assert studio.bet(token, second, {"tie": 100}).status_code == 200
        studio.read_ok("8d")  # before time: the round is voided
        studio.wait_final(second)
        third = studio.open_round()
        studio.dealer("POST", "close")
        studio.clock.settle()
        studio.read_ok("9h")
        assert studio.read("Qs", "shoe1:000002").status_code == 409  # a scan id reused
        assert studio.supervisor("halt/discard").status_code == 200
        assert (
            studio.dealer("POST", "misscan", json={"card": "5c", "reason": "unread"}).status_code
            == 200
        )
        assert studio.supervisor("misscan/confirm").status_code == 200
        assert studio.dealer("POST", "misdeal", json={"reason": "card exposed"}).status_code == 200
        studio.wait_final(third)
        fourth = studio.open_round()
        assert studio.bet(token, fourth, {"player": 700}).status_code == 200
        _deal(studio, "9c 8s Kd Kh")  # a natural 9 on Player
        studio.wait_final(fourth)
        studio.clock.settle()
        assert studio.dealer("POST", "shoe", json={"shuffled_by": "ani"}).status_code == 201
        response = studio.call("GET", f"/api/shoes/{shoe_id}/record")
        assert response.status_code == 200, response.text
        view = studio.call("GET", f"/api/shoes/{shoe_id}").json()
        assert view["kind"] == "studio" and view["certificate"]["shuffled_by"] == "dana"
        yield response.json()


def _deal(studio: Studio, cards: str) -> None:
    studio.dealer("POST", "close")
    studio.clock.settle()
    for card in cards.split():
        studio.read_ok(card)


def test_the_record_holds_every_read_and_verifies(record: dict[str, Any], tmp_path: Path) -> None:
    report = verify_record(record)
    assert report.ok, [str(f) for f in report.failures]
    assert [r["card"] for r in record["reads"]] == [
        "Ac",
        "Kd",
        "4h",
        "3c",
        "2d",
        "2s",
        "7h",
        "8d",
        "9h",
        "5c",
        "9c",
        "8s",
        "Kd",
        "Kh",
    ]
    assert [r["position"] for r in record["reads"]][7:10] == ["burned", "player_1", "banker_1"]
    assert [(c["round"], c.get("voided", False), len(c["wagers"])) for c in record["coups"]] == [
        (1, False, 2),
        (3, True, 0),
        (4, False, 1),
    ]
    assert [a["kind"] for a in record["set_aside"]] == ["impossible", "misscan"]
    path = tmp_path / "studio.json"
    path.write_text(json.dumps(record))
    result = CliRunner().invoke(app, ["verify", str(path)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("OK")


def _swap_reads(r: dict[str, Any]) -> None:
    r["reads"][2]["card"], r["reads"][3]["card"] = r["reads"][3]["card"], r["reads"][2]["card"]


def _extra_copy(r: dict[str, Any]) -> None:
    for n in range(9):  # a ninth ace of clubs cannot come from eight decks
        r["reads"].append({**r["reads"][0], "seq": len(r["reads"]) + 1, "scan_id": f"x{n}"})


TAMPERS: dict[str, Callable[[dict[str, Any]], None]] = {
    "a coup's card": lambda r: r["coups"][0]["cards"].__setitem__(4, "8h"),
    "a read's card": lambda r: r["reads"][6].__setitem__("card", "6h"),
    "two reads swapped": _swap_reads,
    "a read left out": lambda r: r["reads"].pop(5),
    "a payout": lambda r: r["coups"][0]["wagers"][0].__setitem__("returned", 5_000),
    "a winner": lambda r: r["coups"][2].__setitem__("winner", "banker"),
    "a burn card's position": lambda r: r["reads"][1].__setitem__("position", "player_1"),
    "the burn cut short": lambda r: r["reads"][1].__setitem__("use", "coup"),
    "a voided coup settling": lambda r: r["coups"][1]["wagers"].append(
        {"player": "p", "bet": "player", "stake": 100, "returned": 200}
    ),
    "a coup left out": lambda r: r["coups"].pop(2),
    "more copies than the decks": _extra_copy,
    "the certificate's decks": lambda r: r["certificate"].__setitem__("decks", 6),
}


@pytest.mark.parametrize("tamper", list(TAMPERS))
def test_a_record_changed_anywhere_fails(record: dict[str, Any], tamper: str) -> None:
    changed = copy.deepcopy(record)
    TAMPERS[tamper](changed)
    report = verify_record(changed)
    assert not report.ok, tamper


def test_a_studio_shoe_takes_no_seed_and_has_no_record_in_play(tmp_path: Path) -> None:
    with running_studio(tmp_path) as studio:
        studio.new_shoe("Ac Kd")
        shoe_id = studio.console()["shoe"]["id"]
        _, token = studio.guest()
        seed = studio.call("POST", f"/api/shoes/{shoe_id}/seed", token, json={"seed": "abc"})
        assert seed.status_code == 409
        in_play = studio.call("GET", f"/api/shoes/{shoe_id}/record")
        assert in_play.status_code == 409 and in_play.json()["error"]["code"] == "shoe_in_play"
        assert studio.call("GET", f"/api/tables/{TABLE}").json()["shoe"]["kind"] == "studio"


def test_a_dummy_hand_is_in_the_record_as_its_rounds_voided_coup(tmp_path: Path) -> None:
    with running_studio(tmp_path, exposed="dummy") as studio:
        studio.new_shoe("Ac Kd")
        shoe_id = studio.console()["shoe"]["id"]
        studio.open_round()
        _deal(studio, "4h 3c")
        assert studio.dealer("POST", "misdeal", json={"reason": "exposed"}).status_code == 200
        for card in ["2d", "2s", "7h"]:
            studio.read_ok(card)
        last = studio.open_round()
        # A new shoe asked while a round is in play comes after it.
        assert studio.dealer("POST", "shoe", json={"shuffled_by": "ani"}).status_code == 201
        assert studio.console()["studio"]["next"] == "wait_bets"
        _deal(studio, "9c 8s Kd Kh")
        studio.wait_final(last)
        studio.clock.advance(1_000)  # past the result's pause: then the shoe changes
        assert studio.console()["shoe"]["id"] != shoe_id
        record = studio.call("GET", f"/api/shoes/{shoe_id}/record").json()
    coup, natural = record["coups"]
    assert coup["dummy"] is True and coup["voided"] is True and coup["winner"] == "player"
    assert natural["winner"] == "player" and "dummy" not in natural
    uses = [r["use"] for r in record["reads"]][2:7]
    assert uses == ["coup", "coup", "dummy", "dummy", "dummy"]
    assert verify_record(record).ok
    settled = copy.deepcopy(record)
    settled["coups"][0]["wagers"] = [{"player": "p", "bet": "player", "stake": 1, "returned": 2}]
    assert not verify_record(settled).ok
