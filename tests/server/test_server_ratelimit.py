"""Rate limits against brute force and floods, on a real ``baccarat serve``.

Each test speaks from its own loopback address (127.0.0.x): the server counts by the socket
peer, so the tests of this module do not share a budget.
"""

from __future__ import annotations

import asyncio
import json
import os
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from serving import ServerProcess, services_required, wait_until
from sqlalchemy import select

from baccarat.server import Settings, create_app, tables_from
from baccarat.server.hashing import NICENESS, PasswordPool
from baccarat.server.ratelimit import (
    QuietMemoryStorage,
    RateLimitedError,
    RateLimiter,
    RateLimitSettings,
)
from baccarat.store import Database
from baccarat.store.schema import audit_log

PASSWORD = "Correct-Horse-9"
METRICS_TOKEN = "ratelimit-metrics"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("ratelimit")
    process = ServerProcess(
        f"sqlite:///{folder / 'table.db'}", folder, env={"BACCARAT_METRICS_TOKEN": METRICS_TOKEN}
    )
    process.args += [
        "--rate-limit",
        "login_per_address=8/minute",
        "--rate-limit",
        "guests_per_address=3/minute",
        "--rate-limit",
        "accounts_per_address=4/minute",
        "--rate-limit",
        "failed_login_audit=100/minute",
        "--rate-limit",
        "tickets_per_session=3/minute",
        "--rate-limit-delay",
        "0.3",
    ]
    process.start()
    yield process
    process.stop()


def client_from(server: ServerProcess, address: str) -> httpx.Client:
    """A client whose connections leave from ``address`` (any 127.x.y.z is this machine)."""
    transport = httpx.HTTPTransport(local_address=address)
    return httpx.Client(base_url=server.url, transport=transport, timeout=10.0)


def login(
    client: httpx.Client, username: str, password: str, headers: dict[str, str] | None = None
) -> httpx.Response:
    body = {"username": username, "password": password}
    return client.post("/api/sessions", json=body, headers=headers)


def audit_failures(db_url: str, username: str) -> int:
    database = Database(db_url)
    try:
        with database.read() as connection:
            rows = connection.execute(
                select(audit_log.c.details).where(audit_log.c.action == "login_failed")
            ).all()
    finally:
        database.dispose()
    return sum(1 for row in rows if f'"{username}"' in row.details)


def assert_limited(response: httpx.Response, most_seconds: int) -> None:
    assert response.status_code == 429, response.text
    assert response.json()["error"]["code"] == "rate_limited"
    assert 1 <= int(response.headers["retry-after"]) <= most_seconds


def test_wrong_passwords_for_one_username_back_off_with_429_and_cost_nothing(
    server: ServerProcess,
) -> None:
    name = f"bob{uuid.uuid4().hex[:8]}"
    with client_from(server, "127.0.0.2") as client:
        created = client.post("/api/accounts", json={"username": name, "password": PASSWORD})
        assert created.status_code == 201, created.text
        for _ in range(5):
            assert login(client, name, "Wrong-Horse-9").status_code == 401
        began = time.perf_counter()
        refused = login(client, name, "Wrong-Horse-9")
        # The refusal waits (--rate-limit-delay): asking again at once gains nothing.
        assert time.perf_counter() - began >= 0.3
        assert_limited(refused, 60)
        # During the backoff even the right password waits: a guess gets no answer.
        assert_limited(login(client, name, PASSWORD), 60)
    # Five failures were written to the audit log, the refused attempts were not.
    assert audit_failures(server.db_url, name) == 5
    # Another address still logs in: the backoff is per username and address first.
    with client_from(server, "127.0.0.3") as other:
        assert login(other, name, PASSWORD).status_code == 201


def test_a_flood_from_one_address_is_cut_whatever_the_usernames_or_forwarded_for(
    server: ServerProcess,
) -> None:
    statuses = []
    with client_from(server, "127.0.0.4") as client:
        for number in range(10):
            # X-Forwarded-For is not trusted by default: the socket peer is the address.
            forged = {"X-Forwarded-For": f"203.0.113.{number}"}
            response = login(client, f"nobody{number}", "Wrong-Horse-9", headers=forged)
            statuses.append(response.status_code)
            if response.status_code == 429:
                assert_limited(response, 60)
    assert statuses == [401] * 8 + [429] * 2


