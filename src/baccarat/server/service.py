"""The running service: database, bet queue, live tables and their dealers, metrics.

One ``Service`` lives on ``app.state.service``; the routers reach it through ``deps``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from sqlalchemy import Connection

from baccarat.rulesets import RuleSet, load_ruleset
from baccarat.server.anchor import AnchorWriter
from baccarat.server.auth import TokenBook
from baccarat.server.bet_queue import BetQueue
from baccarat.server.clock import Clock
from baccarat.server.config import ServerConfig
from baccarat.server.dealer import Dealer
from baccarat.server.errors import ApiError
from baccarat.server.live import LiveTable
from baccarat.server.metrics import Metrics
from baccarat.server.quiet_gc import QuietCollector
from baccarat.server.store_threads import StoreRunner
from baccarat.store import Database, upgrade
from baccarat.store.clock import db_now
from baccarat.store.keyfile import KeySource
from baccarat.store.shoes import register_table, seal_open_shoes
from baccarat.store.undealt import UndealtRound, finish_undealt_tables
from baccarat.table import Phase

__all__ = ["Service"]

log = logging.getLogger("baccarat.server")


class Service:
    """Everything one server holds while it runs."""

    def __init__(
        self,
        config: ServerConfig,
        clock: Clock,
        *,
        policy_clock: Clock | None = None,
    ) -> None:
        self.config = config
        #: The dealers' clock (betting windows, reveal pauses).
        self.clock = clock
        #: The clock of sessions and responsible gaming (limits, breaks, session time), on
        #: the bet path too; tests move it days ahead without moving the dealers.
        self.policy_clock = policy_clock or clock
        self.metrics = Metrics()
        self.tables: dict[str, LiveTable] = {}
        self.dealers: dict[str, Dealer] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._runner: StoreRunner | None = None
        self._bet_queue: BetQueue | None = None
        self._tokens: TokenBook | None = None
        self._collector: QuietCollector | None = None
        self._anchor: AnchorWriter | None = None

    @property
    def runner(self) -> StoreRunner:
        assert self._runner is not None, "the service is not started"
        return self._runner

    @property
    def bet_queue(self) -> BetQueue:
        assert self._bet_queue is not None, "the service is not started"
        return self._bet_queue

    @property
    def tokens(self) -> TokenBook:
        assert self._tokens is not None, "the service is not started"
        return self._tokens

    @property
    def dialect(self) -> str:
        return self.runner.database.dialect

    def rulesets(self) -> dict[str, RuleSet]:
        """The rules each table deals by now (its current shoe's)."""
        return {table_id: live.ruleset for table_id, live in self.tables.items()}

    def table(self, table_id: str) -> LiveTable:
        """The live table, or a 404."""
        live = self.tables.get(table_id)
        if live is None:
            raise ApiError(404, "table_not_found", f"there is no table {table_id!r}")
        return live

    async def start(self) -> None:
        """Open and migrate the database, register the tables, start the bet queue and the dealers."""
        database = Database(self.config.database_url)
        await asyncio.to_thread(database.ping)
        await asyncio.to_thread(upgrade, database)
        self._runner = StoreRunner(database)
        self._tokens = TokenBook(
            self._runner, self.policy_clock, idle_ms=self.config.session_idle_ms
        )
        self._bet_queue = BetQueue(
            self._runner,
            self.rulesets,
            sessions=self._tokens,
            max_batch=self.config.max_batch,
            on_batch=self.metrics.batch_size.observe,
        )
        rulesets = {s.table_id: load_ruleset(s.ruleset) for s in self.config.tables}

        def register(c: Connection) -> None:
            now = db_now(c)
            for settings in self.config.tables:
                register_table(c, settings.table_id, settings.ruleset, settings.to_json(), now)

        await self.runner.write(register)
        await self._finish_undealt_tables()
        # Shoe seeds are sealed at rest; a database from before sealing is sealed now, and a
        # seed no loaded key opens stops the start here rather than in a dealer.
        vault = KeySource(self.config.seed_key_file).vault()
        await self.runner.write(lambda c: seal_open_shoes(c, vault))
        self._bet_queue.start()
        for settings in self.config.tables:
            live = LiveTable(settings, rulesets[settings.table_id], self.clock)
            dealer = Dealer(
                live,
                rulesets[settings.table_id],
                self.runner,
                self.clock,
                self.metrics,
                vault=vault,
            )
            self.tables[settings.table_id] = live
            self.dealers[settings.table_id] = dealer
            self._tasks.append(
                asyncio.create_task(dealer.run(), name=f"dealer-{settings.table_id}")
            )
        # Serve once every table has restored its state and voided the rounds without cards, so
        # no request sees a stale round and no bet lands in a round about to be voided. A round
        # with stored cards is revealed and settled after: the players connected see it.
        await asyncio.gather(*(dealer.ready.wait() for dealer in self.dealers.values()))
        self._collector = QuietCollector(
            self.nobody_betting, self.clock, on_pause=self.metrics.gc_pause.observe
        )
        self._collector.install()  # what start-up built is long-lived: freeze it now
        self._tasks.append(asyncio.create_task(self._collector.run(), name="quiet-collector"))
        if self.config.audit_anchor is not None:
            self._anchor = AnchorWriter(
                self.config.audit_anchor, self.config.audit_anchor_every, self.runner, self.clock
            )
            await self._anchor.start()
            self._tasks.append(asyncio.create_task(self._anchor.run(), name="audit-anchor"))

    async def _finish_undealt_tables(self) -> None:
        """Finish the rounds in play of tables this server does not deal (nobody watches them)."""
        dealt = [settings.table_id for settings in self.config.tables]

        def run(c: Connection) -> list[UndealtRound]:
            return finish_undealt_tables(c, dealt, db_now(c))

        for round_ in await self.runner.write(run):
            self.metrics.rounds.labels(round_.table_id, round_.phase.value).inc()
            log.info(
                "table %s is no longer dealt: round %d %s",
                round_.table_id,
                round_.round_id,
                round_.phase.value,
            )

    def nobody_betting(self) -> bool:
        """No table is open for bets right now."""
        return all(live.phase is not Phase.OPEN for live in self.tables.values())

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._bet_queue is not None:
            await self._bet_queue.stop()
        for live in self.tables.values():
            for client in list(live.clients):
                client.drop(1001, "the server is stopping")
        if self._collector is not None:
            self._collector.uninstall()
        if self._anchor is not None:
            try:
                await self._anchor.anchor(force=True)
            except Exception as error:  # stopping goes on; the last anchor is older
                log.error("cannot anchor the audit log at shutdown: %s", error)
        if self._runner is not None:
            await asyncio.to_thread(self._runner.close)
