"""``studioverify.js`` against ``baccarat.verify``: the page's check of a studio shoe's record
says what ``baccarat verify`` says, verdict and failures alike, down to each failure's JSON
path and words.

The records are real: a studio table run in this process (``tests/studiotable``'s
``running_studio``, on a virtual clock) deals them through the device and console API, with
bets on several spots, a card drawn before betting closed (voiding a round, or burned, by the
table's procedure), an impossible read set aside, a misscan confirmed, a misdeal (voiding the
coup part-way, or dealt on as a dummy hand), then ends the shoe with the next one. Each is
checked as it is, then changed in every field the Python verifier reads (a fixed list), then
changed at random (Hypothesis: a value set anywhere in the record, a key or an element taken
out, two reads swapped, a read repeated); the JavaScript verifier runs in Node (the same V8 as
Chromium; it is pure: no DOM, no WebCrypto) with the rule set as the server publishes it
(``GET /api/rules/{name}``, read by ``rulesFromPage``), as the page gives it.

A record whose read goes back to a coup that was complete, and a certificate whose
``deck_serials`` is not a list, once made the Python verifier raise (found by this test); both
verifiers now fail them alike, at the read and at the certificate. Without Node the test
skips, unless ``BACCARAT_REQUIRE_SERVICES=1``.
"""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from serving import services_required

from baccarat.record import RecordError
from baccarat.rulesets import BUILTIN_RULESETS
from baccarat.verify import verify_record
from baccarat.web import STATIC_DIR

# The studio table's test harness lives beside its own tests.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "studiotable"))
from studiotable_support import Studio, running_studio

MODULE = (STATIC_DIR / "js" / "studioverify.js").as_uri()
#: Reads [{record, page}] on its standard input (page: a rules page, null for a rule set the
#: server publishes none of, "unknown" for one not looked up) and writes what the verifier says.
HARNESS = f"""
import {{ readFileSync }} from "node:fs";
const v = await import({json.dumps(MODULE)});
const cases = JSON.parse(readFileSync(0, "utf8"));
const out = cases.map(({{ record, page }}) => {{
  const rules = page === "unknown" ? undefined : page === null ? null : v.rulesFromPage(page);
  try {{
    const r = v.verifyStudioRecord(record, rules);
    return {{ ok: r.ok, failures: r.failures.map((f) => [f.path, v.describe(f)]),
             coups: r.coups.map((c) => c.ok), wagers: r.wagers, summary: r.summary,
             checks: [r.certificateCheck.ok, r.readsCheck.ok, r.payouts.ok] }};
  }} catch (error) {{
    return {{ raised: [error instanceof v.RecordError, error.message] }};
  }}
}});
process.stdout.write(JSON.stringify(out));
"""


def node() -> str:
    found = shutil.which("node")
    if found is None:
        if services_required():
            pytest.fail("node is required (BACCARAT_REQUIRE_SERVICES=1) but absent")
        pytest.skip("no node")
    return found


def _deal(studio: Studio, cards: str) -> None:
    studio.dealer("POST", "close")
    studio.clock.settle()
    for card in cards.split():
        studio.read_ok(card)


def _void_table_record(studio: Studio) -> dict[str, Any]:
    """A shoe with settled rounds (bets on several spots), a round voided for a card drawn
    before time, an impossible read set aside, a misscan confirmed and a misdeal."""
    studio.new_shoe("Ac Kd")
    shoe_id = studio.console()["shoe"]["id"]
    _, token = studio.guest()
    first = studio.open_round()
    bets = {"banker": 1_000, "player_pair": 100, "banker_pair": 200, "big": 300, "tie": 100}
    assert studio.bet(token, first, bets).status_code == 200
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
    misscan = studio.dealer("POST", "misscan", json={"card": "5c", "reason": "unread"})
    assert misscan.status_code == 200
    assert studio.supervisor("misscan/confirm").status_code == 200
    assert studio.dealer("POST", "misdeal", json={"reason": "card exposed"}).status_code == 200
    studio.wait_final(third)
    fourth = studio.open_round()
    bets = {"player": 700, "dragon_bonus_player": 100, "small": 100, "perfect_pair": 100}
    assert studio.bet(token, fourth, bets).status_code == 200
    _deal(studio, "9c 8s Kd Kh")  # a natural 9 on Player
    studio.wait_final(fourth)
    fifth = studio.open_round()
    assert studio.bet(token, fifth, {"banker": 500, "dragon_bonus_banker": 100}).status_code == 200
    _deal(studio, "Th 6c 5h Kd Kc")  # Banker wins on 6, Player's third card a ten
    studio.wait_final(fifth)
    studio.clock.settle()
    assert studio.dealer("POST", "shoe", json={"shuffled_by": "ani"}).status_code == 201
    return _record(studio, shoe_id)


