"""The mirrors and the Redis fan-out, in-process against real Redis servers.

A broadcast published on one "node" reaches the mirrors of every node in ``seq`` order; a
player's own part reaches only that player; an older broadcast (a fenced dealer's) changes
nothing; broadcasts made while Redis is down go out, in order, when it is back; the audience
is counted over the nodes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import signal
import subprocess
import uuid
from collections.abc import AsyncIterator, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from serving import services_required, wait_until

from baccarat.live.cancelling import stop_tasks
from baccarat.live.table import LiveTable
from baccarat.rulesets import load_ruleset
from baccarat.server.broadcast import Broadcast
from baccarat.server.fanout import RedisFanout
from baccarat.server.live import TableFeed
from baccarat.server.mirror import Client, TableMirror
from baccarat.server.presence import Presence
from baccarat.store.rounds import RoundChange, RoundRow
from baccarat.table import Round, TableSettings

NOW = 1_718_000_000_000
RULES = load_ruleset("ez").to_toml()
#: The outbox sizes the fan-outs reported (the metrics gauge's values).
OUTBOX: list[int] = []


class Clock:
    def now_ms(self) -> int:
        return NOW

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


def require_redis(port: int = 6379) -> None:
    import redis

    try:
        redis.Redis(host="127.0.0.1", port=port, socket_timeout=2).ping()
    except redis.RedisError:
        if services_required():
            pytest.fail(f"Redis at 127.0.0.1:{port} is required but unreachable")
        pytest.skip(f"Redis at 127.0.0.1:{port} is unreachable")


def mirror() -> TableMirror:
    return TableMirror(TableSettings("ez", "ez"), load_ruleset("ez"), Clock())


def _table_snapshot() -> dict[str, Any]:
    """A real snapshot: a live table's with round 1 open."""
    sent: list[Broadcast] = []
    live = LiveTable(TableSettings("ez", "ez"), load_ruleset("ez"))
    TableFeed(live, Clock(), outlet=sent.append, audience=int)
    state, events = Round.open(1, opened_at=NOW, closes_at=NOW + 15_000)
    live.follow(RoundChange(RoundRow(1, "ez", "shoe-1", 1, state), events))
    return sent[-1].snapshot


SNAPSHOT = _table_snapshot()


def state(round_id: int, phase: str) -> dict[str, Any]:
    return {**SNAPSHOT, "round": {**SNAPSHOT["round"], "id": round_id, "phase": phase}}


def card(seq: int, own: dict[str, dict[str, Any]] | None = None) -> Broadcast:
    snapshot = state(1, "dealt")
    if own:
        event = {
            "type": "round_void",
            "seq": seq,
            "table_id": "ez",
            "now": NOW,
            "round_id": 1,
            "shoe_number": 1,
            "number": 1,
            "reason": "test",
        }
        return Broadcast("ez", seq, json.dumps(event), event, own, snapshot, RULES)
    text = json.dumps({"type": "watching", "seq": seq, "table_id": "ez", "now": NOW, "count": 1})
    return Broadcast("ez", seq, text, None, {}, snapshot, RULES)


def received(client: Client) -> list[dict[str, Any]]:
    out = []
    assert client.queue is not None  # a client without a frame writer
    while not client.queue.empty():
        text = client.queue.get_nowait()
        if text is not None:
            out.append(json.loads(text))
    return out


def test_a_mirror_shows_the_newest_state_and_ignores_what_is_older() -> None:
    async def run() -> None:
        table = mirror()
        assert not table.ready.is_set()
        with pytest.raises(LookupError, match="no state yet"):
            table.snapshot()
        table.apply(card(5))
        alice, bob = Client("alice"), Client("bob")
        table.attach(alice)
        table.attach(bob)
        table.apply(card(4))  # a fenced dealer's: older
        table.apply(card(5))  # a duplicate
        table.apply(card(6, own={"alice": {"returned": 500}}))
        sync = Broadcast("ez", 6, None, None, {}, state(2, "open"), RULES)
        table.apply(sync)  # a state change without an event: shown, not sent
        await asyncio.sleep(0)  # the mirror sends what was applied once the loop runs on
        mine, theirs = received(alice), received(bob)
        assert [m["type"] for m in mine] == ["snapshot", "round_void"]
        assert mine[0]["seq"] == 5 and mine[1]["seq"] == 6 and mine[1]["returned"] == 500
        assert "returned" not in theirs[1] and theirs[1]["seq"] == 6
        assert table.phase is not None and table.phase.value == "open" and table.round_id == 2
        assert table.snapshot()["watching"] == 2 and table.snapshot()["now"] == NOW

    asyncio.run(run())


