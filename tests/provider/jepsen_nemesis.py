"""The nemesis of the Jepsen-style provider tests: the wallet's faults, kills, and the drain.

``Nemesis`` works on a ``jepsen_support.Casino``: it sets the reference wallet's faults
(``PUT /admin/faults``, set again after a wallet restart), ``kill -9``s a node or the wallet
while a debit is in flight at the wallet (``kill_during``: the game holds a debit ``pending``),
and, once the faults are off, waits for the system to come to rest (``drain``: every debit
answered or swept, every credit and rollback landed), moving a virtual clock where there is
one. It also counts the CPU seconds the processes used, the killed ones included.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any, NamedTuple

from jepsen_support import Casino
from serving import wait_until
from sqlalchemy import func, select

from baccarat.store.schema import wallet_transactions
from baccarat.store.wallet_calls import PENDING_GRACE_MS

__all__ = ["Nemesis", "Unended"]

_W = wallet_transactions


class Unended(NamedTuple):
    """The game's calls not yet ended: debits ``pending`` (sent, or about to be) and the
    oldest one's time; credits and rollbacks ``queued`` and when the first is due."""

    pending: int
    oldest_pending: int | None
    queued: int
    next_due: int | None


class Nemesis:
    """The trouble made to one casino (see the module)."""

    def __init__(self, casino: Casino) -> None:
        self.casino = casino
        #: The wallet's faults in force (set again whenever the wallet restarts).
        self.faults: dict[str, Any] = {}
        self._cpu_of_killed = 0.0

    def set_faults(self, **faults: Any) -> None:
        """Put the wallet's faults to ``faults`` (the others off)."""
        self.faults = {"latency_ms": 0, "error_rate": 0.0, "timeout_rate": 0.0, "drop_rate": 0.0}
        self.faults.update(faults)
        self.casino.wallet.faults(**self.faults)

    def kill_node(self, node: int = 0) -> None:
        self._note_cpu(self.casino.nodes[node].process)
        self.casino.nodes[node].kill()

    def kill_wallet(self) -> None:
        self._note_cpu(self.casino.wallet.process)
        self.casino.wallet.kill()

    def restart_wallet(self) -> None:
        self.casino.wallet.start()
        self.casino.wallet.faults(**self.faults)

    def kill_during(self, work: Callable[[], object], kill: Callable[[], None]) -> None:
        """Run ``work`` in a thread and ``kill`` once a debit is in flight at the wallet (at
        once if ``work`` ends first); then wait for ``work`` to end."""
        thread = threading.Thread(target=work)
        thread.start()
        in_flight = lambda: self.unended().pending > 0 or not thread.is_alive()  # noqa: E731
        wait_until(in_flight, 30, "a debit in flight", step=0.005)
        kill()
        thread.join(60)
        assert not thread.is_alive()

    def unended(self) -> Unended:
        """What the game has not ended yet (read from its database)."""
        with self.casino.database.read() as c:
            pending, oldest = c.execute(
                select(func.count(), func.min(_W.c.created_at)).where(
                    _W.c.kind == "debit", _W.c.state == "pending"
                )
            ).one()
            queued, due = c.execute(
                select(func.count(), func.min(_W.c.next_attempt_at)).where(_W.c.state == "queued")
            ).one()
        return Unended(int(pending), oldest, int(queued), due)

    def drain(self, timeout: float = 60.0) -> None:
        """Wait until every debit is answered or swept and every credit and rollback has
        landed (the faults off). On a virtual clock, the clock is moved to each one's time:
        past a pending debit's timeout and grace (the sweep), to a backoff's end."""

        def ended() -> bool | None:
            left = self.unended()
            if not left.pending and not left.queued:
                return True
            if not self.casino.server.virtual_clock:
                return None
            now = self.casino.server.clock_state()["now_ms"]
            times = [] if left.next_due is None else [left.next_due]
            if left.oldest_pending is not None:
                times.append(left.oldest_pending + self.casino.timeout_ms + PENDING_GRACE_MS)
            if times and min(times) > now:
                self.casino.server.advance(min(times) - now)
            return None  # the senders, which look in real time, send what is due

        wait_until(ended, timeout, "the outbox to drain", step=0.05)

    def processes_cpu(self) -> float:
        """CPU seconds the nodes and the wallet used, the processes killed included."""
        processes = [node.process for node in self.casino.nodes] + [self.casino.wallet.process]
        running = [process for process in processes if process is not None]
        return self._cpu_of_killed + sum(_cpu_seconds(process) for process in running)

    def _note_cpu(self, process: BaseProcess | None) -> None:
        if process is not None:
            self._cpu_of_killed += _cpu_seconds(process)


def _cpu_seconds(process: BaseProcess) -> float:
    """User and system CPU time of a live process (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{process.pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