def _burn_table_record(studio: Studio) -> dict[str, Any]:
    """A shoe whose early card is burned and whose misdeal is dealt on as a dummy hand."""
    studio.new_shoe("3h 4c 5d 6s")  # a 3 turned: three more burned
    shoe_id = studio.console()["shoe"]["id"]
    _, token = studio.guest()
    first = studio.open_round()
    assert studio.bet(token, first, {"player": 400, "either_pair": 100}).status_code == 200
    assert studio.read_ok("Jd")["position"] == "burned"
    _deal(studio, "2c 7h 3s Td 4d")
    studio.wait_final(first)
    second = studio.open_round()
    assert studio.bet(token, second, {"banker": 300}).status_code == 200
    _deal(studio, "4h 3c")
    assert studio.dealer("POST", "misdeal", json={"reason": "card exposed"}).status_code == 200
    for card in ["2d", "2s", "7h"]:  # the dummy hand
        studio.read_ok(card)
    studio.wait_final(second)
    third = studio.open_round()
    assert studio.bet(token, third, {"tie": 200, "player": 100}).status_code == 200
    _deal(studio, "5h 5c 3h 3c")  # Player 8, Banker 8: a natural tie
    studio.wait_final(third)
    studio.clock.settle()
    assert studio.dealer("POST", "shoe", json={"shuffled_by": "ani"}).status_code == 201
    return _record(studio, shoe_id)


def _record(studio: Studio, shoe_id: str) -> dict[str, Any]:
    response = studio.call("GET", f"/api/shoes/{shoe_id}/record")
    assert response.status_code == 200, response.text
    record: dict[str, Any] = response.json()
    return record


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The two records, and every built-in rule set's page as the server publishes it."""
    node()
    with running_studio(tmp_path_factory.mktemp("studio-void")) as studio:
        void = _void_table_record(studio)
        pages = {name: studio.call("GET", f"/api/rules/{name}").json() for name in BUILTIN_RULESETS}
    with running_studio(
        tmp_path_factory.mktemp("studio-burn"), before_time="burn", exposed="dummy"
    ) as studio:
        burn = _burn_table_record(studio)
    return {"records": {"void": void, "burn": burn}, "pages": pages}


def page_for(record: Any, pages: dict[str, Any]) -> Any:
    """The rules page the browser would fetch for the record's rule set: null (404) for a name
    the server does not publish."""
    entry = record.get("ruleset") if isinstance(record, dict) else None
    name = entry.get("name") if isinstance(entry, dict) else None
    if not isinstance(name, str):
        return "unknown"
    return pages.get(name)


def python_says(record: Any) -> dict[str, Any]:
    try:
        report = verify_record(record)
    except RecordError as error:
        return {"raised": [True, str(error)]}
    return {
        "ok": report.ok,
        "failures": [[failure.path, str(failure)] for failure in report.failures],
        "wagers": report.wagers,
    }


