"""The virtual clock of a test server: a production start refuses it, its route exists only with
it, and on it a window closes exactly at its deadline and the dealer's pauses wait for the test.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from server_support import new_player
from serving import ServerProcess
from typer.testing import CliRunner

from baccarat.cli import app
from baccarat.server import Settings, create_app, tables_from
from baccarat.server.clock import VirtualClock
from baccarat.store import Database
from baccarat.store.clock import db_now

runner = CliRunner()
PG = "postgresql://postgres@127.0.0.1:1/test"
REDIS = "redis://127.0.0.1:6379/0"
TESTING = {"BACCARAT_TESTING": "1"}


@pytest.mark.parametrize(
    ("args", "env", "message"),
    [
        (["--virtual-clock", "on"], {}, "is for tests only (BACCARAT_TESTING=1)"),
        ([], {"BACCARAT_VIRTUAL_CLOCK": "on"}, "is for tests only"),
        (["--virtual-clock", "on"], {"BACCARAT_TESTING": "yes"}, "is for tests only"),
        (["--virtual-clock", "on", "--host", "0.0.0.0"], TESTING, "only a loopback host"),
        (["--virtual-clock", "on", "--host", "example.org"], TESTING, "only a loopback host"),
        (["--virtual-clock", "on", "--host", "10.1.2.3"], TESTING, "only a loopback host"),
        (["--virtual-clock", "on", "--db", PG, "--redis", REDIS], TESTING, "one process alone"),
        (
            ["--virtual-clock", "on", "--db", PG, "--redis", REDIS, "--workers", "2"],
            TESTING,
            "one process alone",
        ),
    ],
)
def test_a_production_start_refuses_the_virtual_clock(
    args: list[str], env: dict[str, str], message: str, tmp_path: Path
) -> None:
    environment: dict[str, str | None] = {"BACCARAT_TESTING": None, **env}
    database = ["--db", f"sqlite:///{tmp_path / 'never.db'}"] if "--db" not in args else []
    result = runner.invoke(app, ["serve", "--port", "1", *database, *args], env=environment)
    assert result.exit_code == 2
    assert message in result.output
    assert result.output.strip().count("\n") == 0, result.output  # one line
    assert "Traceback" not in result.output
    assert not (tmp_path / "never.db").exists()  # refused before anything was opened


def test_a_loopback_test_server_may_run_on_it() -> None:
    settings = Settings(virtual_clock="on", host="::1")
    assert settings.virtual_clock_refusal(TESTING) is None
    assert Settings().virtual_clock_refusal({}) is None  # not asked: nothing to refuse


def test_without_the_switch_the_clock_route_does_not_exist(tmp_path: Path) -> None:
    config = Settings(db=f"sqlite:///{tmp_path / 'plain.db'}", tables=tables_from(["standard"]))
    with TestClient(create_app(config)) as client:
        assert client.post("/api/test/clock", json={"advance_ms": 1000}).status_code == 404
        assert client.get("/api/test/clock").status_code == 404
        assert not any(
            path.startswith("/api/test") for path in client.get("/openapi.json").json()["paths"]
        )


def test_the_clock_route_answers_only_this_machine(tmp_path: Path) -> None:
    config = Settings(
        db=f"sqlite:///{tmp_path / 'virtual.db'}",
        tables=tables_from(["standard"]),
        virtual_clock="on",
    )
    clock = VirtualClock()
    now = clock.now_ms()
    # TestClient's peer is "testclient": not a loopback address, so the route is not there.
    with TestClient(create_app(config, clock=clock)) as client:
        assert client.post("/api/test/clock", json={"advance_ms": 1000}).status_code == 404
    assert clock.now_ms() == now


def test_the_virtual_clock_wakes_sleepers_in_deadline_order_and_only_when_moved() -> None:
    clock = VirtualClock(start_ms=10_000)
    woken: list[tuple[str, int]] = []

    async def sleeper(name: str, seconds: float) -> None:
        await clock.sleep(seconds)
        woken.append((name, clock.now_ms()))

    async def scenario() -> None:
        names = {"c": 0.3, "a": 0.1, "gone": 0.2, "b": 0.2, "now": 0.0}
        tasks = {name: asyncio.create_task(sleeper(name, s)) for name, s in names.items()}
        await asyncio.sleep(0.05)  # real time: nothing but the zero wait wakes
        assert woken == [("now", 10_000)] and clock.sleeping == 4
        tasks["gone"].cancel()
        await asyncio.sleep(0)
        assert clock.sleeping == 3 and clock.next_deadline == 10_100
        clock.advance(199)
        await asyncio.sleep(0)
        assert woken[1:] == [("a", 10_199)]
        clock.advance(1_000)
        await asyncio.gather(*(task for name, task in tasks.items() if name != "gone"))
        assert [name for name, _ in woken] == ["now", "a", "b", "c"]
        assert clock.sleeping == 0 and clock.next_deadline is None

    asyncio.run(scenario())
    with pytest.raises(ValueError, match="cannot go back"):
        clock.advance(-1)
    assert clock.now_ms() == 11_199


def test_db_now_reads_the_clock_registered_on_the_engine(db_url: str) -> None:
    ticks = iter(range(1_000, 2_000))
    database = Database(db_url, clock=lambda: next(ticks))
    plain = Database(db_url)
    try:
        with database.write() as connection:
            assert db_now(connection) == 1_000
        with database.read() as connection:
            assert db_now(connection) == 1_001
        with plain.read() as connection:
            assert abs(db_now(connection) - time.time_ns() // 1_000_000) < 60_000
    finally:
        database.dispose()
        plain.dispose()


def _bet(server: ServerProcess, token: str, round_id: int) -> httpx.Response:
    return httpx.post(
        f"{server.url}/api/tables/standard/bets",
        json={"round_id": round_id, "bets": {"player": 100}},
        headers={"Authorization": f"Bearer {token}", "Idempotency-Key": uuid.uuid4().hex},
        timeout=10,
    )


def test_a_window_closes_exactly_at_its_deadline_on_the_virtual_clock(
    db_url: str, tmp_path: Path, servers: list[ServerProcess]
) -> None:
    server = ServerProcess(db_url, tmp_path, betting_seconds=15, virtual_clock=True)
    servers.append(server.start())
    with server.client() as client:
        _, token = new_player(client)
    view = server.open_round()
    round_id, closes_at = view["round"]["id"], view["round"]["closes_at_ms"]
    # Real time goes by; the virtual clock does not, and the window stays open.
    time.sleep(0.5)
    assert server.clock_state()["now_ms"] == view["now"] < closes_at
    server.advance(closes_at - 1 - view["now"])
    assert server.clock_state()["now_ms"] == closes_at - 1
    accepted = _bet(server, token, round_id)
    assert accepted.status_code == 200, accepted.text
    assert accepted.json()["bets"] == {"player": 100}
    # At the deadline itself the database's clock (``db_now``) says closed, whether or not
    # the dealer has closed the round yet.
    assert server.advance(1, settle=False) == closes_at
    refused = _bet(server, token, round_id)
    assert refused.status_code == 409, refused.text
    assert refused.json()["error"]["code"] == "betting_closed"
    server.settle()
    shown = server.get(f"/api/rounds/{round_id}")
    assert shown["phase"] in ("closed", "dealt", "settled")
    assert shown["closes_at"] == view["round"]["closes_at"]


def test_the_dealers_pauses_wait_for_the_clock(
    tmp_path: Path, servers: list[ServerProcess]
) -> None:
    reveal_ms, result_ms = 800, 2000
    server = ServerProcess(
        f"sqlite:///{tmp_path / 'pauses.db'}",
        tmp_path,
        reveal_ms=reveal_ms,
        result_ms=result_ms,
        virtual_clock=True,
    )
    servers.append(server.start())
    round_id = server.open_round()["round"]["id"]
    server.close_bets()

    def shown() -> tuple[int, bool, str]:
        view = server.get("/api/tables/standard")
        return len(view["cards"]), view["result"] is not None, view["round"]["phase"]

    assert shown() == (0, False, "dealt")  # dealt and stored, nothing turned yet
    cards = 0
    while not shown()[1]:
        time.sleep(0.3)  # real time: nothing moves
        assert shown()[0] == cards
        server.advance(reveal_ms - 1)
        assert shown()[0] == cards, "a card was turned before its pause was over"
        server.advance(1)
        cards += 1
        assert shown()[0] == cards
    assert 4 <= cards <= 6
    # The result's pause: the next round opens when it is over, not before.
    server.advance(result_ms - 1)
    assert server.get("/api/tables/standard")["round"]["id"] == round_id
    server.advance(1)
    after = server.get("/api/tables/standard")["round"]
    assert after["id"] > round_id and after["phase"] == "open"
