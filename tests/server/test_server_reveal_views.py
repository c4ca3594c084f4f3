"""No view shows a card before its reveal, nor the winner before the result is announced.

One real ``baccarat serve`` per database with a face-up table (``standard``) and a face-down
one (``ez``), on a virtual clock. A player bets on a round at each table; then every view of
that round is polled until the round is settled: the history (JSON and CSV),
``GET /api/rounds/{id}``, the table snapshot, a fresh WebSocket's snapshot and the shoe record.
A spectator WebSocket records when each ``card`` and the ``round_result`` arrive.

The test moves the clock one step at a time (a card, a result), and only once every view has
been looked at since the last step and the spectator has received what the step published:
every view is polled at every step of the reveal, whatever the machine's load, and between
two steps nothing changes. A poll is early if it shows a card (or the winner) that the
spectator had not received when the poll's answer arrived (``GRACE_S`` allows for the
feed's last milliseconds).
"""

from __future__ import annotations

import asyncio
import csv
import functools
import io
import json
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
import websockets
from server_support import new_player
from serving import ServerProcess

#: A reveal's length, in virtual milliseconds (the clock steps over it).
REVEAL_MS = 1200
GRACE_S = 0.1
#: Table id -> dealing.
TABLES = {"standard": "face-up", "ez": "face-down"}
STAKE = 1_000


