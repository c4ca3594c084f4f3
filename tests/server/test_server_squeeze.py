"""The player-driven squeeze at a face-down table, on a virtual clock.

The largest stake on a hand squeezes its cards: only they may peel and turn; a turn shows the
card at once, no turn shows it at the deadline; every other connection's peel or turn is
refused to it alone and changes nothing; the peel goes to every watcher; a bad peel is
refused without closing anyone's feed; no squeeze or peel message (nor the snapshot) carries a
card; a void mid-squeeze stops the round there, and a restart mid-squeeze squeezes the card
again with a fresh deadline.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from clock_driver import ClientClock
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from baccarat.passwords import hash_password
from baccarat.server import Settings, create_app, squeeze_inbox, tables_from
from baccarat.server.clock import VirtualClock
from baccarat.server.events import MESSAGES
from baccarat.store import Database, upgrade
from baccarat.store.staff import create_staff

REVEAL_MS = 1_000
SQUEEZE_MS = 10_000
STAFF_PASSWORD = "Pit-Boss-Pass-9"
#: Every field a squeeze or peel message may have: never a card.
SQUEEZE_FIELDS = {"type", "seq", "table_id", "now", "round_id", "hand", "position"}
SQUEEZE_KEYS = SQUEEZE_FIELDS | {"squeezer", "deadline_ms", "yours"}
PEEL_KEYS = SQUEEZE_FIELDS | {"edge", "progress"}

Message = dict[str, Any]


@dataclass
class Table:
    client: TestClient
    clock: ClientClock
    db_url: str

    def guest(self) -> tuple[str, str]:
        answer = self.client.post("/api/players")
        assert answer.status_code == 201, answer.text
        return answer.json()["id"], answer.json()["token"]

    def bet(self, token: str, round_id: int, bets: dict[str, int]) -> None:
        answer = self.client.post(
            "/api/tables/standard/bets",
            json={"round_id": round_id, "bets": bets},
            headers={"Authorization": f"Bearer {token}", "Idempotency-Key": uuid.uuid4().hex},
        )
        assert answer.status_code == 200, answer.text

    def view(self) -> Message:
        answer = self.client.get("/api/tables/standard")
        assert answer.status_code == 200, answer.text
        data: Message = answer.json()
        return data

    def feed(self, token: str | None = None) -> Any:
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        return self.client.websocket_connect("/ws/tables/standard", headers=headers)


def _app(db_url: str) -> tuple[TestClient, ClientClock]:
    tables = tables_from(
        ["standard"],
        betting_ms=60_000,
        reveal_ms=REVEAL_MS,
        result_ms=10,
        dealing="face-down",
        squeeze_ms=SQUEEZE_MS,
    )
    app = create_app(Settings(db=db_url, tables=tables), clock=VirtualClock())
    client = TestClient(app, client=("127.0.0.1", 50_000))
    return client, ClientClock(client)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    db_url = f"sqlite:///{tmp_path / 'squeeze.db'}"
    client, clock = _app(db_url)
    with client:
        clock.settle()
        yield Table(client, clock, db_url)


#: Reads of the feeds, each in a thread of its own so that one can be given up on.
_RECEIVER = ThreadPoolExecutor(max_workers=4, thread_name_prefix="feed-read")
#: The longest a test waits for its next feed message (real time: a loaded machine is slow).
RECEIVE_S = 60


def read_until(feed: WebSocketTestSession, done: Callable[[Message], bool]) -> list[Message]:
    """The feed's messages up to the first that ``done`` accepts (the last one), each one a
    message of the published models, sent exactly as its model writes it."""
    messages: list[Message] = []
    while not messages or not done(messages[-1]):
        # A message that never comes fails the test instead of hanging the whole run.
        waiting = _RECEIVER.submit(feed.receive_json)
        try:
            message = waiting.result(timeout=RECEIVE_S)
        except FutureTimeout:
            pytest.fail(f"no feed message within {RECEIVE_S} s after {messages[-3:]}")
        assert json.loads(MESSAGES.validate_python(message).text()) == message
        messages.append(message)
    return messages


def is_type(kind: str, **fields: Any) -> Callable[[Message], bool]:
    return lambda m: m["type"] == kind and all(m.get(k) == v for k, v in fields.items())


def no_card_in(messages: list[Message]) -> None:
    for message in messages:
        if message["type"] == "squeeze":
            assert set(message) <= SQUEEZE_KEYS, message
        if message["type"] == "peel":
            assert set(message) == PEEL_KEYS, message


def squeezed(table: Table, hand: str = "player", position: int = 0) -> None:
    """Step the clock until the card at ``hand``/``position`` is being squeezed (a bare step
    may land on another of the dealer's deadlines first, and a read of the feed would then
    wait for a squeeze that never comes)."""
    table.clock.advance_until(
        lambda: (
            (
                (squeeze := table.view()["squeeze"]) is not None
                and (squeeze["hand"], squeeze["position"]) == (hand, position)
            )
            or None
        ),
        f"the squeeze of {hand} {position}",
    )


def first_squeeze(table: Table) -> tuple[int, tuple[str, str], tuple[str, str]]:
    """A round where ann (500) and bob (300) are on the Player and nobody on the Banker, its
    bets closed and its coup drawn; the round's id, ann and bob."""
    ann, bob = table.guest(), table.guest()
    round_id = int(table.clock.open_round()["round"]["id"])
    table.bet(bob[1], round_id, {"player": 300})
    table.bet(ann[1], round_id, {"player": 200})
    table.bet(ann[1], round_id, {"player": 300})  # ann's stake is the sum of her bets
    table.clock.close_bets()
    return round_id, ann, bob


