"""Frames written straight to the sockets: made once for every client, one write a burst, and a
peer that stops reading dropped once its backlog passes ``MAX_BUFFERED_BYTES``.

The connections here are stand-ins for uvicorn's (``FeedProtocol``) with a transport that only
counts; the served feed itself (``baccarat serve`` and a real WebSocket client) is read by
every feed test of ``tests/server`` and ``tests/web``.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Generator
from typing import Any, cast

from websockets.frames import Frame, Opcode

from baccarat.live.table import LiveTable
from baccarat.rulesets import load_ruleset
from baccarat.server.broadcast import Broadcast
from baccarat.server.clock import SystemClock
from baccarat.server.live import TableFeed
from baccarat.server.mirror import TOO_FAR_BEHIND, Client, TableMirror
from baccarat.server.wsprotocol import MAX_BUFFERED_BYTES, FeedProtocol, FrameWriter
from baccarat.store.rounds import RoundChange, RoundRow
from baccarat.table import Round, TableSettings

RULES = load_ruleset("standard")
TOML = RULES.to_toml()
NOW = 1_718_000_000_000


class Transport:
    """What the writer asks of a transport: writes kept, the backlog set by the test."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.backlog = 0
        self.closing = False

    def write(self, data: bytes) -> None:
        self.writes.append(data)

    def is_closing(self) -> bool:
        return self.closing

    def get_write_buffer_size(self) -> int:
        return self.backlog


class Connection:
    """The attributes of ``FeedProtocol`` the writer reads."""

    def __init__(self) -> None:
        self.transport = Transport()
        self.close_sent = False
        self.disconnected = False


def connected(player: str | None = None) -> tuple[Client, Transport]:
    connection = Connection()
    writer = FrameWriter(cast(FeedProtocol, connection))
    return Client(player, writer=writer), connection.transport


def table() -> TableMirror:
    return TableMirror(TableSettings("standard", "standard"), RULES, SystemClock())


def _snapshot() -> dict[str, Any]:
    """A real snapshot: a live table's with round 1 open."""
    sent: list[Broadcast] = []
    settings = TableSettings("standard", "standard")
    live = LiveTable(settings, RULES)
    TableFeed(live, SystemClock(), outlet=sent.append, audience=int)
    state, events = Round.open(1, opened_at=NOW, closes_at=NOW + 15_000)
    live.follow(RoundChange(RoundRow(1, "standard", "shoe-1", 1, state), events))
    return sent[-1].snapshot


SNAPSHOT = _snapshot()
#: The table's state before the clients come: no event, only what a snapshot shows.
STATE = Broadcast("standard", 1, None, None, {}, SNAPSHOT, TOML)


def card(seq: int, own: dict[str, dict[str, Any]] | None = None) -> Broadcast:
    """Event ``seq``: a void of round 1 (with a player's own part, if ``own`` has one)."""
    event = {"type": "round_void", "seq": seq, "table_id": "standard", "now": NOW}
    event |= {"round_id": 1, "shoe_number": 1, "number": 1, "reason": "test"}
    fields = dict(event) if own else None
    return Broadcast("standard", seq, json.dumps(event), fields, own or {}, SNAPSHOT, TOML)


def messages(data: bytes) -> list[dict[str, Any]]:
    """The text frames in ``data``, parsed by the ``websockets`` library as a client would."""
    position = 0

    def read_exact(n: int) -> Generator[None, None, bytes]:
        nonlocal position
        chunk, position = data[position : position + n], position + n
        assert len(chunk) == n, "a frame cut short"
        return chunk
        yield  # a generator, as the parser wants

    found = []
    while position < len(data):
        parser = Frame.parse(read_exact, mask=False)
        try:
            while True:
                next(parser)
        except StopIteration as done:
            frame: Frame = done.value
        assert frame.opcode is Opcode.TEXT and frame.fin
        found.append(json.loads(bytes(frame.data)))
    return found


def test_a_burst_is_one_write_of_frames_made_once() -> None:
    async def run() -> None:
        mirror = table()
        mirror.apply(STATE)
        (alice, alice_wire), (bob, bob_wire), (eve, eve_wire) = (
            connected("alice"),
            connected(),
            connected(),
        )
        for client in (alice, bob, eve):
            mirror.attach(client)
        mirror.apply(card(2))
        mirror.apply(card(3, own={"alice": {"returned": 500}}))
        await asyncio.sleep(0)
        # The snapshot, then the burst in one write; spectators share the very bytes.
        assert [len(wire.writes) for wire in (alice_wire, bob_wire, eve_wire)] == [2, 2, 2]
        assert bob_wire.writes[1] is eve_wire.writes[1]
        assert [m["type"] for m in messages(b"".join(bob_wire.writes))] == [
            "snapshot",
            "round_void",
            "round_void",
        ]
        mine = messages(alice_wire.writes[1])
        assert [m["seq"] for m in mine] == [2, 3] and mine[1]["returned"] == 500
        assert "returned" not in messages(bob_wire.writes[1])[1]

    asyncio.run(run())


def test_a_peer_that_stops_reading_is_dropped_and_the_others_go_on() -> None:
    async def run() -> None:
        mirror = table()
        mirror.apply(STATE)
        (slow, slow_wire), (fine, fine_wire) = connected(), connected()
        slow.stopped = asyncio.get_running_loop().create_future()
        mirror.attach(slow)
        mirror.attach(fine)
        mirror.apply(card(2))
        await asyncio.sleep(0)
        assert len(slow_wire.writes) == 2 and not slow.dropped
        slow_wire.backlog = MAX_BUFFERED_BYTES  # at the bound: still written
        mirror.apply(card(3))
        await asyncio.sleep(0)
        assert len(slow_wire.writes) == 3 and not slow.dropped
        slow_wire.backlog = MAX_BUFFERED_BYTES + 1
        mirror.apply(card(4))
        await asyncio.sleep(0)
        assert slow.dropped and slow.close_code == TOO_FAR_BEHIND
        assert slow.stopped.done()  # the feed wakes and closes the connection
        assert len(slow_wire.writes) == 3 and slow not in mirror.clients
        assert [m["seq"] for m in messages(b"".join(fine_wire.writes))[1:]] == [2, 3, 4]
        # A connection already closing takes nothing more, and its client goes.
        fine_wire.closing = True
        mirror.apply(card(5))
        await asyncio.sleep(0)
        assert fine.dropped and not mirror.clients and len(fine_wire.writes) == 4

    asyncio.run(run())