def javascript_says(records: list[Any], pages: dict[str, Any] | None) -> list[dict[str, Any]]:
    """What the browser's verifier says of each record, given the rules pages the server
    publishes (``None``: none looked up)."""
    cases = [
        {"record": record, "page": "unknown" if pages is None else page_for(record, pages)}
        for record in records
    ]
    done = subprocess.run(
        [node(), "--input-type=module", "-e", HARNESS],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    found: list[dict[str, Any]] = json.loads(done.stdout)
    return found


def assert_alike(records: list[Any], names: list[str], pages: dict[str, Any]) -> int:
    """Each record's verdict and failures, Python's and the browser's, alike; how many records
    were not shoe records at all (refused alike by both)."""
    raised = 0
    for name, record, js in zip(names, records, javascript_says(records, pages), strict=True):
        py = python_says(record)
        if "raised" in py:
            raised += 1
            assert js.get("raised") == py["raised"], (name, py, js)
            continue
        assert "raised" not in js, (name, py, js)
        assert (js["ok"], js["failures"]) == (py["ok"], py["failures"]), (name, py, js)
        failing = {path.split("]")[0] for path, _ in py["failures"] if path.startswith("coups[")}
        assert [not ok for ok in js["coups"]] == [
            f"coups[{n}" in failing for n in range(len(js["coups"]))
        ], name
        if py["ok"]:
            assert js["wagers"] == py["wagers"], name
    return raised


# ---- the records as they are ---------------------------------------------------------------


def test_real_records_verify_alike(world: dict[str, Any]) -> None:
    records = world["records"]
    void, burn = records["void"], records["burn"]
    assert {read["use"] for read in void["reads"]} == {"burn", "coup", "burned"}
    assert {read["use"] for read in burn["reads"]} == {"burn", "coup", "burned", "dummy"}
    assert [entry["kind"] for entry in void["set_aside"]] == ["impossible", "misscan"]
    assert any(coup.get("dummy") for coup in burn["coups"])
    names = list(records)
    found = javascript_says(list(records.values()), world["pages"])
    for name, record, js in zip(names, records.values(), found, strict=True):
        report = verify_record(record)
        assert report.ok and js["ok"], (name, js)
        assert js["wagers"] == report.wagers and report.wagers >= 4, name
        assert js["checks"] == [True, True, True], name
        reads, coups = len(record["reads"]), len(record["coups"])
        assert js["summary"] == (
            f"Verified: all {reads} cards read follow the shoe's procedure, and all {coups}"
            " coups are the cards read for them, with every payout."
        )
    # Without the rule set's pages the payouts are left to the command, and said so.
    unknown = javascript_says([void], None)[0]
    assert unknown["ok"] and unknown["checks"] == [True, True, None]
    assert unknown["summary"].endswith("are the cards read for them.")


# ---- every field the Python verifier reads, changed ----------------------------------------


def _set(*path: Any, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(record: dict[str, Any]) -> None:
        target: Any = record
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = value

    return change


def _drop(*path: Any) -> Callable[[dict[str, Any]], None]:
    def change(record: dict[str, Any]) -> None:
        target: Any = record
        for step in path[:-1]:
            target = target[step]
        del target[path[-1]]

    return change


def _swap_reads(a: int, b: int) -> Callable[[dict[str, Any]], None]:
    def change(record: dict[str, Any]) -> None:
        reads = record["reads"]
        reads[a]["card"], reads[b]["card"] = reads[b]["card"], reads[a]["card"]

    return change


def _extra_copies(record: dict[str, Any]) -> None:
    for n in range(9):  # a ninth copy of a card cannot come from eight decks
        extra = {**record["reads"][0], "seq": len(record["reads"]) + 1, "scan_id": f"x{n}"}
        record["reads"].append({**extra, "use": "coup", "round": 99, "position": "player_1"})


def _append_wager(record: dict[str, Any]) -> None:
    record["coups"][0]["wagers"].append(
        {"player": "p", "bet": "player", "stake": 100, "returned": 200}
    )


#: Each change, by what it changes; applied to both records.
CHANGES: dict[str, Callable[[dict[str, Any]], None]] = {
    "a read's seq": _set("reads", 3, "seq", value=9),
    "a read's seq as text": _set("reads", 3, "seq", value="4"),
    "a read's seq as true": _set("reads", 0, "seq", value=True),
    "a read's card": _set("reads", 6, "card", value="6h"),
    "a read's card in lower case": _set("reads", 6, "card", value="2D"),
    "a read's card not one": _set("reads", 6, "card", value="Zz"),
    "a read's card too short": _set("reads", 6, "card", value="A"),
    "a read's card null": _set("reads", 6, "card", value=None),
    "a read's card a number": _set("reads", 6, "card", value=7),
    "a read's use unknown": _set("reads", 3, "use", value="nope"),
    "a read's scan id a number": _set("reads", 3, "scan_id", value=7),
    "a read's scan id repeated": _set("reads", 4, "scan_id", value="shoe1:000001"),
    "a read's round as text": _set("reads", 3, "round", value="1"),
    "a read's round as true": _set("reads", 3, "round", value=True),
    "a read's round null": _set("reads", 3, "round", value=None),
    "a read's round another": _set("reads", 3, "round", value=99),
    "a read's round a float": _set("reads", 3, "round", value=2.5),
    "a burn card's position": _set("reads", 1, "position", value="player_1"),
    "a coup card's position": _set("reads", 3, "position", value="player_2"),
    "the burn cut short": _set("reads", 1, "use", value="coup"),
    "a burn card too many": _set("reads", 2, "use", value="burn"),
    "a read not an object": _set("reads", 4, value="x"),
    "two reads swapped": _swap_reads(2, 3),
    "a read left out": lambda r: r["reads"].pop(5),
    "more copies than the decks": _extra_copies,
    "a coup's card": _set("coups", 0, "cards", 4, value="8h"),
    "a coup's card not canonical": _set("coups", 0, "cards", 0, value="4H"),
    "a coup's card as 10": _set("coups", 0, "cards", 0, value="10h"),
    "a coup's card not one": _set("coups", 0, "cards", 1, value="Xc"),
    "a coup's card a number": _set("coups", 0, "cards", 1, value=5),
    "a coup's cards not a list": _set("coups", 0, "cards", value="4h"),
    "a coup's card too many": lambda r: r["coups"][0]["cards"].append("2c"),
    "a coup's card too few": lambda r: r["coups"][0]["cards"].pop(),
    "a coup's round unknown": _set("coups", 0, "round", value=77),
    "a coup's round as text": _set("coups", 0, "round", value="1"),
    "a coup not an object": _set("coups", 0, value=3),
    "a coup left out": lambda r: r["coups"].pop(),
    "a coup twice": lambda r: r["coups"].append(copy.deepcopy(r["coups"][0])),
    "a winner": _set("coups", 0, "winner", value="tie"),
    "a Player total": _set("coups", 0, "player_total", value=8),
    "a Banker total as true": _set("coups", 0, "banker_total", value=True),
    "a settled coup voided": _set("coups", 0, "voided", value=True),
    "voided as text": _set("coups", 0, "voided", value="yes"),
    "a voided coup settling": lambda r: r["coups"][1]["wagers"].append(
        {"player": "p", "bet": "player", "stake": 100, "returned": 200}
    ),
    "a voided coup not voided": _drop("coups", 1, "voided"),
    "a payout": _set("coups", 0, "wagers", 0, "returned", value=5_000),
    "a payout as text": _set("coups", 0, "wagers", 0, "returned", value="5000"),
    "a stake negative": _set("coups", 0, "wagers", 0, "stake", value=-5),
    "a stake missing": _drop("coups", 0, "wagers", 0, "stake"),
    "a bet unknown": _set("coups", 0, "wagers", 0, "bet", value="nope"),
    "a bet not offered": _set("coups", 0, "wagers", 0, "bet", value="super_6"),
    "a bet another": _set("coups", 0, "wagers", 0, "bet", value="tie"),
    "a wager's player a number": _set("coups", 0, "wagers", 0, "player", value=3),
    "a wager's result": _set("coups", 0, "wagers", 0, "result", value="half"),
    "a wager's event": _set("coups", 0, "wagers", 0, "event", value="natural_win"),
    "a wager not an object": _set("coups", 0, "wagers", 0, value=[1, 2]),
    "a wager more": _append_wager,
    "wagers not a list": _set("coups", 0, "wagers", value={"a": 1}),
    "wagers null": _set("coups", 0, "wagers", value=None),
    "the certificate's decks": _set("certificate", "decks", value=6),
    "the certificate's decks too many": _set("certificate", "decks", value=9),
    "the certificate's decks as text": _set("certificate", "decks", value="8"),
    "the certificate's decks a float": _set("certificate", "decks", value=7.5),
    "the certificate's burn": _set("certificate", "burn", value=False),
    "the certificate's last coup": _set("certificate", "last_coup", value="finish"),
    "the certificate's last coup unknown": _set("certificate", "last_coup", value="later"),
    "the certificate's shuffler missing": _drop("certificate", "shuffled_by"),
    "the certificate's shuffler blank": _set("certificate", "shuffled_by", value="  "),
    "the certificate's time missing": _drop("certificate", "shuffled_at"),
    "the certificate's time as a word": _set("certificate", "shuffled_at", value="soon"),
    "the certificate's cut card too deep": _set("certificate", "cut_card", value=500),
    "the certificate's cut card near the front": _set("certificate", "cut_card", value=405),
    "the certificate's serials too many": _set("certificate", "deck_serials", value=["a"] * 9),
    "the certificate's serials": _set("certificate", "deck_serials", value=["a", "b"]),
    "the record's decks": _set("decks", value=6),
    "the rule set unknown": _set("ruleset", "name", value="nonesuch"),
    "the rule set's name a number": _set("ruleset", "name", value=5),
    "another rule set": _set("ruleset", "name", value="ez"),
    "another rule set without a Tie": _set("ruleset", "name", value="no-commission"),
    "a field missing": _drop("reads"),
    "a field of the wrong type": _set("coups", value={}),
}


#: Changes that fail whichever record they are made to (others may change nothing that
#: matters there: a burn card's round, a wager changed into another that pays the same, …).
MUST_FAIL = {
    "a read's card",
    "a read's card not one",
    "a read's use unknown",
    "a read's scan id repeated",
    "a burn card's position",
    "the burn cut short",
    "a read left out",
    "more copies than the decks",
    "a coup's card",
    "a coup's card not canonical",
    "a coup's card too many",
    "a coup's round unknown",
    "a coup left out",
    "a winner",
    "a payout",
    "a stake negative",
    "a bet unknown",
    "a bet not offered",
    "wagers not a list",
    "the certificate's decks",
    "the certificate's burn",
    "the certificate's last coup",
    "the certificate's shuffler blank",
    "the certificate's cut card too deep",
    "the rule set unknown",
}


@pytest.mark.parametrize("which", ["void", "burn"])
def test_every_field_changed_fails_alike(world: dict[str, Any], which: str) -> None:
    names, records = [], []
    for name, change in CHANGES.items():
        record = copy.deepcopy(world["records"][which])
        change(record)
        names.append(name)
        records.append(record)
    assert_alike(records, names, world["pages"])
    verdicts = [python_says(record) for record in records]
    passed = {
        name for name, verdict in zip(names, verdicts, strict=True) if verdict.get("ok") is True
    }
    assert not passed & MUST_FAIL, passed & MUST_FAIL


def test_where_python_raises_the_browser_fails_at_the_read(world: dict[str, Any]) -> None:
    record = world["records"]["void"]
    rounds = list(dict.fromkeys(read["round"] for read in record["reads"] if read["use"] == "coup"))
    # The first card of the third coup said to be the first's, complete two coups before.
    later = next(
        index
        for index, read in enumerate(record["reads"])
        if read["use"] == "coup" and read["round"] == rounds[2]
    )
    back = copy.deepcopy(record)
    back["reads"][later]["round"] = rounds[0]
    serials = copy.deepcopy(record)
    serials["certificate"]["deck_serials"] = "B-001"
    found = javascript_says([back, serials], world["pages"])
    for record, js in zip([back, serials], found, strict=True):
        py = python_says(record)
        assert (py["ok"], py["failures"]) == (js["ok"], js["failures"])
    assert found[0]["failures"][0] == [
        f"reads[{later}]",
        f"reads[{later}]: round {rounds[0]}'s coup was complete: no card is due",
    ]
    assert found[1]["failures"] == [
        [
            "certificate",
            "certificate: not a shuffle certificate: deck_serials is a list, not 'B-001'",
        ]
    ]


# ---- changed at random ----------------------------------------------------------------------

#: Values a change sets: JSON of every kind the record holds, and the words it uses.
VALUES = st.one_of(
    st.integers(-3, 12),
    st.sampled_from([2.5, -0.5]),
    st.none(),
    st.booleans(),
    st.sampled_from(["Ah", "Kd", "Ts", "2c", "10h", "ah", "Xx", "A", "", "9s "]),
    st.sampled_from(["burn", "coup", "burned", "dummy", "player_1", "banker_3", "burn_2"]),
    st.sampled_from(["player", "banker", "tie", "win", "lose", "push", "one-more", "finish"]),
    st.text(alphabet="ab'\"\\ \n", max_size=3),
    st.lists(st.sampled_from(["Ah", "2c", "9d"]), max_size=3),
    st.just({}),
)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a JSON value (the top level's ``format`` left alone: it says which
    verifier reads the record)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if path or key != "format":
                yield (*path, key)
                yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield (*path, index)
            yield from _paths(item, (*path, index))


def _change(data: st.DataObject, record: dict[str, Any]) -> None:
    """One change anywhere: a value set, a key or an element taken out, two reads' cards
    swapped, a read repeated."""
    how = data.draw(st.sampled_from(["set", "set", "set", "drop", "swap", "repeat"]))
    reads = record.get("reads")
    readable = [
        index
        for index, read in enumerate(reads if isinstance(reads, list) else [])
        if isinstance(read, dict) and "card" in read
    ]
    if how == "swap" and readable:
        a, b = data.draw(st.sampled_from(readable)), data.draw(st.sampled_from(readable))
        _swap_reads(a, b)(record)
        return
    if how == "repeat" and readable:
        index = data.draw(st.sampled_from(readable))
        record["reads"].insert(index + 1, copy.deepcopy(record["reads"][index]))
        return
    places = list(_paths(record))
    if not places:
        return
    path = data.draw(st.sampled_from(places))
    target: Any = record
    for step in path[:-1]:
        target = target[step]
    if how == "drop":
        del target[path[-1]]
    else:
        target[path[-1]] = data.draw(VALUES)


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.data())
def test_random_changes_fail_alike(world: dict[str, Any], data: st.DataObject) -> None:
    names, records = [], []
    for number in range(30):
        which = data.draw(st.sampled_from(["void", "burn"]))
        record = copy.deepcopy(world["records"][which])
        for _ in range(data.draw(st.integers(1, 3))):
            _change(data, record)
        names.append(f"{number}: {which}")
        records.append(record)
    assert_alike(records, names, world["pages"])