@pytest.fixture(scope="module")
def server(module_db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(
        module_db_url,
        tmp_path_factory.mktemp("reveal-views"),
        tables="standard,ez:face-down",
        betting_seconds=120,
        reveal_ms=REVEAL_MS,
        result_ms=100,
        virtual_clock=True,
    ).start()
    yield process
    process.stop()


@dataclass(frozen=True)
class Seen:
    """What one poll of one view showed of the watched round."""

    view: str
    at: float
    #: Card codes shown (a multiset: an eight-deck coup can hold the same card twice).
    codes: Counter[str]
    #: ``(deal index, code)`` of each card, for the views that give the index.
    indexed: frozenset[tuple[int, str]] | None
    winner: str | None


@dataclass
class Feed:
    """The spectator's record of the watched round: when each event arrived."""

    round_id: int | None = None
    shoe_id: str | None = None
    number: int | None = None
    closed_at: float | None = None
    cards: list[tuple[float, int, str]] = field(default_factory=list)
    squeezes: int = 0
    result_at: float | None = None
    winner: str | None = None
    settled: asyncio.Event = field(default_factory=asyncio.Event)


def _cards(items: list[dict[str, Any]]) -> tuple[Counter[str], frozenset[tuple[int, str]]]:
    return Counter(c["card"] for c in items), frozenset((c["index"], c["card"]) for c in items)


async def _listen(url: str, feed: Feed, opened: asyncio.Queue[dict[str, Any]]) -> None:
    async with websockets.connect(url, max_size=2**22) as socket:
        async for raw in socket:
            now = time.monotonic()
            message = json.loads(raw)
            kind = message["type"]
            if kind == "snapshot":
                state = message["table"]["round"]
                if state is not None and state["phase"] == "open":
                    opened.put_nowait(
                        {"round_id": state["id"], "now": message["table"]["now"], **state}
                    )
                continue
            if kind == "round_open" and feed.round_id is None:
                opened.put_nowait(message)
            if feed.round_id is None or message.get("round_id") != feed.round_id:
                continue
            if kind == "bets_closed":
                feed.closed_at = now
            elif kind == "squeeze":
                feed.squeezes += 1
            elif kind == "card":
                feed.cards.append((now, message["index"], message["card"]))
            elif kind == "round_result":
                feed.result_at, feed.winner = now, message["winner"]
            elif kind == "settled":
                feed.settled.set()
                return


async def _bet_on_next_round(
    client: httpx.AsyncClient, table: str, feed: Feed, opened: asyncio.Queue[dict[str, Any]]
) -> None:
    """Bet on the first round announced with enough time left; it becomes the watched round."""
    while True:
        message = await asyncio.wait_for(opened.get(), 30)
        if message["closes_at_ms"] - message["now"] < 1200:
            continue
        feed.round_id = message["round_id"]
        feed.shoe_id, feed.number = message["shoe_id"], message["number"]
        response = await client.post(
            f"/api/tables/{table}/bets",
            json={"round_id": feed.round_id, "bets": {"player": STAKE}},
            headers={"Idempotency-Key": f"reveal-{table}-{feed.round_id}"},
        )
        assert response.status_code == 200, response.text
        return


def _views(
    client: httpx.AsyncClient, ws_url: str, table: str, feed: Feed
) -> dict[str, Callable[[], Awaitable[Seen | None]]]:
    round_id = feed.round_id

    async def history() -> Seen | None:
        response = await client.get("/api/me/history", params={"per_page": 5})
        assert response.status_code == 200, response.text
        for item in response.json()["rounds"]:
            if item["round_id"] == round_id:
                result = item["result"]
                winner = None if result is None else result["winner"]
                return Seen("history", 0, Counter(item["cards"] or []), None, winner)
        return None

    async def history_csv() -> Seen | None:
        response = await client.get("/api/me/history.csv")
        assert response.status_code == 200, response.text
        for line in csv.DictReader(io.StringIO(response.text)):
            if int(line["round_id"]) == round_id:
                codes = Counter(line["cards"].split())
                return Seen("history.csv", 0, codes, None, line["winner"] or None)
        return None

    async def round_view() -> Seen | None:
        response = await client.get(f"/api/rounds/{round_id}")
        assert response.status_code == 200, response.text
        data = response.json()
        codes, indexed = _cards(data["cards"])
        return Seen("rounds", 0, codes, indexed, data["winner"])

    def from_snapshot(view: str, data: dict[str, Any]) -> Seen | None:
        if data["round"] is None or data["round"]["id"] != round_id:
            return None
        codes, indexed = _cards(data["cards"])
        winner = None if data["result"] is None else data["result"]["winner"]
        return Seen(view, 0, codes, indexed, winner)

    async def table_snapshot() -> Seen | None:
        response = await client.get(f"/api/tables/{table}")
        assert response.status_code == 200, response.text
        return from_snapshot("table", response.json())

    async def ws_snapshot() -> Seen | None:
        async with websockets.connect(f"{ws_url}/ws/tables/{table}", max_size=2**22) as socket:
            first = json.loads(await socket.recv())
        assert first["type"] == "snapshot"
        return from_snapshot("ws-snapshot", first["table"])

    async def shoe_record() -> Seen | None:
        # The record lists the shoe's coups in order: if it reaches the watched round's
        # number, it shows that round's cards and result.
        response = await client.get(f"/api/shoes/{feed.shoe_id}/record")
        if response.status_code == 409:
            return Seen("shoe-record", 0, Counter(), None, None)
        assert response.status_code == 200, response.text
        coups = response.json()["coups"]
        assert feed.number is not None
        if len(coups) < feed.number:
            return Seen("shoe-record", 0, Counter(), None, None)
        coup = coups[feed.number - 1]
        codes = Counter(coup["cards"])
        return Seen("shoe-record", 0, codes, None, coup["winner"])

    return {
        "history": history,
        "history.csv": history_csv,
        "rounds": round_view,
        "table": table_snapshot,
        "ws-snapshot": ws_snapshot,
        "shoe-record": shoe_record,
    }


@dataclass
class Stepper:
    """Who may look when: polls start only while the clock stands still (``still``), and the
    clock moves only when no poll is in flight."""

    still: asyncio.Event = field(default_factory=asyncio.Event)
    in_flight: int = 0
    #: Steps taken so far; ``looked[(table, view)]`` is the step a view was last polled at.
    steps: int = 0
    looked: dict[tuple[str, str], int] = field(default_factory=dict)


async def _poll(
    table: str,
    name: str,
    view: Callable[[], Awaitable[Seen | None]],
    feed: Feed,
    stepper: Stepper,
    out: list[Seen],
) -> None:
    """Poll once at each step of the clock, until the round is settled, then once more.

    Once a step: polling again before the clock moves shows nothing new, and a dozen views
    hammering the server between steps only slow it (and everything beside it) down."""
    looked = -1
    while True:
        await stepper.still.wait()
        if stepper.steps == looked:
            await asyncio.sleep(0.01)
            continue
        finished = feed.settled.is_set()
        step = stepper.steps
        stepper.in_flight += 1
        try:
            seen = await view()
        finally:
            stepper.in_flight -= 1
        stepper.looked[(table, name)] = looked = step
        if seen is not None:
            out.append(Seen(seen.view, time.monotonic(), seen.codes, seen.indexed, seen.winner))
        if finished:
            return


def _caught_up(feed: Feed, view: dict[str, Any]) -> bool:
    """Whether the spectator has received what the table's snapshot shows of the round."""
    state = view["round"]
    if state is None or state["id"] != feed.round_id:
        return feed.settled.is_set()  # the watched round is over: its feed ends with it
    if state["phase"] != "open" and feed.closed_at is None:
        return False
    return len(feed.cards) >= len(view["cards"]) and (
        view["result"] is None or feed.result_at is not None
    )


def _all_caught_up(feeds: dict[str, Feed], snapshots: dict[str, dict[str, Any]]) -> bool:
    return all(_caught_up(feed, snapshots[table]) for table, feed in feeds.items())


async def _until(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + 60
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.01)


async def _drive(server: ServerProcess, feeds: dict[str, Feed], stepper: Stepper) -> None:
    """Step the clock until every watched round is settled: each step once every view of
    every unfinished table has been polled since the last one, and the spectator has caught
    up with it."""
    views = ("history", "history.csv", "rounds", "table", "ws-snapshot", "shoe-record")
    while not all(feed.settled.is_set() for feed in feeds.values()):
        await _until(
            lambda: all(
                stepper.looked.get((table, view), -1) >= stepper.steps
                for table, feed in feeds.items()
                if not feed.settled.is_set()
                for view in views
            ),
            f"every view polled at step {stepper.steps}",
        )
        stepper.still.clear()
        await _until(lambda: stepper.in_flight == 0, "the polls in flight")
        await asyncio.to_thread(server.step)
        snapshots = {
            table: await asyncio.to_thread(server.get, f"/api/tables/{table}") for table in feeds
        }
        await _until(
            functools.partial(_all_caught_up, feeds, snapshots),
            "the spectators to receive the step's events",
        )
        stepper.steps += 1
        stepper.still.set()


async def _watch_all(server: ServerProcess, token: str) -> dict[str, tuple[Feed, list[Seen]]]:
    feeds = {table: Feed() for table in TABLES}
    seen: dict[str, list[Seen]] = {table: [] for table in TABLES}
    stepper = Stepper()
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=server.url, headers=headers, timeout=10) as client:
        listeners, bets = [], []
        for table, feed in feeds.items():
            opened = asyncio.Queue[dict[str, Any]]()
            url = f"{server.ws_url}/ws/tables/{table}"
            listeners.append(asyncio.create_task(_listen(url, feed, opened)))
            bets.append(_bet_on_next_round(client, table, feed, opened))
        await asyncio.gather(*bets)
        stepper.still.set()
        polls = [
            asyncio.create_task(_poll(table, name, view, feeds[table], stepper, seen[table]))
            for table in TABLES
            for name, view in _views(client, server.ws_url, table, feeds[table]).items()
        ]
        await asyncio.wait_for(
            asyncio.gather(_drive(server, feeds, stepper), *listeners, *polls), 120
        )
    return {table: (feeds[table], seen[table]) for table in TABLES}


