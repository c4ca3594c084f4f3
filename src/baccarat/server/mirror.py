"""A node's view of one table, and the WebSocket clients watching it on this node.

Every node has a ``TableMirror`` per table, whichever node deals it: the mirror takes the
dealer's broadcasts in ``seq`` order (straight from the dealer on one node, through Redis
in a cluster), keeps the latest public snapshot and rule set (what the API answers and the
bets are checked against), and sends each event to its own clients. A message is serialized
once, by the dealer, for every client on every node; only a player with an own part of a
``settled`` or ``round_void`` gets a copy of their own, made on the node they watch from.
Its WebSocket frame is made once too, and written to each client's socket as it is
(``baccarat.server.wsprotocol.FrameWriter``); the events applied together (a burst: the last
card and the result) go out together, in one write a client.

Each client's backlog is bounded: one too far behind (a slow or stalled connection) is
dropped with close code 1013 and reconnects for a snapshot, so one slow consumer never holds
memory or time of the others.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from baccarat.rulesets import RuleSet, parse_ruleset
from baccarat.server.broadcast import Broadcast
from baccarat.server.clock import Clock
from baccarat.server.events import MESSAGES, SnapshotMessage
from baccarat.server.wsprotocol import FrameWriter, text_frame
from baccarat.table import Phase, TableSettings

__all__ = ["MAX_QUEUE", "SNAPSHOT_REUSE_MS", "TOO_FAR_BEHIND", "Client", "Outgoing", "TableMirror"]

#: A client further behind than this many messages is dropped (it reconnects for a snapshot).
#: A round is about a dozen messages: this is minutes of a stalled connection.
MAX_QUEUE = 500
#: The close code of a client dropped for falling behind ("try again later").
TOO_FAR_BEHIND = 1013
#: How long one serialized snapshot serves the newcomers (its ``now`` is that much stale).
SNAPSHOT_REUSE_MS = 50


class Outgoing:
    """Feed messages on their way to many clients, in order: their texts, and their WebSocket
    frames made once, joined, so that a client gets them all in one write.

    >>> burst = Outgoing(('{"seq":1}', '{"seq":2}'))
    >>> burst.frame == text_frame('{"seq":1}') + text_frame('{"seq":2}')
    True
    """

    __slots__ = ("_frame", "texts")

    def __init__(self, texts: tuple[str, ...]) -> None:
        self.texts = texts
        self._frame: bytes | None = None

    @property
    def frame(self) -> bytes:
        if self._frame is None:
            self._frame = b"".join(text_frame(text) for text in self.texts)
        return self._frame


@dataclass(eq=False, slots=True)
class Client:
    """One WebSocket connection: who it is (if a player) and how its messages reach it.

    With a ``writer`` (``baccarat serve``'s protocol) the frames of a burst of messages, made
    once for all clients, are written straight to the socket; a peer that lets
    ``MAX_BUFFERED_BYTES`` pile up is dropped. Without one (another ASGI server) messages wait
    in ``queue`` for the feed's sender task, and a client ``MAX_QUEUE`` messages behind is
    dropped.
    """

    player_id: str | None
    #: The hash of the session the player connected with (closed when the session ends).
    session: str | None = None
    writer: FrameWriter | None = None
    queue: asyncio.Queue[str | None] | None = None
    dropped: bool = False
    #: The WebSocket close code and reason once the client is dropped.
    close_code: int = 1000
    close_reason: str = ""
    #: The task sending the queue to the socket (set by the feed, only without a writer).
    sender: asyncio.Task[None] | None = None
    #: Done once the client is dropped (the feed waits on it, then closes the connection).
    stopped: asyncio.Future[None] | None = None

    def __post_init__(self) -> None:
        if self.writer is None and self.queue is None:
            self.queue = asyncio.Queue()

    def send(self, message: Outgoing | str) -> bool:
        """Send messages; ``False`` (and the client dropped) if it has fallen too far behind."""
        if self.dropped:
            return False
        outgoing = message if isinstance(message, Outgoing) else Outgoing((message,))
        if self.writer is not None:
            if not self.writer.write(outgoing.frame):
                self.drop(TOO_FAR_BEHIND, "too far behind: reconnect for a snapshot")
                return False
            return True
        assert self.queue is not None
        for text in outgoing.texts:
            if self.queue.qsize() >= MAX_QUEUE:
                self.drop(TOO_FAR_BEHIND, "too far behind: reconnect for a snapshot")
                return False
            self.queue.put_nowait(text)
        return True

    def drop(self, code: int, reason: str) -> None:
        """Stop sending now (even if blocked on a slow socket); the feed closes with ``code``."""
        if not self.dropped:
            self.dropped, self.close_code, self.close_reason = True, code, reason
            if self.stopped is not None and not self.stopped.done():
                self.stopped.set_result(None)
            if self.queue is not None:
                self.queue.put_nowait(None)
            if self.sender is not None:
                self.sender.cancel()


class TableMirror:
    """One table as this node shows it: the dealer's latest state and this node's clients.

    ``whole_audience`` is how many watch the table on every node (``None``: only this node's
    clients, the one-process case); ``on_audience`` is told when this node's clients change.
    """

    def __init__(
        self,
        settings: TableSettings,
        ruleset: RuleSet,
        clock: Clock,
        *,
        on_audience: Callable[[], None] | None = None,
        whole_audience: Callable[[], int] | None = None,
    ) -> None:
        self.settings = settings
        self.clock = clock
        self.ruleset = ruleset
        self._ruleset_toml: str | None = None
        self.seq = 0
        self._snapshot: dict[str, Any] | None = None
        self._snapshot_text: tuple[tuple[int, int, int, int], Outgoing] | None = None
        self.clients: set[Client] = set()
        self.on_audience = on_audience
        self.whole_audience = whole_audience
        #: Set once the first broadcast has arrived: before it the table has nothing to show.
        self.ready = asyncio.Event()
        #: Broadcasts applied but not yet sent (``flush`` sends them, soon after).
        self._pending: list[Broadcast] = []
        self._flush_scheduled = False

    @property
    def id(self) -> str:
        return self.settings.table_id

    @property
    def phase(self) -> Phase | None:
        """The phase of the round in play (``None`` between shoes or before any state)."""
        round_state = None if self._snapshot is None else self._snapshot.get("round")
        return None if round_state is None else Phase(round_state["phase"])

    @property
    def round_id(self) -> int | None:
        """The id of the round in play, if any."""
        round_state = None if self._snapshot is None else self._snapshot.get("round")
        return None if round_state is None else int(round_state["id"])

    def audience(self) -> int:
        """How many watch this table on every node."""
        return len(self.clients) if self.whole_audience is None else self.whole_audience()

    def snapshot(self) -> dict[str, Any]:
        """Everything a newcomer needs (only revealed cards), with this node's clock."""
        if self._snapshot is None:
            raise LookupError(f"table {self.id!r} has no state yet")
        return {**self._snapshot, "watching": self.audience(), "now": self.clock.now_ms()}

    def apply(self, broadcast: Broadcast) -> None:
        """Take the dealer's next broadcast: keep its state, send its event to the clients.

        One older than what this node has shown (a dealer's that was fenced off, a duplicate
        after a reconnection) changes nothing."""
        if broadcast.seq < self.seq or (broadcast.seq == self.seq and broadcast.text is not None):
            return
        self.seq = broadcast.seq
        self._snapshot = broadcast.snapshot
        if broadcast.ruleset_toml != self._ruleset_toml:
            self.ruleset = parse_ruleset(broadcast.ruleset_toml)
            self._ruleset_toml = broadcast.ruleset_toml
        self.ready.set()
        if broadcast.text is not None:
            self._pending.append(broadcast)
            self._schedule_flush()

    def _schedule_flush(self) -> None:
        if self._flush_scheduled:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a script): send at once
            self.flush()
            return
        self._flush_scheduled = True
        loop.call_soon(self.flush)

    def flush(self) -> None:
        """Send the events applied since the last flush to every client, in one write each.

        Events come in bursts (the last card and the result, a Redis entry of several): a
        client's write is a system call (about 14 µs here), and a burst in one write costs
        one, so the last event of a burst waits for one pass over the clients, not one an
        event."""
        self._flush_scheduled = False
        pending, self._pending = self._pending, []
        if not pending:
            return
        public = Outgoing(tuple(b.text for b in pending if b.text is not None))
        owners = {player for b in pending if b.event is not None for player in b.own}
        copies: dict[str, Outgoing] = {}
        dropped = []
        for client in self.clients:
            payload = public
            player = client.player_id
            if player is not None and player in owners:
                if player not in copies:
                    copies[player] = _own(pending, player)
                payload = copies[player]
            if not client.send(payload):
                dropped.append(client)
        self.clients.difference_update(dropped)

    def _snapshot_message(self) -> Outgoing:
        """The ``snapshot`` message a newcomer gets now: made once for all who connect within
        the same ``SNAPSHOT_REUSE_MS`` (a crowd connecting at once costs one, not thousands)."""
        now, audience = self.clock.now_ms(), self.audience()
        key = (self.seq, id(self._snapshot), audience, now // SNAPSHOT_REUSE_MS)
        if self._snapshot_text is None or self._snapshot_text[0] != key:
            message = {"seq": self.seq, "table": self.snapshot()}
            text = SnapshotMessage.model_validate(message).text()
            self._snapshot_text = (key, Outgoing((text,)))
        return self._snapshot_text[1]

    def attach(self, client: Client) -> None:
        """Register a client, its snapshot sent first so no event can come before it (and
        no event it already shows after it: what was applied goes to the others first)."""
        self.flush()
        client.send(self._snapshot_message())
        self.clients.add(client)
        if self.on_audience is not None:
            self.on_audience()

    def detach(self, client: Client) -> None:
        self.clients.discard(client)
        if self.on_audience is not None:
            self.on_audience()


def _own(pending: list[Broadcast], player: str) -> Outgoing:
    """``pending`` as ``player`` sees it: their own part joined to each event that has one."""
    texts = []
    for broadcast in pending:
        assert broadcast.text is not None
        part, event = broadcast.own.get(player), broadcast.event
        if part is None or event is None:
            texts.append(broadcast.text)
        else:
            texts.append(MESSAGES.validate_python({**event, **part}).text())
    return Outgoing(tuple(texts))