def test_guest_and_account_creation_are_limited_per_address(server: ServerProcess) -> None:
    with client_from(server, "127.0.0.5") as client:
        guests = [client.post("/api/players").status_code for _ in range(4)]
        assert guests == [201, 201, 201, 429]
        assert_limited(client.post("/api/players"), 60)
        names = [f"acc{uuid.uuid4().hex[:8]}" for _ in range(5)]
        accounts = [
            client.post("/api/accounts", json={"username": n, "password": PASSWORD}).status_code
            for n in names
        ]
        assert accounts == [201, 201, 201, 201, 429]
    with client_from(server, "127.0.0.6") as other:
        assert other.post("/api/players").status_code == 201
    with client_from(server, "127.0.0.7") as client:
        metrics = client.get("/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"})
    assert 'baccarat_rate_limited_total{limit="guests_per_address"}' in metrics.text


def test_websocket_tickets_are_limited_per_session(server: ServerProcess) -> None:
    with client_from(server, "127.0.0.8") as client:
        first, second = (client.post("/api/players").json()["token"] for _ in range(2))
        asked = [
            client.post("/api/ws-tickets", headers={"Authorization": f"Bearer {first}"})
            for _ in range(4)
        ]
        assert [a.status_code for a in asked] == [201, 201, 201, 429]
        assert_limited(asked[-1], 60)
        # Another session has its own budget.
        other = client.post("/api/ws-tickets", headers={"Authorization": f"Bearer {second}"})
        assert other.status_code == 201


def test_forwarded_for_is_the_address_only_behind_a_named_proxy(
    tmp_path: Path, servers: list[ServerProcess]
) -> None:
    proxied = ServerProcess(f"sqlite:///{tmp_path / 'proxied.db'}", tmp_path)
    proxied.args += ["--rate-limit", "guests_per_address=2/minute"]
    proxied.args += ["--forwarded-allow-ips", "127.0.0.1", "--rate-limit-delay", "0"]
    servers.append(proxied)
    proxied.start()
    with proxied.client() as client:
        # Through the trusted proxy, each forwarded client has its own budget...
        for number in range(3):
            forwarded = {"X-Forwarded-For": f"198.51.100.{number}"}
            for _ in range(2):
                assert client.post("/api/players", headers=forwarded).status_code == 201
            assert client.post("/api/players", headers=forwarded).status_code == 429
    # ...but a client that is not the proxy cannot choose its address.
    with client_from(proxied, "127.0.0.8") as direct:
        forged = [
            direct.post("/api/players", headers={"X-Forwarded-For": f"192.0.2.{n}"}).status_code
            for n in range(3)
        ]
    assert forged == [201, 201, 429]


class LimiterTime:
    """The time ``limits``' memory storage reads (``time.time()``), moved only by the test."""

    def __init__(self) -> None:
        self.now = time.time()

    def time(self) -> float:
        return self.now


def test_failed_login_audit_rows_are_limited_and_the_next_row_counts_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{tmp_path / 'audit.db'}"
    window_s = 5.0
    # The window moves when the test says, not while a loaded machine hashes six passwords.
    limiter_time = LimiterTime()
    monkeypatch.setattr("limits.storage.memory.time", limiter_time)
    config = Settings(
        db=url,
        tables=tables_from(["standard"]),
        rate_limit=("failed_login_audit=2/5 seconds", "login_per_address=100/minute"),
        password_cpu_share=1.0,
    )
    with TestClient(create_app(config)) as client:
        for number in range(6):
            response = client.post(
                "/api/sessions", json={"username": f"ghost{number}", "password": "Wrong-1-x"}
            )
            assert response.status_code == 401
        limiter_time.now += window_s - 0.1  # still inside the window: not written
        client.post("/api/sessions", json={"username": "ghost8", "password": "Wrong-1-x"})
        limiter_time.now += 0.2  # the window has moved on past the two rows written
        client.post("/api/sessions", json={"username": "ghost9", "password": "Wrong-1-x"})
    database = Database(url)
    try:
        with database.read() as connection:
            rows = connection.execute(
                select(audit_log.c.details)
                .where(audit_log.c.action == "login_failed")
                .order_by(audit_log.c.seq)
            ).all()
    finally:
        database.dispose()
    assert [json.loads(row.details)["username"] for row in rows] == ["ghost0", "ghost1", "ghost9"]
    assert json.loads(rows[-1].details) == {"username": "ghost9", "unwritten_before": 5}


