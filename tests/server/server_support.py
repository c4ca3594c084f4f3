"""Helpers for the server tests: a real ``baccarat serve`` process, PostgreSQL schemas, waits."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx

BIN = Path(sys.executable).parent
HERE = Path(__file__).parent
QUICK_TABLE = HERE / "data" / "quick.toml"
PG_BASE = "postgresql://postgres@127.0.0.1:5432/test"
T = TypeVar("T")


def services_required() -> bool:
    return os.environ.get("BACCARAT_REQUIRE_SERVICES") == "1"


def postgres_reachable() -> bool:
    import psycopg

    try:
        with psycopg.connect(
            "host=127.0.0.1 port=5432 user=postgres dbname=test", connect_timeout=3
        ):
            return True
    except psycopg.OperationalError:
        return False


@contextlib.contextmanager
def postgres_schema() -> Iterator[str]:
    """A fresh schema in the ``test`` database; yields a URL that uses it; drops it after."""
    import psycopg

    schema = f"baccarat_srv_{uuid.uuid4().hex[:12]}"
    dsn = "host=127.0.0.1 port=5432 user=postgres dbname=test"
    with psycopg.connect(dsn, autocommit=True) as connection:
        connection.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{PG_BASE}?options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(dsn, autocommit=True) as connection:
            connection.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_until(check: Callable[[], T | None], timeout: float, what: str, step: float = 0.02) -> T:
    """Poll ``check`` until it returns something other than ``None``/``False``."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value is not None and value is not False:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        time.sleep(step)


class ServerProcess:
    """``baccarat serve`` in a subprocess on a free port, killable at will."""

    def __init__(
        self,
        db_url: str,
        workdir: Path,
        *,
        tables: str = "standard",
        betting_seconds: float = 1.0,
        reveal_ms: int = 20,
        result_ms: int = 50,
        demo_credit: int = 1_000_000,
        env: dict[str, str] | None = None,
    ) -> None:
        self.db_url = db_url
        self.workdir = workdir
        self.args = [
            "--db",
            db_url,
            "--tables",
            tables,
            "--betting-seconds",
            str(betting_seconds),
            "--reveal-ms",
            str(reveal_ms),
            "--result-ms",
            str(result_ms),
            "--demo-credit",
            str(demo_credit),
        ]
        self.env = env or {}
        self.process: subprocess.Popen[bytes] | None = None
        self.port = 0
        self.starts = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def stderr_path(self) -> Path:
        return self.workdir / f"server-{self.starts}.err"

    def start(self, pause_at: str | None = None, timeout: float = 30.0) -> ServerProcess:
        """Start (or restart) the server; ``pause_at`` arms the dealer's test pause."""
        self.starts += 1
        self.port = free_port()
        environment = {**os.environ, **self.env}
        environment.pop("BACCARAT_TEST_PAUSE_AT", None)
        if pause_at is not None:
            environment["BACCARAT_TEST_PAUSE_AT"] = pause_at
        command = [str(BIN / "baccarat"), "serve", "--port", str(self.port), *self.args]
        out = (self.workdir / f"server-{self.starts}.out").open("wb")
        err = self.stderr_path.open("wb")
        self.process = subprocess.Popen(command, stdout=out, stderr=err, env=environment)
        wait_until(self._healthy, timeout, f"the server on port {self.port} to answer /healthz")
        return self

    def _healthy(self) -> bool:
        assert self.process is not None
        if self.process.poll() is not None:
            raise AssertionError(
                f"the server exited with {self.process.returncode}: {self.stderr_text()[-2000:]}"
            )
        try:
            return httpx.get(f"{self.url}/healthz", timeout=1.0).status_code == 200
        except httpx.HTTPError:
            return False

    def stderr_text(self) -> str:
        return self.stderr_path.read_text(errors="replace")

    def wait_for_pause(self, point: str, timeout: float = 30.0) -> int:
        """The round id at which the dealer paused at ``point``."""
        marker = f"baccarat-test-pause: {point} round "

        def found() -> int | None:
            for line in self.stderr_text().splitlines():
                if line.startswith(marker):
                    return int(line[len(marker) :])
            return None

        return wait_until(found, timeout, f"the dealer to pause at {point}", step=0.05)

    def kill(self) -> None:
        """``kill -9``: no shutdown code runs."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.kill()

    def client(self, token: str | None = None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=10.0)


def new_player(client: httpx.Client) -> tuple[str, str]:
    """A guest player: (id, token)."""
    response = client.post("/api/players")
    assert response.status_code == 201, response.text
    data = response.json()
    return data["id"], data["token"]


def open_round(
    client: httpx.Client, table: str, min_left_ms: int = 300, timeout: float = 20
) -> int:
    """The id of the table's open round with at least ``min_left_ms`` to go."""

    def check() -> int | None:
        data = client.get(f"/api/tables/{table}").json()
        state = data["round"]
        if state and state["phase"] == "open" and state["closes_at_ms"] - data["now"] > min_left_ms:
            return int(state["id"])
        return None

    return wait_until(check, timeout, f"an open round at {table}", step=0.05)


def round_view(client: httpx.Client, round_id: int) -> dict[str, Any]:
    response = client.get(f"/api/rounds/{round_id}")
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def wait_round_final(client: httpx.Client, round_id: int, timeout: float = 30) -> dict[str, Any]:
    return wait_until(
        lambda: (lambda v: v if v["phase"] in ("settled", "voided") else None)(
            round_view(client, round_id)
        ),
        timeout,
        f"round {round_id} to finish",
        step=0.05,
    )


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


def ledger_check_failing(db_url: str) -> str:
    """``baccarat ledger check`` in a subprocess; asserts exit 1 with no traceback and returns
    its output, white space folded (the console may wrap a line)."""
    result = subprocess.run(
        [str(BIN / "baccarat"), "ledger", "check", "--db", db_url],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    return " ".join(result.stdout.split())


def ledger_report(db_url: str) -> Any:
    """``check_ledger`` in this process (the CLI's own test runs the command)."""
    from baccarat.store import Database, check_ledger

    database = Database(db_url)
    try:
        with database.read() as connection:
            return check_ledger(connection)
    finally:
        database.dispose()
