"""A real ``baccarat serve`` for any test: its own process, port and log; stopped or killed at will.

Every test that needs a server over HTTP or WebSocket starts it here (``ServerProcess``, or the
``servers`` fixture of the root ``conftest.py``), whatever its directory.

Starting a server costs about two CPU-seconds of imports (FastAPI, SQLAlchemy, pydantic models)
before it does anything, and the suite starts about a hundred. So the servers are forked from a
process that has made those imports once: ``multiprocessing``'s *forkserver*, preloaded with the
serve command. Each server is still a process of its own, fresh from that point: it parses its
command line with ``baccarat.cli.main`` exactly as the console script does, opens its own
database and can be killed with SIGKILL. The console script itself is covered where it matters
(``tests/test_packaging.py``, the ``ledger``/``verify`` subprocess tests).

A test that drives a table does it on a virtual clock (``virtual_clock=True``: ``serve
--virtual-clock on``, which only a test may start): time stands still until the test moves
it (``advance``, ``step``, ``advance_until``: ``clock_driver.ClockDriver``), so no betting
window closes and no result goes by while a loaded machine is slow, and none is slept through.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import socket
import ssl
import subprocess
import sys
from collections.abc import Sequence
from multiprocessing.context import ForkServerProcess
from pathlib import Path
from typing import Any

import httpx
from clock_driver import ClockDriver, wait_until
from serve_child import run_serve

__all__ = [
    "BIN",
    "TLS",
    "ServerProcess",
    "create_staff",
    "free_port",
    "services_required",
    "wait_until",
]

BIN = Path(sys.executable).parent

#: The modules the forkserver imports once, before it forks any server.
PRELOAD = ["serve_child", "baccarat.cli", "baccarat.cli.serve", "baccarat.server.app"]
_CONTEXT = multiprocessing.get_context("forkserver")
_CONTEXT.set_forkserver_preload(PRELOAD)


#: One TLS context for every HTTP client of the tests: httpx otherwise builds one per client and
#: loads the CA bundle into it, 20 ms of CPU each time, though these servers speak plain HTTP.
TLS = ssl.create_default_context()


def services_required() -> bool:
    return os.environ.get("BACCARAT_REQUIRE_SERVICES") == "1"


def create_staff(
    db_url: str, username: str, role: str, password: str, *, umask: int | None = None
) -> None:
    """A member of staff made as an operator makes one: ``baccarat admin create-user`` in a
    process of its own (``umask``: that process's), the password on its standard input."""
    mask = umask

    def set_umask() -> None:
        if mask is not None:
            os.umask(mask)

    created = subprocess.run(
        [
            str(BIN / "baccarat"),
            "admin",
            "create-user",
            username,
            "--role",
            role,
            "--db",
            db_url,
            "--password-stdin",
        ],
        input=password + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=set_umask,
    )
    assert created.returncode == 0, created.stderr


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class ServerProcess(ClockDriver):
    """``baccarat serve`` in a process of its own on a free port, restartable and killable."""

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
        options: Sequence[str] = (),
        virtual_clock: bool = False,
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
            # The house's language is the test's to choose, not the machine's (LANG=id_ID...).
            *([] if "--locale" in options else ["--locale", "en"]),
            *options,
        ]
        self.env = dict(env or {})
        self.virtual_clock = virtual_clock
        if virtual_clock:
            self.args += ["--virtual-clock", "on"]
            self.env["BACCARAT_TESTING"] = "1"
        #: The sleeps of a table at rest on the virtual clock: one per dealer (a paused
        #: table's dealer waits for a command instead: a test that pauses one says so).
        self.sleepers = len([name for name in tables.split(",") if name.strip()])
        self.process: ForkServerProcess | None = None
        #: Kept alive between requests (a settle polls many times a second); one per start.
        self._http: httpx.Client | None = None
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
        self._hang_up()
        self.port = free_port()
        environment = {**os.environ, **self.env}
        environment.pop("BACCARAT_TEST_PAUSE_AT", None)
        if pause_at is not None:
            environment["BACCARAT_TEST_PAUSE_AT"] = pause_at
        argv = ["serve", "--port", str(self.port), *self.args]
        out = self.workdir / f"server-{self.starts}.out"
        self.process = _CONTEXT.Process(
            target=run_serve,
            args=(argv, environment, str(out), str(self.stderr_path)),
            name=f"baccarat-serve-{self.port}",
        )
        self.process.start()
        wait_until(self._healthy, timeout, f"the server on port {self.port} to answer /healthz")
        if self.virtual_clock and pause_at is None:
            self.settle(timeout)
        return self

    def _healthy(self) -> bool:
        assert self.process is not None
        if not self.process.is_alive():
            raise AssertionError(
                f"the server exited with {self.process.exitcode}: {self.stderr_text()[-2000:]}"
            )
        try:
            return self._session().get("/healthz", timeout=1.0).status_code == 200
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
        assert self.process is not None and self.process.pid is not None
        self._hang_up()
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.join(10)

    def stop(self) -> None:
        """SIGINT, as Ctrl-C: the server shuts down cleanly (killed if it takes over 10 s)."""
        if self.process is None or self.process.pid is None or not self.process.is_alive():
            return
        self._hang_up()
        os.kill(self.process.pid, signal.SIGINT)
        self.process.join(10)
        if self.process.is_alive():
            self.kill()

    # -- the virtual clock (ClockDriver's moves go through these) ------------------------

    def post_clock(self, ms: int) -> dict[str, Any]:
        response = self._session().post("/api/test/clock", json={"advance_ms": ms})
        response.raise_for_status()
        state: dict[str, Any] = response.json()
        return state

    def get(self, path: str) -> Any:
        """``GET path`` as JSON (a 2xx answer is required)."""
        response = self._session().get(path)
        response.raise_for_status()
        return response.json()

    def client(self, token: str | None = None) -> httpx.Client:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=10.0, verify=TLS)

    def _session(self) -> httpx.Client:
        if self._http is None:
            self._http = httpx.Client(base_url=self.url, timeout=10.0, verify=TLS)
        return self._http

    def _hang_up(self) -> None:
        if self._http is not None:
            self._http.close()
            self._http = None
