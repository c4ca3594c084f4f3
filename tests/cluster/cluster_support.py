"""Three ``baccarat serve`` nodes on loopback, sharing one PostgreSQL database and one Redis.

Each test gets a fresh PostgreSQL *database* (``baccarat_cl_<hex>``, dropped after), a Redis key
prefix of its own (``bt-<hex>``, its keys deleted after) and the worker's seed key
(``BACCARAT_SEED_KEY``, set by the root ``conftest.py``), given to every node explicitly. The
nodes are ``serving.ServerProcess`` with the cluster's options and a short lease, so that a
takeover takes about two seconds.

A ``Watcher`` is a WebSocket client of one node's table feed in a thread of its own: it keeps
every event by ``seq`` with the time it arrived, and on a gap does what a browser does
(reconnects for a fresh snapshot). It records what would break the feed's contract: an event
that repeats or goes back in ``seq``, a snapshot older than what was already seen.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import httpx
import psycopg
import pytest
import redis
from serving import BIN, TLS, ServerProcess, free_port, services_required, wait_until
from websockets.exceptions import WebSocketException
from websockets.sync.client import ClientConnection, connect

__all__ = [
    "AUDIENCE",
    "CREDIT",
    "LEASE_MS",
    "REDIS_URL",
    "TABLE",
    "UNAVAILABLE",
    "Cluster",
    "OwnRedis",
    "Seen",
    "Watcher",
    "balance",
    "bet",
    "bet_together",
    "dealer_of",
    "drop_redis_keys",
    "fresh_database",
    "health",
    "ledger_check",
    "new_player",
    "open_round",
    "outcomes_per_bet",
    "pause",
    "query",
    "request",
    "require_services",
    "resume",
    "round_view",
    "stderr_lines",
    "tolerating_unavailable",
    "wait_round_final",
]

T = TypeVar("T")

PG_DSN = "host=127.0.0.1 port=5432 user=postgres"
PG_URL = "postgresql://postgres@127.0.0.1:5432"
REDIS_URL = "redis://127.0.0.1:6379/0"
TABLE = "standard"
#: The dealer's lease, the production default: 1.5 s was lost to a node starved of CPU on a
#: loaded 2-core machine (a second "deals" line, a round voided by a needless failover).
LEASE_MS = 3000
CREDIT = 1_000_000
#: Kinds of feed message that are not the table's game: the audience count.
AUDIENCE = frozenset({"watching"})


# -- services -------------------------------------------------------------------------------


def _postgres_up() -> bool:
    try:
        with psycopg.connect(f"{PG_DSN} dbname=test", connect_timeout=3):
            return True
    except psycopg.OperationalError:
        return False


def _redis_up(url: str = REDIS_URL) -> bool:
    client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)
    try:
        return bool(client.ping())
    except redis.RedisError:
        return False
    finally:
        client.close()


_UP: dict[str, bool] = {}


def require_services(*, redis_server_binary: bool = False) -> None:
    """Skip without PostgreSQL or Redis (or ``redis-server``), unless BACCARAT_REQUIRE_SERVICES=1."""
    if "postgres" not in _UP:
        _UP["postgres"] = _postgres_up()
        _UP["redis"] = _redis_up()
    missing = []
    if not _UP["postgres"]:
        missing.append("PostgreSQL at 127.0.0.1:5432")
    if not _UP["redis"]:
        missing.append("Redis at 127.0.0.1:6379")
    if redis_server_binary and not _redis_server_path():
        missing.append("the redis-server command")
    if missing:
        message = f"the cluster tests need {' and '.join(missing)}"
        if services_required():
            pytest.fail(f"{message} (BACCARAT_REQUIRE_SERVICES=1)")
        pytest.skip(message)


def _redis_server_path() -> str | None:
    for folder in [*os.environ.get("PATH", "").split(os.pathsep), "/usr/bin", "/usr/sbin"]:
        candidate = Path(folder) / "redis-server"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return None


@contextlib.contextmanager
def fresh_database() -> Iterator[tuple[str, str]]:
    """A new, empty PostgreSQL database: (its name, its URL); dropped (connections and all) after."""
    name = f"baccarat_cl_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(f"{PG_DSN} dbname=test", autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield name, f"{PG_URL}/{name}"
    finally:
        with psycopg.connect(f"{PG_DSN} dbname=test", autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def drop_redis_keys(url: str, prefix: str) -> int:
    """Delete every key that starts with ``prefix`` (SCAN + DEL); how many there were."""
    client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=5)
    deleted = 0
    try:
        batch: list[bytes] = []
        for key in client.scan_iter(match=f"{prefix}*", count=500):
            batch.append(key)
            if len(batch) >= 500:
                client.delete(*batch)
                deleted, batch = deleted + len(batch), []
        if batch:
            client.delete(*batch)
            deleted += len(batch)
    except redis.RedisError:
        pass  # a Redis of the test's own that is already gone
    finally:
        client.close()
    return deleted


def query(database: str, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """Rows of ``sql`` on the test's database (a connection of its own, autocommit)."""
    with psycopg.connect(f"{PG_DSN} dbname={database}", autocommit=True) as connection:
        return list(connection.execute(sql, params).fetchall())