def _early(seen: Seen, feed: Feed) -> list[str]:
    """Every card or winner ``seen`` shows that the feed had not announced by then."""
    deadline = seen.at + GRACE_S
    announced = [(index, code) for at, index, code in feed.cards if at <= deadline]
    problems = []
    if seen.indexed is not None:
        for index, code in sorted(seen.indexed - set(announced)):
            problems.append(f"{seen.view}: card {index} {code} before its reveal")
    extra = seen.codes - Counter(code for _, code in announced)
    if extra:
        problems.append(f"{seen.view}: cards {sorted(extra.elements())} before their reveal")
    if seen.winner is not None and (feed.result_at is None or feed.result_at > deadline):
        problems.append(f"{seen.view}: winner {seen.winner} before round_result")
    return problems


def test_no_view_shows_a_card_or_the_winner_before_its_reveal(server: ServerProcess) -> None:
    with server.client() as anonymous:
        _, token = new_player(anonymous)

    watched = asyncio.run(_watch_all(server, token))
    problems: list[str] = []
    for table, (feed, seen) in watched.items():
        assert feed.closed_at is not None and feed.result_at is not None
        assert 4 <= len(feed.cards) <= 6
        assert (feed.squeezes == len(feed.cards)) == (TABLES[table] == "face-down")
        for item in seen:
            problems += [f"{table} round {feed.round_id}: {p}" for p in _early(item, feed)]
        everything = Counter(code for _, _, code in feed.cards)
        dealt = frozenset((index, code) for _, index, code in feed.cards)
        for view in ("history", "history.csv", "rounds", "table", "ws-snapshot", "shoe-record"):
            mine = [s for s in seen if s.view == view]
            # Polled during the reveal, not only before or after it.
            during = [s for s in mine if feed.closed_at < s.at < feed.result_at]
            assert during, f"{table}: {view} was never polled during the reveal"
            # Never a card of another round or a wrong winner.
            for s in mine:
                assert not s.codes - everything, (table, s)
                assert s.indexed is None or s.indexed <= dealt, (table, s)
                assert s.winner in (None, feed.winner), (table, s)
        # The round's own views end showing all of it (the snapshot has moved on by then).
        for view in ("history", "history.csv", "rounds"):
            last = [s for s in seen if s.view == view][-1]
            assert last.codes == everything and last.winner == feed.winner, (table, last)
        # The stored views follow the reveal card by card (not all at once at the end).
        shown = {sum(s.codes.values()) for s in seen if s.view in ("history", "rounds")}
        assert shown & set(range(1, len(feed.cards))), (table, sorted(shown))
    assert not problems, "\n".join(sorted(set(problems))[:40])
