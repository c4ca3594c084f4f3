"""Commands reach the runtime dealing their table: in memory in one process, through Redis
between nodes (real Redis, a key prefix of its own), with the reply coming back; a command
nobody carries out is answered ``table_starting`` and withdrawn, never carried out late."""

from __future__ import annotations

import asyncio
import os
import uuid

import pytest

from baccarat.cards import Card
from baccarat.live import channel as channel_module
from baccarat.live import redis_channel as redis_channel_module
from baccarat.live.channel import Runtimes
from baccarat.live.commands import (
    Command,
    Done,
    Draw,
    Pause,
    Refused,
    Reply,
    Voided,
    VoidRound,
)
from baccarat.live.redis_channel import RedisChannel


class Recorder:
    """A runtime that answers each command as ``answer`` says, once ``open`` is set."""

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self.done: list[Command] = []
        self.open = asyncio.Event()
        self.open.set()

    def send(self, command: Command) -> asyncio.Future[Reply]:
        reply: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        asyncio.get_running_loop().create_task(self._carry_out(command, reply))
        return reply

    async def _carry_out(self, command: Command, reply: asyncio.Future[Reply]) -> None:
        await self.open.wait()
        if reply.cancelled():  # withdrawn, as the dealer does
            return
        self.done.append(command)
        if isinstance(command, VoidRound):
            reply.set_result(Voided(command.round_id, {"p1": 500}))
        else:
            reply.set_result(Done())


def test_in_memory_a_command_reaches_its_table_and_a_late_one_is_withdrawn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def run() -> None:
        runtimes, table = Runtimes(), Recorder("ez")
        runtimes.attach(table)
        void = VoidRound(7, "misdeal", actor="staff:ann", audit={"role": "operator"})
        assert await runtimes.ask("ez", void) == Voided(7, {"p1": 500})
        assert table.done == [void]
        answer = await runtimes.ask("standard", Pause())
        assert isinstance(answer, Refused) and answer.code == "table_starting"
        monkeypatch.setattr(channel_module, "ASK_TIMEOUT_S", 0.05)
        table.open.clear()  # the dealer is busy past the timeout
        late = await runtimes.ask("ez", VoidRound(8, "late"))
        assert isinstance(late, Refused) and late.code == "table_starting"
        table.open.set()
        await asyncio.sleep(0.01)
        assert table.done == [void]  # the void the caller gave up on was not carried out
        runtimes.detach(table)
        assert not runtimes.deals("ez")

    asyncio.run(run())


def require_redis() -> None:
    import redis

    try:
        redis.Redis(host="127.0.0.1", port=6379, socket_timeout=2).ping()
    except redis.RedisError:
        if os.environ.get("BACCARAT_REQUIRE_SERVICES") == "1":
            pytest.fail("Redis at 127.0.0.1:6379 is required but unreachable")
        pytest.skip("Redis at 127.0.0.1:6379 is unreachable")


def test_through_redis_the_node_dealing_the_table_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    require_redis()
    from redis.asyncio import Redis

    async def run() -> None:
        prefix = f"test-commands-{uuid.uuid4().hex[:8]}"
        dealing, asking = Runtimes(), Runtimes()
        table = Recorder("ez")
        dealing.attach(table)
        clients = [Redis.from_url("redis://127.0.0.1:6379/0") for _ in range(2)]
        n1 = RedisChannel(clients[0], prefix, "n1", dealing)
        n2 = RedisChannel(clients[1], prefix, "n2", asking)
        tasks = [asyncio.create_task(n1.run()), asyncio.create_task(n2.run())]
        try:
            await asyncio.wait_for(
                asyncio.gather(n1.listening.wait(), n2.listening.wait()), timeout=10
            )
            void = VoidRound(41, "misdeal", actor="staff:ann", audit={"role": "operator"})
            assert await n2.ask("ez", void) == Voided(41, {"p1": 500})
            await n2.tell("ez", Draw(Card.parse("Qh")))
            for _ in range(200):
                if len(table.done) == 2:
                    break
                await asyncio.sleep(0.01)
            assert table.done == [void, Draw(Card.parse("Qh"))]
            # The node dealing the table carries its own commands out without Redis.
            assert await n1.ask("ez", Pause()) == Done()
            # Nobody deals "standard": the asker answers for it.
            monkeypatch.setattr(redis_channel_module, "ASK_TIMEOUT_S", 0.2)
            nobody = await n2.ask("standard", Pause())
            assert isinstance(nobody, Refused) and nobody.code == "table_starting"
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            for client in clients:
                await client.aclose()

    asyncio.run(run())
