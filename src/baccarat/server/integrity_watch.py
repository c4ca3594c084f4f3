"""The integrity monitor of every table this node deals, fed as rounds settle.

The dealer hands each settled round over (``observe``: the coup, the cards left before its
deal, each player's stakes) without waiting: a task of its own takes the rounds in order,
runs the pure monitor (``baccarat.integrity.monitor.observe_round``) in a thread, keeps
each table's state in memory, stores the alerts it raised (``baccarat.store.
integrity_alerts``) and sets the Prometheus metrics (open alerts per table and kind, alerts
raised). A failure is logged and the table goes on: the monitor watches, it never stops a
game.

The state is this node's: after a restart (or when another node takes a table over) the
counts start again from the next round, while the stored alerts stay.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from baccarat.analysis.exact.counts import CardCounts
from baccarat.coup import Coup
from baccarat.integrity.monitor import Alert, RoundSeen, TableMonitor, observe_round, summary
from baccarat.rulesets import RuleSet
from baccarat.server.clock import Clock
from baccarat.server.metrics import Metrics
from baccarat.server.store_threads import StoreRunner
from baccarat.store.integrity_alerts import add_alerts, alerts_of
from baccarat.store.settlement import PlayerSettlement

__all__ = ["IntegrityWatch", "Settled"]

log = logging.getLogger("baccarat.server")
#: Rounds waiting for the monitor, at most; past it a round is dropped (and logged).
BACKLOG = 10_000


@dataclass(frozen=True, slots=True)
class Settled:
    """One settled round, as the dealer hands it over."""

    table_id: str
    ruleset: RuleSet
    round_id: int
    shoe_id: str
    coup: Coup
    #: The cards left before the deal; ``None`` for a round resumed after a restart.
    before: CardCounts | None
    bets: Mapping[str, Mapping[str, int]]
    at_ms: int


class IntegrityWatch:
    """Each table's monitor state, and the task that feeds it."""

    def __init__(self, runner: StoreRunner, metrics: Metrics, clock: Clock) -> None:
        self.runner = runner
        self.metrics = metrics
        self.clock = clock
        self.states: dict[str, TableMonitor] = {}
        self._queue: asyncio.Queue[Settled] = asyncio.Queue(BACKLOG)
        #: Rounds taken in and rounds observed (a test waits for the second to catch up).
        self.received = 0
        self.observed = 0

    def observe(
        self,
        table_id: str,
        ruleset: RuleSet,
        *,
        round_id: int,
        shoe_id: str,
        coup: Coup,
        before: CardCounts | None,
        players: Mapping[str, PlayerSettlement],
    ) -> None:
        """Take a settled round (never waits)."""
        bets = {
            player: {bet: int(spot["stake"]) for bet, spot in settlement.spots.items()}
            for player, settlement in players.items()
        }
        item = Settled(
            table_id, ruleset, round_id, shoe_id, coup, before, bets, self.clock.now_ms()
        )
        try:
            self._queue.put_nowait(item)
            self.received += 1
        except asyncio.QueueFull:
            log.warning("integrity: table %s round %d not observed (backlog)", table_id, round_id)

    async def run(self) -> None:
        """Observe every round taken in, in order, until cancelled."""
        while True:
            item = await self._queue.get()
            try:
                await self._observe(item)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("integrity: table %s round %d", item.table_id, item.round_id)
            finally:
                self.observed += 1

    async def _observe(self, item: Settled) -> None:
        known = self.states.get(item.table_id)
        seen = RoundSeen(
            item.round_id,
            item.shoe_id,
            item.coup,
            item.before if item.before is not None else CardCounts.full(item.ruleset.decks),
            item.bets if item.before is not None else {},
            # A resumed round's cards before it are not known here: frequencies only.
            evs=None if item.before is not None else {},
        )

        def observe() -> tuple[TableMonitor, tuple[Alert, ...]]:
            # A monitor's start computes the exact reference of its rule set (a fifth of a
            # second in fractions): in the thread too, never on the event loop.
            start = (known or TableMonitor.start(item.table_id, item.ruleset)).with_ruleset(
                item.ruleset
            )
            return observe_round(start, seen, now_ms=item.at_ms)

        state, alerts = await asyncio.to_thread(observe)
        self.states[item.table_id] = state
        for kind, count in state.open_by_kind().items():
            self.metrics.integrity_open.labels(item.table_id, kind).set(count)
        if not alerts:
            return
        rows = [alert.to_json() for alert in alerts]
        for alert in alerts:
            self.metrics.integrity_alerts.labels(item.table_id, alert.kind).inc()
            log.warning(
                "integrity alert: table %s %s %s %s (p=%.2e)",
                item.table_id,
                alert.kind,
                alert.scope,
                alert.subject,
                alert.p_value,
            )
        await self.runner.write(lambda c: add_alerts(c, rows))

    async def integrity_status(self, table_id: str, limit: int = 200) -> dict[str, Any]:
        """What the back office shows of a table: its frequency statistics per shoe and
        cumulative, every player's score on every side bet, the open alerts (from memory:
        this node's counts) and the stored alerts, latest first."""
        state = self.states.get(table_id)
        stored = await self.runner.read(lambda c: alerts_of(c, table_id, limit))
        if state is None:
            view: dict[str, Any] = {
                "table": table_id,
                "rounds": 0,
                "frequencies": {"shoe": [], "cumulative": []},
                "players": [],
                "open_alerts": [],
            }
        else:
            view = summary(state)
        view["alerts"] = stored
        return view
