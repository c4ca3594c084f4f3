"""No view shows a card before its reveal, nor the winner before the result is announced.

One real ``baccarat serve`` per database with a face-up table (``standard``) and a face-down
one (``ez``), both revealing slowly. A player bets on a round at each table; then every view
of that round is polled as fast as it answers until the round is settled: the history (JSON
and CSV), ``GET /api/rounds/{id}``, the table snapshot, a fresh WebSocket's snapshot and the
shoe record. A spectator WebSocket records when each ``card`` and the ``round_result`` arrive.

A poll is early if it shows a card (or the winner) that the spectator had not received within
``GRACE_S`` after the poll's answer arrived: the server publishes an event before it records
the reveal, so a correct view trails the feed by a few milliseconds, while a leak shows cards
``REVEAL_MS`` to several seconds ahead of it.
"""

from __future__ import annotations

import asyncio
import csv
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

#: Long enough that every view is polled a few times while the cards turn, on a loaded machine
#: (three test workers on two cores, a cold clone compiling its modules).
REVEAL_MS = 1200  # every view polled at least once within a reveal on a loaded machine
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
        betting_seconds=2.0,  # a bet and its feed fit on a loaded machine (1 s was missed)
        reveal_ms=REVEAL_MS,
        result_ms=100,
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


async def _poll(view: Callable[[], Awaitable[Seen | None]], feed: Feed, out: list[Seen]) -> None:
    """Poll until the round is settled, then once more (the final state)."""
    while True:
        finished = feed.settled.is_set()
        seen = await view()
        if seen is not None:
            out.append(Seen(seen.view, time.monotonic(), seen.codes, seen.indexed, seen.winner))
        if finished:
            return


async def _watch(server: ServerProcess, token: str, table: str) -> tuple[Feed, list[Seen]]:
    feed, opened = Feed(), asyncio.Queue[dict[str, Any]]()
    listener = asyncio.create_task(_listen(f"{server.ws_url}/ws/tables/{table}", feed, opened))
    headers = {"Authorization": f"Bearer {token}"}
    seen: list[Seen] = []
    async with httpx.AsyncClient(base_url=server.url, headers=headers, timeout=10) as client:
        await _bet_on_next_round(client, table, feed, opened)
        views = _views(client, server.ws_url, table, feed)
        polls = [asyncio.create_task(_poll(view, feed, seen)) for view in views.values()]
        await asyncio.wait_for(asyncio.gather(listener, *polls), 30)
    return feed, seen


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

    async def both() -> list[tuple[Feed, list[Seen]]]:
        return list(await asyncio.gather(*(_watch(server, token, t) for t in TABLES)))

    watched = asyncio.run(both())
    problems: list[str] = []
    for table, (feed, seen) in zip(TABLES, watched, strict=True):
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