@pytest.fixture
def prefix() -> Iterator[str]:
    require_redis()
    name = f"bt-{uuid.uuid4().hex[:12]}"
    yield name
    import redis

    store = redis.Redis(host="127.0.0.1", port=6379)
    for key in store.scan_iter(f"{name}:*"):
        store.delete(key)


async def _nodes(url: str, prefix: str, count: int) -> AsyncIterator[list[tuple[Any, ...]]]:
    from redis.asyncio import Redis

    nodes = []
    for _ in range(count):
        redis = Redis.from_url(url, socket_timeout=2, socket_connect_timeout=1)
        table = mirror()
        fanout = RedisFanout(redis, prefix, {"ez": table}, on_outbox=OUTBOX.append)
        tasks = [asyncio.create_task(fanout.run_reader()), asyncio.create_task(fanout.run_writer())]
        nodes.append((redis, table, fanout, tasks))
    try:
        yield nodes
    finally:
        for redis, _, _, tasks in nodes:
            # As the service stops them: cancelled, and a read that outlives its cancellation
            # (redis-py can swallow it under load) ended by closing the client's connections.
            stuck = await stop_tasks(tasks, unblock=redis.aclose)
            assert not stuck, f"a fan-out loop did not stop: {stuck}"
            await asyncio.wait_for(redis.aclose(), 10)


def test_every_node_gets_every_broadcast_in_order(prefix: str) -> None:
    async def run() -> None:
        async for nodes in _nodes("redis://127.0.0.1:6379/0", prefix, 3):
            watchers = []
            for _, table, _, _ in nodes:
                table.apply(card(1))
                watcher = Client("alice")
                table.attach(watcher)
                watchers.append(watcher)
            dealer = nodes[0][2]
            for seq in range(2, 40):
                dealer.publish(
                    card(seq, own={"alice": {"returned": seq}} if seq % 7 == 0 else None)
                )
            for _, table, _, _ in nodes:
                await _until(partial(_seq_is, table, 39))
            await asyncio.sleep(0)  # the mirrors send what they applied
            for watcher in watchers:
                messages = received(watcher)[1:]
                assert [m["seq"] for m in messages] == list(range(2, 40))
                assert [m["returned"] for m in messages if "returned" in m] == [7, 14, 21, 28, 35]
            # A node that starts later reads the newest state at once.
            late = nodes[0][0]
            fresh = mirror()
            await RedisFanout(late, prefix, {"ez": fresh}).catch_up()
            assert fresh.seq == 39 and fresh.ready.is_set()

    asyncio.run(run())


def _seq_is(table: TableMirror, seq: int) -> bool:
    return table.seq == seq


