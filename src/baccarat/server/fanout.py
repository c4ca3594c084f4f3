"""Getting each table's broadcasts to the mirror of every node, in ``seq`` order.

One process: ``LocalFanout`` hands a broadcast straight to the table's mirror. A cluster:
``RedisFanout`` appends it to the table's Redis Stream (``<prefix>:feed:<table>``, capped
at ``STREAM_LENGTH`` entries) and every node reads every table's stream and hands each
entry to its own mirror, so a node's clients get the events of a table dealt anywhere.

One entry holds a run of one table's broadcasts (the last card and the result go together).
A stream, not pub/sub: a node that was cut off (a Redis restart, a network blip) reads on
from the last entry it had, and a node that starts reads the newest entry for the table's
state. While Redis is away the dealer's broadcasts wait in order in the node's outbox and
go out when it is back; a client that missed events meanwhile sees a gap in ``seq`` and
re-reads the snapshot. Nothing that is money travels here: the ledger is in PostgreSQL.
"""

from __future__ import annotations

import asyncio
import collections
import logging
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from baccarat.live.cancelling import stop_if_cancelled
from baccarat.server.broadcast import Broadcast
from baccarat.server.mirror import TableMirror

if TYPE_CHECKING:
    from redis.asyncio import Redis

__all__ = ["OUTBOX_LIMIT", "STREAM_LENGTH", "LocalFanout", "RedisFanout"]

#: Entries each table's stream keeps (a node further behind re-reads the snapshot anyway).
STREAM_LENGTH = 1_000
#: Broadcasts a node keeps while Redis is away; past it the oldest go (clients resync).
OUTBOX_LIMIT = 10_000
#: How long a reader blocks on Redis before it looks again, and the pause after a failure.
_BLOCK_MS = 1_000
_RETRY_S = 0.2

log = logging.getLogger("baccarat.server")


class LocalFanout:
    """One process: each broadcast goes straight to its table's mirror."""

    def __init__(self, mirrors: Mapping[str, TableMirror]) -> None:
        self.mirrors = mirrors

    def publish(self, broadcast: Broadcast) -> None:
        self.mirrors[broadcast.table_id].apply(broadcast)


class RedisFanout:
    """A cluster: broadcasts through one Redis Stream per table to every node's mirrors."""

    def __init__(
        self,
        redis: Redis,
        prefix: str,
        mirrors: Mapping[str, TableMirror],
        *,
        on_outbox: Callable[[int], None] | None = None,
    ) -> None:
        self.redis = redis
        #: Told how many broadcasts wait, after each change (a gauge).
        self.on_outbox = on_outbox
        self.prefix = prefix
        self.mirrors = mirrors
        self._outbox: collections.deque[Broadcast] = collections.deque()
        self._wake = asyncio.Event()
        self._last_ids: dict[str, str] = {}
        self._down_since: dict[str, bool] = {"writer": False, "reader": False}

    def key(self, table_id: str) -> str:
        return f"{self.prefix}:feed:{table_id}"

    # -- the dealer's side -------------------------------------------------------------

    def publish(self, broadcast: Broadcast) -> None:
        """Queue ``broadcast`` for its stream (in order, retried while Redis is away)."""
        if len(self._outbox) >= OUTBOX_LIMIT:
            self._outbox.popleft()
        self._outbox.append(broadcast)
        self._wake.set()
        if self.on_outbox is not None:
            self.on_outbox(len(self._outbox))

    async def run_writer(self) -> None:
        """Append the queued broadcasts to their streams, in order, for ever."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._outbox:
                batch = list(self._outbox)[:100]
                try:
                    async with self.redis.pipeline(transaction=False) as pipe:
                        for burst in _bursts(batch):
                            pipe.xadd(
                                self.key(burst[0].table_id),
                                {"b": Broadcast.list_to_json(burst)},
                                maxlen=STREAM_LENGTH,
                                approximate=True,
                            )
                        await pipe.execute()
                except asyncio.CancelledError:
                    raise
                except Exception as error:  # Redis away: keep them, in order, and retry
                    stop_if_cancelled()
                    self._outage("writer", error)
                    await asyncio.sleep(_RETRY_S)
                    continue
                self._back("writer")
                for _ in batch:
                    self._outbox.popleft()
                if self.on_outbox is not None:
                    self.on_outbox(len(self._outbox))

    # -- every node's side -------------------------------------------------------------

    async def latest(self, table_id: str) -> Broadcast | None:
        """The newest broadcast of the table's stream, if it has one."""
        entries = await self.redis.xrevrange(self.key(table_id), count=1)
        return Broadcast.list_from_json(entries[0][1][b"b"])[-1] if entries else None

    async def catch_up(self) -> None:
        """Give every mirror the newest state its stream has (a node that starts)."""
        for table_id, mirror in self.mirrors.items():
            entries = await self.redis.xrevrange(self.key(table_id), count=1)
            if entries:
                entry_id, fields = entries[0]
                self._last_ids[self.key(table_id)] = _text(entry_id)
                mirror.apply(Broadcast.list_from_json(fields[b"b"])[-1])

    async def run_reader(self) -> None:
        """Hand every new entry of every table's stream to its mirror, for ever."""
        streams = {self.key(table_id): table_id for table_id in self.mirrors}
        for key in streams:
            self._last_ids.setdefault(key, "0-0")
        while True:
            try:
                wanted: dict[Any, Any] = dict(self._last_ids)
                answer: Any = await self.redis.xread(wanted, block=_BLOCK_MS, count=500)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # Redis away: read on from the same ids once back
                stop_if_cancelled()
                self._outage("reader", error)
                await asyncio.sleep(_RETRY_S)
                continue
            self._back("reader")
            for key, entries in answer or ():
                name = _text(key)
                mirror = self.mirrors[streams[name]]
                for entry_id, fields in entries:
                    self._last_ids[name] = _text(entry_id)
                    try:
                        for broadcast in Broadcast.list_from_json(fields[b"b"]):
                            mirror.apply(broadcast)
                    except Exception:  # one bad entry must not stop the table's feed
                        log.exception("cannot apply an entry of %s", name)

    def _outage(self, side: str, error: BaseException) -> None:
        if not self._down_since[side]:
            self._down_since[side] = True
            log.warning("redis unavailable to the feed %s (%s); retrying", side, error)

    def _back(self, side: str) -> None:
        if self._down_since[side]:
            self._down_since[side] = False
            log.warning("redis is back for the feed %s", side)


def _bursts(batch: list[Broadcast]) -> list[list[Broadcast]]:
    """``batch`` cut where the table changes: each run of one table's broadcasts is one stream
    entry, so a node reads it in one piece and its mirror sends it in one write a client
    (Redis answers a blocked read at the first entry of a pipeline).

    >>> runs = [("ez", 1), ("ez", 2), ("sb", 1)]
    >>> b = [Broadcast(t, n, None, None, {}, {}, "") for t, n in runs]
    >>> [[x.seq for x in burst] for burst in _bursts(b)]
    [[1, 2], [1]]
    """
    bursts: list[list[Broadcast]] = []
    for broadcast in batch:
        if bursts and bursts[-1][0].table_id == broadcast.table_id:
            bursts[-1].append(broadcast)
        else:
            bursts.append([broadcast])
    return bursts


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