def test_the_largest_stake_squeezes_and_a_turn_shows_the_card_at_once(table: Table) -> None:
    round_id, ann, bob = first_squeeze(table)
    with table.feed(ann[1]) as mine, table.feed(bob[1]) as theirs, table.feed() as spectator:
        squeezed(table)  # the reveal's pause: the first card is squeezed
        squeeze = read_until(mine, is_type("squeeze"))[-1]
        assert (squeeze["round_id"], squeeze["hand"], squeeze["position"]) == (
            round_id,
            "player",
            0,
        )
        assert squeeze["yours"] is True and squeeze["squeezer"].startswith("p-")
        assert squeeze["deadline_ms"] == squeeze["now"] + SQUEEZE_MS
        for other in (theirs, spectator):
            copy = read_until(other, is_type("squeeze"))[-1]
            assert "yours" not in copy and copy["squeezer"] == squeeze["squeezer"]
            assert copy["seq"] == squeeze["seq"]
        assert set(squeeze) == SQUEEZE_KEYS
        shown = table.view()
        assert shown["cards"] == [] and shown["squeeze"]["squeezer"] == squeeze["squeezer"]
        assert "card" not in shown["squeeze"]

        # Anyone else's turn is refused to them alone and changes nothing.
        place = {"round_id": round_id, "hand": "player", "position": 0}
        theirs.send_json({"type": "turn", **place})
        refused = read_until(theirs, is_type("refused"))[-1]
        assert (refused["of"], refused["code"]) == ("turn", "not_your_squeeze")
        spectator.send_json({"type": "turn", **place})
        assert read_until(spectator, is_type("refused"))[-1]["code"] == "not_your_squeeze"
        mine.send_json({"type": "turn", **{**place, "position": 1}})
        assert read_until(mine, is_type("refused"))[-1]["code"] == "not_now"
        table.clock.settle()
        assert table.view()["cards"] == [] and table.view()["squeeze"] is not None

        # The squeezer's turn: the card at once, the clock not moved.
        mine.send_json({"type": "turn", **place})
        card = read_until(mine, is_type("card"))[-1]
        assert (card["hand"], card["position"], card["now"]) == ("player", 0, squeeze["now"])
        assert read_until(spectator, is_type("card"))[-1]["card"] == card["card"]
        table.clock.settle()
        assert table.view()["squeeze"] is None


