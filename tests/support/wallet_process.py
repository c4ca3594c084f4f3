"""An operator's reference wallet (``baccarat wallet reference``) in a process of its own, for any
test directory: started on a port it keeps across restarts, killed with SIGKILL and started
again on the same SQLite file, driven through its loopback admin.

``tests/wallet/reference_support.py`` (the wallet's own tests) picks a new port at every start;
a game server is told its operator's wallet URL once (``operators.wallet_url``), so a wallet
that restarts under it must come back where it was. Like ``serving.ServerProcess`` it is forked
from the forkserver that has the command's imports made already (a restart costs a fork, not
two CPU-seconds of imports), and runs the command line exactly as the console script does.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Sequence
from multiprocessing.context import ForkServerProcess
from pathlib import Path
from typing import Any

import httpx
from serve_child import run_serve
from serving import free_port, wait_until

#: The forkserver ``serving`` set up (importing it registered the preloaded modules).
_CONTEXT = multiprocessing.get_context("forkserver")

__all__ = ["WalletProcess"]


class WalletProcess:
    """One operator's reference wallet; ``start`` after ``kill`` keeps its database and port."""

    def __init__(
        self,
        workdir: Path,
        operator_id: str,
        secret: bytes,
        *,
        game_url: str = "http://127.0.0.1:9",
        options: Sequence[str] = (),
    ) -> None:
        self.workdir = workdir
        self.operator_id = operator_id
        self.secret = secret
        self.game_url = game_url
        self.options = list(options)
        self.db = workdir / f"wallet-{operator_id}.db"
        #: Chosen once: the game server calls ``url`` whatever became of the process.
        self.port = free_port()
        self.process: ForkServerProcess | None = None
        self.starts = 0
        self._http = httpx.Client(base_url=self.url, timeout=30.0)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def stderr_path(self) -> Path:
        return self.workdir / f"wallet-{self.operator_id}-{self.starts}.err"

    def start(self, timeout: float = 30.0) -> WalletProcess:
        self.starts += 1
        secret_file = self.workdir / f"wallet-{self.operator_id}.secret"
        secret_file.write_text(self.secret.hex())
        secret_file.chmod(0o600)
        argv = [
            *("wallet", "reference", "--db", str(self.db)),
            *("--operator-id", self.operator_id, "--secret-file", str(secret_file)),
            *("--game-url", self.game_url, "--port", str(self.port), *self.options),
        ]
        out = self.workdir / f"wallet-{self.operator_id}-{self.starts}.out"
        self.process = _CONTEXT.Process(
            target=run_serve,
            args=(argv, dict(os.environ), str(out), str(self.stderr_path)),
            name=f"wallet-{self.operator_id}",
        )
        self.process.start()
        wait_until(self._up, timeout, f"the wallet of {self.operator_id} on port {self.port}")
        return self

    def _up(self) -> bool:
        assert self.process is not None
        if not self.process.is_alive():
            text = self.stderr_path.read_text(errors="replace")[-2000:]
            raise AssertionError(f"the wallet exited with {self.process.exitcode}: {text}")
        try:
            return self._http.get("/admin/health", timeout=1.0).status_code == 200
        except httpx.HTTPError:
            return False

    def alive(self) -> bool:
        return self.process is not None and self.process.is_alive()

    def kill(self) -> None:
        """``kill -9``: what it committed stays, what it was doing is lost."""
        if self.process is not None and self.process.pid is not None and self.alive():
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.join(10)

    def stop(self) -> None:
        """SIGINT, as Ctrl-C (killed if it takes over 10 s)."""
        if self.process is None or self.process.pid is None or not self.alive():
            return
        os.kill(self.process.pid, signal.SIGINT)
        self.process.join(10)
        if self.alive():
            self.kill()

    def close(self) -> None:
        self.kill()
        self._http.close()

    # -- the admin (loopback, unsigned) -------------------------------------------------

    def admin(self, method: str, path: str, body: Any = None) -> Any:
        response = self._http.request(method, path, json=body)
        assert response.status_code == 200, f"{method} {path}: {response.text}"
        return response.json()

    def player(self, player_id: str, balance: int, currency: str = "USD") -> None:
        body = {"player_id": player_id, "balance": balance, "currency": currency}
        self.admin("POST", "/admin/players", body)

    def balance(self, player_id: str) -> int:
        found: int = self.admin("GET", f"/admin/players/{player_id}")["balance"]
        return found

    def transactions(self) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = self.admin("GET", "/admin/transactions")
        return rows

    def faults(self, **faults: Any) -> None:
        """Change the faults in force (``PUT /admin/faults``: latency_ms, error_rate, ...)."""
        self.admin("PUT", "/admin/faults", faults)

    def no_faults(self) -> None:
        self.faults(latency_ms=0, timeout_rate=0.0, error_rate=0.0, drop_rate=0.0)

    def launch(self, player_id: str, **more: Any) -> httpx.Response:
        """The operator's signed launch of its player at the game (``POST /admin/launch``):
        the game's answer, as the wallet hands it back."""
        return self._http.post("/admin/launch", json={"player_id": player_id, **more})
