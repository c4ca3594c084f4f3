"""The processes and the load generator of ``bench_provider.py`` (not a benchmark itself).

- ``Wallet``: ``baccarat wallet reference`` for one operator, on the port the operator was
  added with (``add_operator``: ``baccarat operator add``), answering after ``latency_ms``;
- ``launch_players``: players made at the wallet and launched at the game as an operator does;
- ``offer``: the open loop (bet ``n`` due at ``start + n / rate``, its latency from then, the
  lateness of its send kept apart), each group of bettors (``Load``) on a pool of its own;
- ``Meter``: the wall and CPU seconds of a step (server, wallets, this process).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import statistics
import subprocess
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import parse_qs, urlsplit

import httpx
from bench_server import (
    BIN,
    RawHttp,
    Server,
    percentile,
    process_cpu,
)

SPOTS = ("player", "banker")


def cpu_of(pid: int) -> float:
    """User and system CPU seconds of a process (``/proc/<pid>/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Wallet:
    """``baccarat wallet reference`` for one operator, answering every call after ``latency_ms``."""

    def __init__(
        self,
        operator_id: str,
        port: int,
        secret: str,
        game_url: str,
        latency_ms: int,
        workdir: Path,
    ) -> None:
        self.operator_id = operator_id
        self.port = port
        self.url = f"http://127.0.0.1:{self.port}"
        secret_file = workdir / f"{operator_id}.secret"
        secret_file.write_text(secret)
        secret_file.chmod(0o600)
        command = [
            str(BIN / "baccarat"),
            *("wallet", "reference", "--db", str(workdir / f"wallet-{operator_id}.db")),
            *("--operator-id", operator_id, "--secret-file", str(secret_file)),
            *("--game-url", game_url, "--port", str(self.port)),
            *("--latency-ms", str(latency_ms)),
        ]
        self.log = (workdir / f"wallet-{operator_id}.log").open("wb")
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT)

    def wait(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the wallet {self.operator_id} exited")
            try:
                if httpx.get(f"{self.url}/admin/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"the wallet {self.operator_id} did not start")

    def cpu_seconds(self) -> float:
        return cpu_of(self.process.pid)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.log.close()


def add_operator(db_url: str, operator_id: str, wallet_url: str, env: dict[str, str]) -> str:
    """``baccarat operator add``: the new operator's secret (its output's last line)."""
    done = subprocess.run(
        [
            str(BIN / "baccarat"),
            *("operator", "add", operator_id, "--name", f"Casino {operator_id}"),
            *("--wallet-url", wallet_url, "--currency", "USD", "--timeout-ms", "10000"),
            *("--db", db_url),
        ],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return done.stdout.strip().splitlines()[-1]


async def launch_players(http: RawHttp, wallet: Wallet, count: int) -> list[str]:
    """``count`` players of the wallet's operator, launched at the game: their session tokens."""
    tokens = []
    async with httpx.AsyncClient(base_url=wallet.url, timeout=30) as admin:
        for number in range(count):
            player = f"{wallet.operator_id}-{number}"
            body = {"player_id": player, "balance": 10**12, "currency": "USD"}
            (await admin.post("/admin/players", json=body)).raise_for_status()
            launched = await admin.post("/admin/launch", json={"player_id": player})
            assert launched.status_code == 201, launched.text
            token = parse_qs(urlsplit(launched.json()["launch_url"]).query)["token"][0]
            status, data = await http.request(
                "POST", "/api/launch", json.dumps({"token": token}).encode()
            )
            assert status == 201, data
            tokens.append(json.loads(data)["token"])
    return tokens


@dataclass
class Load:
    """One group of bettors: their tokens and a connection pool of their own."""

    name: str
    tokens: list[str]
    http: RawHttp
    latencies: list[float] = field(default_factory=list)
    lags: list[float] = field(default_factory=list)
    refused: dict[str, int] = field(default_factory=dict)
    #: What the server said, the first time, for each code it refused with.
    said: dict[str, str] = field(default_factory=dict)
    sent: int = 0

    def mark(self) -> Mark:
        """Where the load stands now: ``summary(load, since=mark)`` is what came after."""
        return Mark(len(self.latencies), len(self.lags), self.sent, dict(self.refused))


class Mark(NamedTuple):
    latencies: int
    lags: int
    sent: int
    refused: dict[str, int]


_START = Mark(0, 0, 0, {})


async def offer(load: Load, round_id: int, rate: float, seconds: float) -> None:
    """An open loop: bet ``n`` is due at ``start + n / rate``; its latency runs from then."""
    tasks = []

    async def one(number: int, due: float) -> None:
        token = load.tokens[number % len(load.tokens)]
        body = json.dumps({"round_id": round_id, "bets": {SPOTS[number % 2]: 100}}).encode()
        headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": uuid.uuid4().hex}
        load.lags.append((time.perf_counter() - due) * 1000)
        try:
            status, data = await load.http.request(
                "POST", "/api/tables/standard/bets", body, headers
            )
        except (OSError, asyncio.IncompleteReadError, ValueError, IndexError) as error:
            load.refused[type(error).__name__] = load.refused.get(type(error).__name__, 0) + 1
            return
        if status == 200:
            load.latencies.append((time.perf_counter() - due) * 1000)
        else:
            refusal = json.loads(data).get("error", {})
            code = refusal.get("code", str(status))
            load.refused[code] = load.refused.get(code, 0) + 1
            load.said.setdefault(code, refusal.get("message", ""))

    total = int(rate * seconds)
    began = time.perf_counter()
    for number in range(total):
        due = began + number / rate
        delay = due - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.create_task(one(number, due)))
    load.sent += total
    await asyncio.gather(*tasks)


def summary(load: Load, since: Mark = _START) -> dict[str, Any]:
    """The load's figures (those after ``since``): bets sent and accepted, the refusals, p50
    and p99 latency from each bet's due time, and p99 of how late the sends went out."""
    values = load.latencies[since.latencies :]
    refused = {
        code: f"{n - since.refused.get(code, 0)} ({load.said.get(code, '')})"
        for code, n in load.refused.items()
        if n > since.refused.get(code, 0)
    }
    return {
        "sent": load.sent - since.sent,
        "accepted": len(values),
        "refused": refused,
        "p50_ms": statistics.median(values) if values else float("nan"),
        "p99_ms": percentile(values, 0.99),
        "send_lag_p99_ms": percentile(load.lags[since.lags :], 0.99),
    }


class Meter:
    """Wall and CPU seconds of a step: the server, the wallets and this process."""

    def __init__(self, server: Server, wallets: list[Wallet]) -> None:
        self.server, self.wallets = server, wallets
        self.wall = time.perf_counter()
        self.cpu = (server.cpu_seconds(), sum(w.cpu_seconds() for w in wallets), process_cpu())

    def read(self) -> dict[str, float]:
        now = (
            self.server.cpu_seconds(),
            sum(w.cpu_seconds() for w in self.wallets),
            process_cpu(),
        )
        return {
            "wall_s": time.perf_counter() - self.wall,
            "server_cpu_s": now[0] - self.cpu[0],
            "wallet_cpu_s": now[1] - self.cpu[1],
            "bench_cpu_s": now[2] - self.cpu[2],
            "load_average": os.getloadavg()[0],
        }


def line(name: str, result: dict[str, Any]) -> str:
    return (
        f"[{name}] accepted {result['accepted']}/{result['sent']}, p50 {result['p50_ms']:.1f} ms, "
        f"p99 {result['p99_ms']:.1f} ms, refused {result['refused'] or 'none'}; send lag p99 "
        f"{result['send_lag_p99_ms']:.1f} ms; wall {result['wall_s']:.1f} s, CPU: server "
        f"{result['server_cpu_s']:.1f} s, wallets {result['wallet_cpu_s']:.1f} s, bench "
        f"{result['bench_cpu_s']:.1f} s; load average {result['load_average']:.1f}"
    )


async def open_round(http: RawHttp, lasting_s: float) -> int:
    """A round open for at least ``lasting_s`` more seconds (waiting for the next if need be)."""
    while True:
        _, data = await http.request("GET", "/api/tables/standard")
        view = json.loads(data)
        state = view["round"]
        if (
            state
            and state["phase"] == "open"
            and state["closes_at_ms"] - view["now"] > lasting_s * 1000
        ):
            return int(state["id"])
        await asyncio.sleep(0.2)