def test_hashes_run_in_a_bounded_low_priority_pool() -> None:
    release = threading.Event()
    seen: list[tuple[str, int]] = []

    def slow() -> None:
        tid = threading.get_native_id()
        seen.append((threading.current_thread().name, os.getpriority(os.PRIO_PROCESS, tid)))
        release.wait(5)

    async def scenario() -> None:
        pool = PasswordPool(workers=1, max_waiting=2)
        running = [asyncio.create_task(pool.run(slow)) for _ in range(2)]
        await asyncio.sleep(0.05)
        with pytest.raises(RateLimitedError):
            await pool.run(slow)  # a third waits for nobody: refused at once
        release.set()
        await asyncio.gather(*running)
        pool.close()

    asyncio.run(scenario())
    assert seen and all(name.startswith("baccarat-argon2") for name, _ in seen)
    assert all(
        priority >= os.getpriority(os.PRIO_PROCESS, 0) + NICENESS - 1 for _, priority in seen
    )


def _redis_up() -> bool:
    import redis

    try:
        return bool(redis.Redis(host="127.0.0.1", port=6379, socket_timeout=2).ping())
    except redis.RedisError:
        return False


@pytest.mark.services
def test_two_servers_share_their_counts_in_redis() -> None:
    if not _redis_up():
        if services_required():
            pytest.fail("Redis at 127.0.0.1:6379 is required but unreachable")
        pytest.skip("Redis at 127.0.0.1:6379 is unreachable")
    import redis

    prefix = f"baccarat-test-{uuid.uuid4().hex[:10]}"
    settings = RateLimitSettings(storage="redis://127.0.0.1:6379", key_prefix=prefix).with_rates(
        guests_per_address="3/minute"
    )

    async def scenario() -> list[float | None]:
        first, second = RateLimiter(settings), RateLimiter(settings)  # two nodes
        return [
            await first.hit("guests_per_address", "192.0.2.1"),
            await second.hit("guests_per_address", "192.0.2.1"),
            await first.hit("guests_per_address", "192.0.2.1"),
            await second.hit("guests_per_address", "192.0.2.1"),
            await second.hit("guests_per_address", "192.0.2.2"),
        ]

    try:
        waits = asyncio.run(scenario())
    finally:
        store = redis.Redis(host="127.0.0.1", port=6379)
        keys = list(store.scan_iter(f"{prefix}*"))
        if keys:
            store.delete(*keys)
    assert waits[:3] == [None, None, None] and waits[4] is None
    assert waits[3] is not None and 0 < waits[3] <= 60
    assert keys, "the counts were kept in Redis under the prefix"


def test_the_memory_storage_forgets_expired_keys_in_one_sweep_a_second() -> None:
    from limits import parse
    from limits.strategies import MovingWindowRateLimiter

    storage = QuietMemoryStorage()
    limiter = MovingWindowRateLimiter(storage)
    item = parse("1/second")
    for number in range(200):  # a spray of usernames, each a key
        assert limiter.hit(item, f"user{number}")
    assert not limiter.hit(item, "user0")
    time.sleep(1.05)
    assert limiter.hit(item, "user0")  # expired entries never count, swept or not
    assert storage.timer.interval == QuietMemoryStorage.SWEEP_S
    wait_until(lambda: len(storage.events) <= 1, 5, "the sweep to drop the expired keys")