def outcomes_per_bet(database: str, round_id: int) -> list[int]:
    """For each bet of the round, how many outcomes (settlements or voids) it has."""
    rows = query(
        database,
        "SELECT b.id, count(o.bet_id) FROM bets b LEFT JOIN bet_outcomes o ON o.bet_id = b.id "
        "WHERE b.round_id = %s GROUP BY b.id ORDER BY b.id",
        (round_id,),
    )
    return [int(count) for _, count in rows]


class OwnRedis:
    """A ``redis-server`` of the test's own (no persistence) that it may kill and restart."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.workdir = workdir
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> OwnRedis:
        binary = _redis_server_path()
        assert binary is not None
        self.starts += 1
        log = (self.workdir / f"redis-{self.starts}.log").open("wb")
        self.process = subprocess.Popen(
            [
                binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        wait_until(lambda: _redis_up(self.url), 10, f"redis-server on port {self.port}", 0.02)
        return self

    def kill(self) -> None:
        """SIGKILL: whatever it held is gone (no persistence)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def restart(self, down_for: float) -> None:
        """Kill it, leave the port closed for ``down_for`` seconds, start it again."""
        self.kill()
        time.sleep(down_for)  # the outage itself, not a wait for something to happen
        self.start()


# -- players, bets, rounds (over HTTP) ----------------------------------------------------


_CLIENTS: dict[str, httpx.Client] = {}
_CLIENTS_LOCK = threading.Lock()


def http(node: ServerProcess) -> httpx.Client:
    """A client of the node, kept for the test (making one costs a TLS context, about 0.1 s of
    CPU on a loaded machine: per request, that ate the betting windows)."""
    with _CLIENTS_LOCK:
        client = _CLIENTS.get(node.url)
        if client is None:
            client = httpx.Client(base_url=node.url, timeout=10.0, verify=TLS)
            _CLIENTS[node.url] = client
        return client


def close_clients() -> None:
    with _CLIENTS_LOCK:
        for client in _CLIENTS.values():
            client.close()
        _CLIENTS.clear()


#: The 503 ``database_unavailable`` answers met while ``tolerating_unavailable`` (and retried).
UNAVAILABLE: list[str] = []
_TOLERATE: list[bool] = []


@contextlib.contextmanager
def tolerating_unavailable() -> Iterator[list[str]]:
    """Within: a 503 ``database_unavailable`` ("try again") is retried, as a client would, the
    same request with the same idempotency key, and listed (yielded list)."""
    UNAVAILABLE.clear()
    _TOLERATE.append(True)
    try:
        yield UNAVAILABLE
    finally:
        _TOLERATE.pop()