def test_without_a_turn_the_card_turns_itself_at_the_deadline(table: Table) -> None:
    round_id, ann, _ = first_squeeze(table)
    with table.feed(ann[1]) as mine:
        squeezed(table)
        squeeze = read_until(mine, is_type("squeeze"))[-1]
        table.clock.advance(SQUEEZE_MS - 1)
        assert table.view()["cards"] == []  # one millisecond before its deadline
        table.clock.advance(1)
        card = read_until(mine, is_type("card"))[-1]
        assert card["now"] == squeeze["deadline_ms"] and card["round_id"] == round_id
        # The Banker's cards: nobody bet on them, the dealer squeezes at the reveal's pace.
        table.clock.advance_until(
            lambda: (table.view()["squeeze"] or {}).get("hand") == "banker" or None,
            "the Banker's first squeeze",
        )
        messages = read_until(mine, is_type("squeeze", hand="banker"))
        no_card_in(messages)
        dealer = messages[-1]
        assert dealer["squeezer"] is None and "yours" not in dealer
        assert dealer["deadline_ms"] == dealer["now"] + REVEAL_MS
        mine.send_json({"type": "turn", "round_id": round_id, "hand": "banker", "position": 0})
        assert read_until(mine, is_type("refused"))[-1]["code"] == "not_your_squeeze"
        table.clock.advance_until(
            lambda: table.view()["result"] is not None or None, "the round's result"
        )