async def _until(check: Any, timeout: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not check():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("timed out")
        await asyncio.sleep(0.01)


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[tuple[Path, list[subprocess.Popen[bytes]]]]:
    """A Redis server of this test's own (restarted by the test), on a Unix socket: a TCP port
    freed while it is down can be taken by another test's server or connect to itself."""
    binary = shutil.which("redis-server")
    if binary is None:
        if services_required():
            pytest.fail("redis-server is required but not installed")
        pytest.skip("redis-server is not installed")
    processes: list[subprocess.Popen[bytes]] = []
    yield tmp_path / "redis.sock", processes
    for process in processes:
        process.kill()
        process.wait(5)


def _start_redis(socket: Path, processes: list[subprocess.Popen[bytes]]) -> None:
    process = subprocess.Popen(
        [
            "redis-server",
            "--port",
            "0",
            "--unixsocket",
            str(socket),
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    processes.append(process)

    def up() -> bool:
        import redis

        try:
            return bool(redis.Redis(unix_socket_path=str(socket), socket_timeout=0.5).ping())
        except redis.RedisError:
            return False

    wait_until(up, 10, f"redis-server on {socket}")


def test_broadcasts_made_while_redis_is_down_go_out_in_order_when_it_is_back(
    own_redis: tuple[Path, list[subprocess.Popen[bytes]]],
) -> None:
    socket, processes = own_redis
    _start_redis(socket, processes)

    async def run() -> None:
        async for nodes in _nodes(f"unix://{socket}", "t", 2):
            (_, _, dealer, _), (_, other, _, _) = nodes
            other.apply(card(1))
            watcher = Client(None)
            other.attach(watcher)
            for seq in range(2, 6):
                dealer.publish(card(seq))
            await _until(partial(_seq_is, other, 5))
            processes[0].kill()  # Redis restarts: it keeps nothing
            processes[0].wait(5)
            for seq in range(6, 12):
                dealer.publish(card(seq))
            await asyncio.sleep(0.5)
            assert other.seq == 5  # nothing can arrive while Redis is away
            assert OUTBOX[-1] == 6  # the six made while Redis was away wait, counted
            await asyncio.to_thread(_start_redis, socket, processes)
            # A reconnect backs off: on a starved machine the reader may take a while.
            await _until(partial(_seq_is, other, 11), timeout=30)
            await asyncio.sleep(0)  # the mirror sends what it applied
            assert OUTBOX[-1] == 0
            assert [m["seq"] for m in received(watcher)[1:]] == list(range(2, 12))

    with _deadline(120):
        asyncio.run(run())


@contextlib.contextmanager
def _deadline(seconds: int) -> Iterator[None]:
    """Fail, rather than hang the suite, if the block is not done in ``seconds`` (a test that
    kills and restarts a server once stalled in its teardown on a loaded machine)."""

    def expire(_signum: int, _frame: Any) -> None:
        raise TimeoutError(f"not done in {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_the_audience_is_counted_over_the_nodes(prefix: str) -> None:
    async def run() -> None:
        from redis.asyncio import Redis

        redis = Redis.from_url("redis://127.0.0.1:6379/0")
        try:
            tables = [mirror() for _ in range(3)]
            nodes = [
                Presence(redis, prefix, f"n{i}", {"ez": table}) for i, table in enumerate(tables)
            ]
            for count, table in zip((3, 0, 2), tables, strict=True):
                table.apply(card(1))
                for _ in range(count):
                    table.attach(Client(None))
            changed: list[str] = []
            nodes[0].on_total = changed.append
            for node in nodes:
                await node.beat()
            await nodes[0].beat()
            assert nodes[0].nodes == ["n0", "n1", "n2"]
            assert nodes[0].total("ez") == 5 and changed[-1] == "ez"
            await nodes[2].leave()
            await nodes[0].beat()
            assert nodes[0].total("ez") == 3 and nodes[0].nodes == ["n0", "n1"]
        finally:
            await redis.aclose()

    asyncio.run(run())


class _Swallowing:
    """A Redis client whose cancelled reads and writes come out as its timeout error (what a
    cancellation racing a read timeout inside redis-py looks like on Python 3.11)."""

    async def _block(self) -> None:
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            raise TimeoutError("Timeout reading from socket") from None

    async def xread(self, *_: Any, **__: Any) -> None:
        await self._block()

    def pipeline(self, **_: Any) -> _Swallowing:
        return self

    async def __aenter__(self) -> _Swallowing:
        return self

    async def __aexit__(self, *_: object) -> None:
        return None

    def xadd(self, *_: Any, **__: Any) -> None:
        return None

    async def execute(self) -> None:
        await self._block()


def test_a_cancellation_the_client_turns_into_a_timeout_still_stops_the_loops() -> None:
    async def run() -> None:
        fanout = RedisFanout(_Swallowing(), "t", {"ez": mirror()})  # type: ignore[arg-type]
        fanout.publish(card(1))  # the writer is inside a write when it is cancelled
        tasks = [asyncio.create_task(fanout.run_reader()), asyncio.create_task(fanout.run_writer())]
        await asyncio.sleep(0.05)
        for task in tasks:
            task.cancel()
        done, running = await asyncio.wait(tasks, timeout=5)
        assert not running, running
        assert all(task.cancelled() for task in done)

    with _deadline(30):  # a loop that runs on would also hang asyncio.run's own cancelling
        asyncio.run(run())


class _Stuck:
    """A Redis client whose cancelled read waits on its socket again until the client is
    closed (what a reader stuck past its cancellation looked like under stress-ng)."""

    def __init__(self) -> None:
        self.closed = asyncio.Event()

    async def xread(self, *_: Any, **__: Any) -> None:
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            await self.closed.wait()
            raise ConnectionError("Connection closed by the client") from None

    async def aclose(self) -> None:
        self.closed.set()


def test_a_read_stuck_past_its_cancellation_ends_when_the_client_is_closed() -> None:
    async def run() -> None:
        client = _Stuck()
        fanout = RedisFanout(client, "t", {"ez": mirror()})  # type: ignore[arg-type]
        reader = asyncio.create_task(fanout.run_reader())
        await asyncio.sleep(0.05)
        assert await stop_tasks([reader], grace_s=0.2) == [reader]  # cancelling is not enough
        assert await stop_tasks([reader], grace_s=0.2, unblock=client.aclose) == []
        assert reader.cancelled()

    with _deadline(30):
        asyncio.run(run())