def request(
    node: ServerProcess,
    method: str,
    path: str,
    token: str | None = None,
    body: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
) -> httpx.Response:
    if token is not None:
        headers = {**(headers or {}), "Authorization": f"Bearer {token}"}
    for _ in range(50):
        response = http(node).request(method, path, json=body, headers=headers)
        unavailable = (
            response.status_code == 503
            and response.json().get("error", {}).get("code") == "database_unavailable"
        )
        if not (unavailable and _TOLERATE):
            return response
        UNAVAILABLE.append(f"{method} {path} on {node.url}")
        time.sleep(0.1)
    return response


def new_player(node: ServerProcess) -> tuple[str, str]:
    """A guest player made through ``node``: (id, token)."""
    response = request(node, "POST", "/api/players")
    assert response.status_code == 201, response.text
    data = response.json()
    return str(data["id"]), str(data["token"])


def bet(
    node: ServerProcess, token: str, round_id: int, bets: dict[str, int], key: str | None = None
) -> httpx.Response:
    return request(
        node,
        "POST",
        f"/api/tables/{TABLE}/bets",
        token,
        {"round_id": round_id, "bets": bets},
        {"Idempotency-Key": key or uuid.uuid4().hex},
    )


def bet_together(
    round_id: int, placements: Sequence[tuple[ServerProcess, str, dict[str, int]]]
) -> list[httpx.Response]:
    """Each (node, token, stakes) placed at once (a thread each), so that a loaded machine
    still leaves most of the betting window; the answers in order."""
    answers: list[httpx.Response | None] = [None] * len(placements)

    def place(i: int) -> None:
        node, token, stakes = placements[i]
        answers[i] = bet(node, token, round_id, stakes)

    threads = [threading.Thread(target=place, args=(i,)) for i in range(len(placements))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert all(answer is not None for answer in answers), answers
    return [answer for answer in answers if answer is not None]


def open_round(node: ServerProcess, min_left_ms: int = 300, timeout: float = 20) -> int:
    """The id of the table's open round with at least ``min_left_ms`` to go (as ``node`` sees it)."""

    def check() -> int | None:
        response = request(node, "GET", f"/api/tables/{TABLE}")
        assert response.status_code == 200, response.text
        data = response.json()
        state = data["round"]
        if state and state["phase"] == "open" and state["closes_at_ms"] - data["now"] > min_left_ms:
            return int(state["id"])
        return None

    return wait_until(check, timeout, f"an open round at {TABLE} on {node.url}", step=0.03)


def round_view(node: ServerProcess, round_id: int, token: str | None = None) -> dict[str, Any]:
    response = request(node, "GET", f"/api/rounds/{round_id}", token)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def wait_round_final(node: ServerProcess, round_id: int, timeout: float = 30) -> dict[str, Any]:
    def check() -> dict[str, Any] | None:
        view = round_view(node, round_id)
        return view if view["phase"] in ("settled", "voided") else None

    return wait_until(check, timeout, f"round {round_id} to finish", step=0.05)


def balance(node: ServerProcess, token: str) -> int:
    response = request(node, "GET", "/api/me", token)
    assert response.status_code == 200, response.text
    value: int = response.json()["balance"]
    return value


def ledger_check(db_url: str) -> dict[str, Any]:
    """``baccarat ledger check --json`` in a subprocess; asserts exit 0."""
    result = subprocess.run(
        [str(BIN / "baccarat"), "ledger", "check", "--db", db_url, "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


# -- nodes ----------------------------------------------------------------------------------


def health(node: ServerProcess, timeout: float = 1.0) -> dict[str, Any] | None:
    """``GET /api/health`` of a node, ``None`` if it does not answer (killed, stopped)."""
    try:
        response = http(node).get("/api/health", timeout=timeout)
    except httpx.HTTPError:
        return None
    if response.status_code != 200:
        return None
    data: dict[str, Any] = response.json()
    return data


def dealer_of(
    nodes: Sequence[ServerProcess], table: str = TABLE, timeout: float = 10.0
) -> ServerProcess:
    """The one node of ``nodes`` whose health says it deals ``table`` (polled until one does)."""

    def check() -> ServerProcess | None:
        dealing = [
            node
            for node in nodes
            if (data := health(node, timeout=0.5)) is not None and table in data["dealing"]
        ]
        return dealing[0] if len(dealing) == 1 else None

    return wait_until(check, timeout, f"one of {len(nodes)} nodes to deal {table}", step=0.05)


def stderr_lines(node: ServerProcess, marker: str) -> list[str]:
    """The lines of the node's current log that contain ``marker``."""
    return [line for line in node.stderr_text().splitlines() if marker in line]


def pause(node: ServerProcess) -> None:
    """SIGSTOP: the process stops where it is (as in a long GC pause or a frozen VM)."""
    assert node.process is not None and node.process.pid is not None
    os.kill(node.process.pid, signal.SIGSTOP)


def resume(node: ServerProcess) -> None:
    assert node.process is not None and node.process.pid is not None
    os.kill(node.process.pid, signal.SIGCONT)


# -- the feed -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seen:
    """A feed message and when (``time.monotonic()``) it arrived."""

    at: float
    message: dict[str, Any]

    @property
    def type(self) -> str:
        return str(self.message["type"])

    @property
    def seq(self) -> int:
        return int(self.message["seq"])


@dataclass
class Watcher:
    """A client of one node's table feed that keeps every event by ``seq`` (see the module)."""

    url: str
    name: str
    events: list[Seen] = field(default_factory=list)
    snapshots: list[Seen] = field(default_factory=list)
    #: (the last seq seen, the seq that came next) of every gap: each made a reconnection.
    gaps: list[tuple[int, int]] = field(default_factory=list)
    #: (the last seq seen, the seq that came next) of every event not after the last one.
    repeats: list[tuple[int, int]] = field(default_factory=list)
    #: (the last seq seen, the seq of the snapshot after it) of every snapshot that went back.
    rewinds: list[tuple[int, int]] = field(default_factory=list)
    last_seq: int | None = None

    def __post_init__(self) -> None:
        self._changed = threading.Condition()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"watch-{self.name}", daemon=True)

    def start(self, timeout: float = 15.0) -> Watcher:
        self._thread.start()
        self.wait(lambda: bool(self.snapshots) or None, timeout, "its first snapshot")
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)

    def _run(self) -> None:
        while not self._stop.is_set():
            with (
                contextlib.suppress(OSError, TimeoutError, WebSocketException),
                connect(self.url, max_size=2**22, open_timeout=2, close_timeout=0.2) as ws,
            ):
                self._read(ws)
            self._stop.wait(0.05)

    def _read(self, ws: ClientConnection) -> None:
        while not self._stop.is_set():
            try:
                raw = ws.recv(timeout=0.1)
            except TimeoutError:
                continue
            message: dict[str, Any] = json.loads(raw)
            seen = Seen(time.monotonic(), message)
            with self._changed:
                try:
                    if not self._take(seen):
                        return  # a gap: reconnect for a snapshot
                finally:
                    self._changed.notify_all()

    def _take(self, seen: Seen) -> bool:
        """Keep one message; ``False`` if it shows a gap (and is dropped)."""
        if seen.type == "snapshot":
            if self.last_seq is not None and seen.seq < self.last_seq:
                self.rewinds.append((self.last_seq, seen.seq))
            self.snapshots.append(seen)
            self.last_seq = seen.seq
            return True
        if "seq" not in seen.message:
            return True  # private, outside the sequence (a player's reality check)
        if self.last_seq is not None and seen.seq <= self.last_seq:
            self.repeats.append((self.last_seq, seen.seq))
            return True
        if self.last_seq is not None and seen.seq != self.last_seq + 1:
            self.gaps.append((self.last_seq, seen.seq))
            return False
        self.events.append(seen)
        self.last_seq = seen.seq
        return True

    def wait(self, check: Callable[[], T | None], timeout: float, what: str) -> T:
        """Wait until ``check`` (called under the watcher's lock) returns a value."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                value = check()
                if value is not None and value is not False:
                    return value
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{self.name}: timed out after {timeout}s for {what}")
                self._changed.wait(min(left, 0.2))

    def wait_event(
        self, match: Callable[[Seen], bool], timeout: float, what: str, after: float = 0.0
    ) -> Seen:
        """The first event (arrived after ``after``) that ``match`` accepts."""

        def check() -> Seen | None:
            return next((s for s in self.events if s.at > after and match(s)), None)

        return self.wait(check, timeout, what)

    def next_round(
        self, min_left_s: float = 0.9, newer_than: int = 0, timeout: float = 15.0
    ) -> int:
        """A round (after round ``newer_than``) open for at least ``min_left_s`` more: the
        newest one this feed saw open if it has that long to go, else the next one to open."""

        def check() -> int | None:
            for seen in reversed(self.events):
                if seen.type == "round_open" and seen.message["round_id"] > newer_than:
                    message = seen.message
                    window = (message["closes_at_ms"] - message["now"]) / 1000
                    if window - (time.monotonic() - seen.at) >= min_left_s:
                        return int(message["round_id"])
                    return None
            return None

        return self.wait(check, timeout, f"a round open for {min_left_s} s more")

    def copy(self) -> list[Seen]:
        with self._changed:
            return list(self.events)

    def round_events(self, round_id: int) -> list[Seen]:
        return [s for s in self.copy() if s.message.get("round_id") == round_id]

    def span(self, round_id: int) -> list[tuple[int, str]]:
        """(seq, type) of every event from the round's ``round_open`` to its end, inclusive."""
        events = self.copy()
        marks = [
            i
            for i, s in enumerate(events)
            if s.message.get("round_id") == round_id
            and s.type in ("round_open", "settled", "round_void")
        ]
        assert len(marks) == 2 and events[marks[0]].type == "round_open", (
            f"{self.name}: round {round_id} not seen from its opening to its end: "
            f"{[events[i].type for i in marks]}"
        )
        return [(s.seq, s.type) for s in events[marks[0] : marks[1] + 1]]

    def wait_span(self, round_id: int, timeout: float = 10.0) -> list[tuple[int, str]]:
        """``span`` of the round, once it has ended."""
        return self.wait(
            lambda: self.span(round_id) if round_id in self.finished() else None,
            timeout,
            f"the end of round {round_id}",
        )

    def wait_finished(self, round_id: int, timeout: float = 10.0) -> str:
        """How the round ended (``settled``/``voided``), once this client has learned it."""
        return self.wait(
            lambda: self.finished().get(round_id), timeout, f"the end of round {round_id}"
        )

    def learned_end_at(self, round_id: int) -> float:
        """When this client first learned how the round ended (its event, or a snapshot)."""
        with self._changed:
            times = [
                s.at
                for s in self.events
                if s.type in ("settled", "round_void") and s.message["round_id"] == round_id
            ] + [
                s.at
                for s in self.snapshots
                if (s.message["table"]["last_round"] or {}).get("id") == round_id
            ]
        assert times, f"{self.name}: the end of round {round_id} was not seen"
        return min(times)

    def finished(self) -> dict[int, str]:
        """Round id to ``settled``/``voided``: from the events, and each snapshot's last round."""
        known: dict[int, str] = {}
        with self._changed:
            for seen in sorted(self.events + self.snapshots, key=lambda s: s.at):
                if seen.type == "settled":
                    known[int(seen.message["round_id"])] = "settled"
                elif seen.type == "round_void":
                    known[int(seen.message["round_id"])] = "voided"
                elif seen.type == "snapshot" and seen.message["table"]["last_round"]:
                    last = seen.message["table"]["last_round"]
                    known[int(last["id"])] = str(last["phase"])
        return known

    def assert_sound(self, *, gaps_allowed: bool = False) -> None:
        """No event repeated or gone back, no snapshot older than what was seen (and no gap)."""
        with self._changed:
            assert not self.repeats, f"{self.name}: events not after the last seq {self.repeats}"
            assert not self.rewinds, f"{self.name}: snapshots going back {self.rewinds}"
            if not gaps_allowed:
                assert not self.gaps, f"{self.name}: gaps in seq {self.gaps}"
            # Between two snapshots the events follow each other one by one.
            marks = sorted(
                [(s.at, 0, s.seq) for s in self.snapshots] + [(s.at, 1, s.seq) for s in self.events]
            )
            previous: int | None = None
            for _, kind, seq in marks:
                if kind == 1:
                    assert previous is None or seq == previous + 1, (self.name, previous, seq)
                previous = seq


class Cluster:
    """The nodes, watchers and own Redis servers of one test, all stopped at its end."""

    def __init__(
        self, database: str, db_url: str, redis_url: str, prefix: str, workdir: Path
    ) -> None:
        self.database = database
        self.db_url = db_url
        self.redis_url = redis_url
        self.prefix = prefix
        self.workdir = workdir
        self.seed_key = os.environ["BACCARAT_SEED_KEY"]
        self.nodes: list[ServerProcess] = []
        self.watchers: list[Watcher] = []
        self.redises: list[OwnRedis] = []

    def node(
        self,
        node_id: str,
        *,
        betting_seconds: float = 1.0,
        reveal_ms: int = 20,
        redis_url: str | None = None,
        lease_ms: int = LEASE_MS,
        workers: int = 1,
        options: Sequence[str] = (),
        tables: str = TABLE,
    ) -> ServerProcess:
        """A node (not started) of this cluster, ``node_id`` its name (with ``workers``, each
        worker is a node ``<node_id>-<pid>``); ``options`` are more of ``serve``'s."""
        workdir = self.workdir / node_id
        workdir.mkdir(exist_ok=True)
        node = ServerProcess(
            self.db_url,
            workdir,
            tables=tables,
            betting_seconds=betting_seconds,
            reveal_ms=reveal_ms,
            result_ms=50,
            demo_credit=CREDIT,
            env={"BACCARAT_SEED_KEY": self.seed_key},
            options=[
                "--node-id",
                node_id,
                "--redis",
                redis_url or self.redis_url,
                "--redis-prefix",
                self.prefix,
                "--lease-ms",
                str(lease_ms),
                "--workers",
                str(workers),
                *options,
            ],
        )
        self.nodes.append(node)
        return node

    @staticmethod
    def start_together(nodes: Sequence[ServerProcess]) -> list[ServerProcess]:
        """Start the nodes at once (each start waits for its node to answer, mostly idle)."""
        errors: list[BaseException] = []

        def start(node: ServerProcess) -> None:
            try:
                node.start()
            except BaseException as error:
                errors.append(error)

        threads = [threading.Thread(target=start, args=(node,)) for node in nodes]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if errors:
            raise errors[0]
        return list(nodes)

    def three(
        self, *, betting_seconds: float = 1.0, reveal_ms: int = 20, redis_url: str | None = None
    ) -> list[ServerProcess]:
        """n1, n2 and n3, started: n1 first (so it deals the table), then the two others."""
        nodes = [
            self.node(
                f"n{i}", betting_seconds=betting_seconds, reveal_ms=reveal_ms, redis_url=redis_url
            )
            for i in (1, 2, 3)
        ]
        nodes[0].start()
        self.start_together(nodes[1:])
        return nodes

    def watch(self, node: ServerProcess, name: str) -> Watcher:
        watcher = Watcher(f"{node.ws_url}/ws/tables/{TABLE}", name)
        self.watchers.append(watcher)
        return watcher.start()

    def own_redis(self) -> OwnRedis:
        """A ``redis-server`` of the test's own, on a free port (killed at the end)."""
        require_services(redis_server_binary=True)
        server = OwnRedis(self.workdir)
        self.redises.append(server)
        return server.start()

    def close(self) -> None:
        """Stop the watchers, the nodes (a clean shutdown, SIGINT) and any Redis of its own."""
        for watcher in self.watchers:
            watcher.stop()
        close_clients()
        running = [n for n in self.nodes if n.process is not None and n.process.is_alive()]
        for node in running:
            assert node.process is not None and node.process.pid is not None
            with contextlib.suppress(ProcessLookupError):
                os.kill(node.process.pid, signal.SIGCONT)
                os.kill(node.process.pid, signal.SIGINT)
        for node in running:
            assert node.process is not None
            node.process.join(10)
            if node.process.is_alive():
                node.kill()
        for server in self.redises:
            server.kill()