def test_the_peel_goes_to_every_watcher_and_bad_ones_are_refused(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    round_id, ann, bob = first_squeeze(table)
    place = {"round_id": round_id, "hand": "player", "position": 0}
    with table.feed(ann[1]) as mine, table.feed(bob[1]) as theirs, table.feed() as spectator:
        squeezed(table)
        for feed in (mine, theirs, spectator):
            read_until(feed, is_type("squeeze"))
        mine.send_json({"type": "peel", **place, "edge": "bottom-right", "progress": 0.4})
        for feed in (mine, theirs, spectator):
            peel = read_until(feed, is_type("peel"))[-1]
            assert (peel["edge"], peel["progress"]) == ("bottom-right", 0.4)
            assert set(peel) == PEEL_KEYS
        assert table.view()["squeeze"]["progress"] == 0.4

        bad: list[Any] = [
            {"type": "peel", **place, "edge": "middle", "progress": 0.5},
            {"type": "peel", **place, "edge": "top", "progress": 1.5},
            {"type": "peel", **place, "edge": "top", "progress": -0.1},
            {"type": "peel", **place, "edge": "top", "progress": "half"},
            {"type": "peel", **{**place, "round_id": str(round_id)}, "edge": "top", "progress": 0},
            {"type": "peel", **{**place, "position": 7}, "edge": "top", "progress": 0},
            {"type": "peel", **place, "edge": "top", "progress": 0, "card": "Ah"},
            {"type": "turn", **place, "extra": 1},
        ]
        for message in bad:
            mine.send_json(message)
            refused = read_until(mine, is_type("refused"))[-1]
            assert refused["code"] == "invalid_request", (message, refused)
        mine.send_text(
            '{"type": "peel", "round_id": 1, "hand": "player", "position": 0, '
            '"edge": "top", "progress": NaN}'
        )
        assert read_until(mine, is_type("refused"))[-1]["code"] == "invalid_request"
        # Someone else's peel is refused; text that is no squeeze message is ignored.
        theirs.send_text("hello")
        theirs.send_json({"type": "peel", **place, "edge": "top", "progress": 0.9})
        assert read_until(theirs, is_type("refused"))[-1]["code"] == "not_your_squeeze"
        table.clock.settle()
        assert table.view()["squeeze"]["progress"] == 0.4  # nothing refused was shown

        # Too many: refused past the connection's rate, the others' feeds untouched.
        monkeypatch.setattr(squeeze_inbox, "PEELS_PER_S", 0.001)
        with table.feed(bob[1]) as flooding:
            for _ in range(squeeze_inbox.PEELS_BURST + 1):
                flooding.send_json({"type": "peel", **place, "edge": "top", "progress": 0.1})
            codes = [
                m["code"]
                for m in read_until(flooding, is_type("refused", code="rate_limited"))
                if m["type"] == "refused"
            ]
            assert codes[-1] == "rate_limited"
        mine.send_json({"type": "peel", **place, "edge": "left", "progress": 1})
        for feed in (mine, theirs, spectator):
            peel = read_until(feed, is_type("peel", edge="left"))[-1]
            assert peel["progress"] == 1.0
        mine.send_json({"type": "turn", **place})
        for feed in (mine, theirs, spectator):
            messages = read_until(feed, is_type("card"))
            no_card_in(messages)


def _add_staff(db_url: str) -> None:
    database = Database(db_url)
    try:
        upgrade(database)
        with database.write() as connection:
            create_staff(connection, "floor", "operator", hash_password(STAFF_PASSWORD), 0)
    finally:
        database.dispose()


def test_a_void_mid_squeeze_stops_the_round_there(table: Table) -> None:
    _add_staff(table.db_url)
    round_id, ann, _ = first_squeeze(table)
    login = table.client.post(
        "/api/admin/login", json={"username": "floor", "password": STAFF_PASSWORD}
    )
    staff = {"Authorization": f"Bearer {login.json()['token']}"}
    with table.feed(ann[1]) as mine:
        squeezed(table)
        read_until(mine, is_type("squeeze"))
        voided = table.client.post(
            f"/api/admin/rounds/{round_id}/void", json={"reason": "misdeal"}, headers=staff
        )
        assert voided.status_code == 200, voided.text
        messages = read_until(mine, is_type("round_void"))
        assert not [m for m in messages if m["type"] == "card"]
        table.clock.settle()
        assert table.view()["squeeze"] is None
        place = {"round_id": round_id, "hand": "player", "position": 0}
        mine.send_json({"type": "turn", **place})
        assert read_until(mine, is_type("refused"))[-1]["code"] == "not_now"
    assert table.client.get(f"/api/rounds/{round_id}").json()["cards"] == []


def test_a_restart_mid_squeeze_squeezes_the_card_again(tmp_path: Path) -> None:
    db_url = f"sqlite:///{tmp_path / 'restart.db'}"
    client, clock = _app(db_url)
    with client:
        clock.settle()
        table = Table(client, clock, db_url)
        round_id, ann, _ = first_squeeze(table)
        with table.feed(ann[1]) as mine:
            clock.step()
            mine.send_json({"type": "turn", "round_id": round_id, "hand": "player", "position": 0})
            read_until(mine, is_type("card"))
            clock.step()  # the second card's squeeze: the server stops in the middle of it
            first = read_until(mine, is_type("squeeze"))[-1]
            assert first["position"] == 1
    client, clock = _app(db_url)
    with client:
        table = Table(client, clock, db_url)
        with table.feed(ann[1]) as mine:
            snapshot = mine.receive_json()
            assert [c["position"] for c in snapshot["table"]["cards"]] == [0]
            clock.step()
            again = read_until(mine, is_type("squeeze"))[-1]
            assert (again["round_id"], again["hand"], again["position"]) == (round_id, "player", 1)
            assert again["yours"] is True and again["deadline_ms"] == again["now"] + SQUEEZE_MS
            mine.send_json({"type": "turn", "round_id": round_id, "hand": "player", "position": 1})
            assert read_until(mine, is_type("card"))[-1]["position"] == 1
        clock.advance_until(
            lambda: table.view()["result"] is not None or None, "the round's result"
        )
