"""Which nodes are up, and how many watch each table on all of them, in Redis.

Each node writes, every ``every_s``: its heartbeat in the sorted set ``<prefix>:nodes``
(score: the time, ms) and, per table, its own audience in ``<prefix>:watching:<table>:
<node>`` (expiring, so a dead node's count goes away by itself). It then reads the others'
and keeps the totals, which the mirrors show and the dealer of a table announces. A node
counts as up while its heartbeat is younger than ``NODE_TTL_MS``: that is how a node knows
its share of the tables. The heartbeats are the server's ``Clock`` (every node's system clock
in production: nodes compare each other's).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from baccarat.live.cancelling import stop_if_cancelled
from baccarat.server.clock import Clock, SystemClock
from baccarat.server.mirror import TableMirror

if TYPE_CHECKING:
    from redis.asyncio import Redis

__all__ = ["NODE_TTL_MS", "Presence"]

#: A node whose heartbeat is older than this is taken for gone.
NODE_TTL_MS = 5_000

log = logging.getLogger("baccarat.server")


class Presence:
    """This node's heartbeat and audiences, and every node's, through Redis."""

    def __init__(
        self,
        redis: Redis,
        prefix: str,
        node_id: str,
        mirrors: Mapping[str, TableMirror],
        *,
        every_s: float = 1.0,
        clock: Clock | None = None,
    ) -> None:
        self.redis = redis
        self.clock = clock or SystemClock()
        self.prefix = prefix
        self.node_id = node_id
        self.mirrors = mirrors
        self.every_s = every_s
        #: The nodes up at the last look (this one always among them).
        self.nodes: list[str] = [node_id]
        self._totals: dict[str, int] = {}
        #: Told of each table whose total changed (the dealer's live table announces it).
        self.on_total: Callable[[str], None] | None = None
        self._failing = False

    def total(self, table_id: str) -> int:
        """How many watch the table on every node (this node's count is always current)."""
        mine = len(self.mirrors[table_id].clients)
        return max(mine, self._totals.get(table_id, mine))

    def _watching_key(self, table_id: str, node: str) -> str:
        return f"{self.prefix}:watching:{table_id}:{node}"

    async def beat(self) -> None:
        """Write this node's heartbeat and counts, then read every node's."""
        now = self.clock.now_ms()
        nodes_key = f"{self.prefix}:nodes"
        ttl = NODE_TTL_MS * 2
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zadd(nodes_key, {self.node_id: now})
            pipe.zremrangebyscore(nodes_key, "-inf", now - 60 * NODE_TTL_MS)
            for table_id, mirror in self.mirrors.items():
                pipe.set(self._watching_key(table_id, self.node_id), len(mirror.clients), px=ttl)
            pipe.zrangebyscore(nodes_key, now - NODE_TTL_MS, "+inf")
            answers = await pipe.execute()
        nodes = sorted({_text(n) for n in answers[-1]} | {self.node_id})
        self.nodes = nodes
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_id in self.mirrors:
                pipe.mget([self._watching_key(table_id, node) for node in nodes])
            counts = await pipe.execute()
        for table_id, values in zip(self.mirrors, counts, strict=True):
            total = sum(int(v) for v in values if v is not None)
            if self._totals.get(table_id) != total:
                self._totals[table_id] = total
                if self.on_total is not None:
                    self.on_total(table_id)

    async def run(self) -> None:
        """Beat every ``every_s`` for ever (a Redis outage is logged once and waited out)."""
        while True:
            try:
                await self.beat()
                if self._failing:
                    self._failing = False
                    log.warning("redis is back for presence")
            except asyncio.CancelledError:
                raise
            except Exception as error:
                stop_if_cancelled()
                if not self._failing:
                    self._failing = True
                    log.warning("redis unavailable to presence (%s); retrying", error)
            await self.clock.sleep(self.every_s)

    async def leave(self) -> None:
        """Take this node out at once (a clean stop)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zrem(f"{self.prefix}:nodes", self.node_id)
            for table_id in self.mirrors:
                pipe.delete(self._watching_key(table_id, self.node_id))
            await pipe.execute()


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
