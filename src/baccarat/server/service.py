"""The running service: database, bet queue, table mirrors, the tables' runtimes, metrics.

One ``Service`` lives on ``app.state.service``; the routers reach it through ``deps``.
Every table has a mirror here (``tables``: what the API shows and the feed sends). Alone,
the service runs every table's runtime (``baccarat.live``) itself and hands each broadcast
straight to its mirror. As one node of a cluster (``config.cluster``) it runs only the
tables whose lease it holds (``baccarat.live.lease_keeper``), the broadcasts of every table
reach its mirrors through Redis (``fanout``), and so do the commands for a table dealt by
another node (``baccarat.live.redis_channel``); see ``docs/deployment.md``.

The service is the runtime's adapter: actions send commands (``commands``), and each table's
events go out to the feed (``live.TableFeed``), the integrity monitor and the metrics, each a
subscriber of the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from functools import partial
from typing import TYPE_CHECKING

from sqlalchemy import Connection, text

from baccarat.live.cancelling import stop_tasks
from baccarat.live.channel import CommandChannel, Runtimes
from baccarat.live.dealer import Dealer
from baccarat.live.events import LiveEvent, RoundCancelled, RoundPaid
from baccarat.live.lease_keeper import Held, LeaseKeeper
from baccarat.live.redis_channel import RedisChannel
from baccarat.live.table import LiveTable
from baccarat.refusals import Refusal, RefusalCode
from baccarat.rulesets import RuleSet, load_ruleset
from baccarat.server.anchor import AnchorWriter
from baccarat.server.auth import TokenBook
from baccarat.server.bet_queue import BetQueue
from baccarat.server.broadcast import Broadcast
from baccarat.server.clock import Clock, SystemClock, VirtualClock
from baccarat.server.config import Settings
from baccarat.server.devices import device_key
from baccarat.server.errors import refused
from baccarat.server.events import BalanceMessage
from baccarat.server.fanout import LocalFanout, RedisFanout
from baccarat.server.integrity_watch import IntegrityWatch
from baccarat.server.live import Outlet, TableFeed
from baccarat.server.metrics import Metrics
from baccarat.server.mirror import TableMirror
from baccarat.server.outbox_sender import OutboxSender
from baccarat.server.pause import observer as pause_observer
from baccarat.server.presence import Presence
from baccarat.server.provider_bets import ProviderBets
from baccarat.server.quiet_gc import QuietCollector
from baccarat.server.store_threads import StoreRunner
from baccarat.store import Database, upgrade
from baccarat.store.clock import db_now
from baccarat.store.keyfile import KeySource
from baccarat.store.leases import add_leases, fence
from baccarat.store.ledger import DEMO_BANK, WORLD, ensure_accounts
from baccarat.store.pseudonyms import record_key
from baccarat.store.seal import SeedVault
from baccarat.store.shoes import register_table, seal_open_shoes
from baccarat.store.undealt import UndealtRound, finish_undealt_tables
from baccarat.table import Phase, TableSettings
from baccarat.wallet.client import WalletClient

if TYPE_CHECKING:
    from redis.asyncio import Redis

__all__ = ["Service"]

#: An arbitrary key of the advisory lock nodes take to register the tables one at a time.
_REGISTER_LOCK = 7_240_001

log = logging.getLogger("baccarat.server")


class Service:
    """Everything one server holds while it runs."""

    def __init__(self, config: Settings, clock: Clock) -> None:
        self.config = config
        #: The one clock: the dealers' pacing (betting windows, reveal and result pauses),
        #: sessions and responsible gaming (on the bet path too), presence. A betting window
        #: closes by the database's clock (``db_now``), which a ``VirtualClock`` replaces.
        self.clock = clock
        self.metrics = Metrics()
        #: Every table as this node shows it (whoever deals it).
        self.tables: dict[str, TableMirror] = {}
        #: The tables this node deals now: their runtimes (``baccarat.live``) and feeds.
        self.runtimes = Runtimes()
        self.feeds: dict[str, TableFeed] = {}
        #: Where commands for a table go: its runtime here, or the node that deals it.
        self.commands: CommandChannel = self.runtimes
        #: The integrity monitor of the tables this node deals (set at start).
        self.integrity: IntegrityWatch | None = None
        self.lease_keeper: LeaseKeeper | None = None
        self._lease_task: asyncio.Task[None] | None = None
        self.presence: Presence | None = None
        self._redis: Redis | None = None
        self._fanout: LocalFanout | RedisFanout | None = None
        self._vault: SeedVault | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._runner: StoreRunner | None = None
        self._bet_queue: BetQueue | None = None
        self._tokens: TokenBook | None = None
        self._collector: QuietCollector | None = None
        self._anchor: AnchorWriter | None = None
        self._device_key: bytes | None = None
        #: The one client of every operator's wallet (provider mode), pooled.
        self._wallet: WalletClient | None = None
        #: Operators' players' stakes through their wallets, and the credits and rollbacks
        #: sent to them (provider mode, set at start).
        self._provider_bets: ProviderBets | None = None
        self.outbox: OutboxSender | None = None

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
    def vault(self) -> SeedVault:
        """The seed keys' vault: shoe seeds and operators' secrets are sealed with it."""
        assert self._vault is not None, "the service is not started"
        return self._vault

    @property
    def wallet(self) -> WalletClient:
        """The client of operators' wallets (provider mode)."""
        assert self._wallet is not None, "the service is not started"
        return self._wallet

    @property
    def provider_bets(self) -> ProviderBets:
        """The bet path of operators' players (``server.provider_bets``)."""
        assert self._provider_bets is not None, "the service is not started"
        return self._provider_bets

    @property
    def dialect(self) -> str:
        return self.runner.database.dialect

    def rulesets(self) -> dict[str, RuleSet]:
        """The rules each table deals by now (its current shoe's)."""
        return {table_id: live.ruleset for table_id, live in self.tables.items()}

    @property
    def node_id(self) -> str | None:
        return None if self.config.cluster is None else self.config.cluster.node_id

    def dealing(self) -> list[str]:
        """The tables this node deals now."""
        if self.lease_keeper is not None:
            return self.lease_keeper.dealing()
        return sorted(self.runtimes.dealers)

    def table(self, table_id: str) -> TableMirror:
        """The table as this node shows it, or a 404 (a 503 before its first state)."""
        mirror = self.tables.get(table_id)
        if mirror is None:
            raise refused(Refusal(RefusalCode.TABLE_NOT_FOUND, f"there is no table {table_id!r}"))
        if not mirror.ready.is_set():
            message = f"table {table_id!r} is starting: try again"
            raise refused(Refusal(RefusalCode.TABLE_STARTING, message))
        return mirror

    async def start(self) -> None:
        """Open and migrate the database, register the tables, start the bet queue and the dealers."""
        cluster = self.config.cluster
        idle_ms = None if cluster is None else cluster.lease_ms
        # A virtual clock (a test's server, alone) is the database's clock too: the bet path's
        # ``db_now`` reads it, so a window closes when the test moves time past its deadline.
        virtual = self.clock.now_ms if isinstance(self.clock, VirtualClock) else None
        database = Database(self.config.database_url, idle_in_transaction_ms=idle_ms, clock=virtual)
        await asyncio.to_thread(database.ping)
        await asyncio.to_thread(upgrade, database)
        self._runner = StoreRunner(database)
        self._tokens = TokenBook(self._runner, self.clock, idle_ms=self.config.session_idle_ms)
        self._bet_queue = BetQueue(
            self._runner,
            sessions=self._tokens,
            max_batch=self.config.max_batch,
            on_batch=self.metrics.batch_size.observe,
        )
        rulesets = {s.table_id: load_ruleset(s.ruleset) for s in self.config.tables}

        def register(c: Connection) -> None:
            if c.dialect.name == "postgresql":  # nodes starting together take turns
                c.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _REGISTER_LOCK})
            now = db_now(c)
            for settings in self.config.tables:
                register_table(c, settings.table_id, settings.ruleset, settings.to_json(), now)
            add_leases(c, [settings.table_id for settings in self.config.tables])
            # The two sources of money exist before any request: two nodes creating their first
            # players at once would otherwise both insert them.
            ensure_accounts(c, {WORLD: WORLD, DEMO_BANK: DEMO_BANK}, now)

        await self.runner.write(register)
        await self._finish_undealt_tables()
        # Shoe seeds are sealed at rest; a database from before sealing is sealed now, and a
        # seed no loaded key opens stops the start here rather than in a dealer.
        vault = KeySource(self.config.seed_key_file).vault()
        await self.runner.write(lambda c: seal_open_shoes(c, vault))
        self._vault = vault
        # Signed by the wall clock, never a test's virtual one: a wallet checks the timestamp.
        # (A test may have given its own client before the start.)
        if self._wallet is None:
            self._wallet = WalletClient()
        self._provider_bets = ProviderBets(self.runner, self.tokens, self._wallet, vault)
        self._bet_queue.start()
        # The outbox is sent from every node; it first rolls back the debits a crash left
        # pending (``server.outbox_sender``). A disabled operator is still paid what it owes.
        self.outbox = OutboxSender(
            self.runner,
            self._wallet,
            self._provider_bets.payout_endpoint,
            notify=self._tell_balance,
        )
        self._tasks.append(asyncio.create_task(self.outbox.run(), name="outbox-sender"))
        self.integrity = IntegrityWatch(self.runner, self.metrics, self.clock)
        self._tasks.append(asyncio.create_task(self.integrity.run(), name="integrity-watch"))
        for settings in self.config.tables:
            self.tables[settings.table_id] = TableMirror(
                settings, rulesets[settings.table_id], self.clock
            )
        if cluster is None:
            await self._deal_alone()
        else:
            await self._join_cluster()
        self._collector = QuietCollector(
            self.nobody_betting,
            SystemClock(),  # the machine's memory, not the game's time: never virtual
            clients=lambda: sum(len(mirror.clients) for mirror in self.tables.values()),
            on_pause=self.metrics.gc_pause.observe,
        )
        self._collector.install()  # what start-up built is long-lived: freeze it now
        self._tasks.append(asyncio.create_task(self._collector.run(), name="quiet-collector"))
        if self.lease_keeper is not None:
            # Leases only once start-up's long steps are done: a lease's clock runs from
            # its first beat. A table whose dealer is not up yet answers 503 until it is.
            self._lease_task = asyncio.create_task(self.lease_keeper.run(), name="leases")
        if self.config.audit_anchor is not None:
            self._anchor = AnchorWriter(
                self.config.audit_anchor, self.config.audit_anchor_seconds, self.runner, self.clock
            )
            await self._anchor.start()
            self._tasks.append(asyncio.create_task(self._anchor.run(), name="audit-anchor"))

    async def device_key(self) -> bytes:
        """The key of device tokens (``server.devices``), the same on every node."""
        if self._device_key is None:
            self._device_key = device_key(await self.runner.read(record_key))
        return self._device_key

    def _dealer(self, settings: TableSettings, outlet: Outlet, seq: int = 0) -> Dealer:
        """A runtime of the table: its live table's events go to a feed handing its broadcasts
        to ``outlet``, to the integrity monitor and to the metrics."""
        assert self._vault is not None
        mirror = self.tables[settings.table_id]
        ruleset = load_ruleset(settings.ruleset)
        table = LiveTable(settings, ruleset)
        feed = TableFeed(table, self.clock, outlet=outlet, audience=mirror.audience, seq=seq)
        table.subscribers.add(self._count_round)
        table.subscribers.add(self._watch_round)
        pause = pause_observer()  # the crash tests' observer, when ``serve`` installed it
        dealer = Dealer(
            table,
            ruleset,
            self.runner,
            self.clock,
            vault=self._vault,
            node_id=self.node_id or "",
            observers=() if pause is None else (pause,),
        )
        self.feeds[settings.table_id] = feed
        return dealer

    def _count_round(self, event: LiveEvent) -> None:
        if isinstance(event, RoundPaid):
            self.metrics.rounds.labels(event.table_id, "settled").inc()
        elif isinstance(event, RoundCancelled):
            self.metrics.rounds.labels(event.table_id, "voided").inc()

    def _watch_round(self, event: LiveEvent) -> None:
        if isinstance(event, RoundPaid) and self.integrity is not None:
            self.integrity.observe(
                event.table_id,
                event.ruleset,
                round_id=event.row.id,
                shoe_id=event.row.shoe_id,
                coup=event.coup,
                before=event.before,
                players=event.players,
            )

    async def _deal_alone(self) -> None:
        """Deal every table here, each broadcast straight to its mirror."""
        fanout = LocalFanout(self.tables)
        self._fanout = fanout
        dealers = []
        for settings in self.config.tables:
            dealer = self._dealer(settings, fanout.publish)
            dealers.append(dealer)
            self.tables[settings.table_id].on_audience = self.feeds[
                settings.table_id
            ].audience_changed
            self.runtimes.attach(dealer)
            self._tasks.append(
                asyncio.create_task(dealer.run(), name=f"dealer-{settings.table_id}")
            )
        # Serve once every table has restored its state and voided the rounds without cards, so
        # no request sees a stale round and no bet lands in a round about to be voided. A round
        # with stored cards is revealed and settled after: the players connected see it.
        await asyncio.gather(*(dealer.ready.wait() for dealer in dealers))

    async def _join_cluster(self) -> None:
        """Read every table's state from Redis, keep presence, take this node's share."""
        from redis.asyncio import Redis

        cluster = self.config.cluster
        assert cluster is not None
        redis = Redis.from_url(cluster.redis_url, socket_timeout=5, socket_connect_timeout=2)
        self._redis = redis
        fanout = RedisFanout(
            redis, cluster.prefix, self.tables, on_outbox=self.metrics.feed_outbox.set
        )
        self._fanout = fanout
        presence = Presence(redis, cluster.prefix, cluster.node_id, self.tables, clock=self.clock)
        self.presence = presence
        for mirror in self.tables.values():
            mirror.whole_audience = partial(presence.total, mirror.id)
        presence.on_total = self._audience_total_changed
        self.tokens.shared, self.tokens.shared_prefix = redis, cluster.prefix
        self.tokens.shared_ms = max(self.config.session_lifetime_ms, self.config.guest_lifetime_ms)
        try:
            await fanout.catch_up()
            await presence.beat()
        except Exception as error:  # Redis away at start: the tasks below keep trying
            log.warning("redis unavailable at start (%s); retrying", error)
        channel = RedisChannel(redis, cluster.prefix, cluster.node_id, self.runtimes)
        self.commands = channel
        self._tasks.append(asyncio.create_task(fanout.run_reader(), name="feed-reader"))
        self._tasks.append(asyncio.create_task(fanout.run_writer(), name="feed-writer"))
        self._tasks.append(asyncio.create_task(presence.run(), name="presence"))
        self._tasks.append(asyncio.create_task(channel.run(), name="commands"))
        keeper = LeaseKeeper(
            self.runner.database,
            cluster.node_id,
            [settings.table_id for settings in self.config.tables],
            cluster.lease_ms,
            nodes_up=lambda: len(presence.nodes),
            start_dealer=self._deal_held,
            on_change=self._lease_changed,
        )
        self.lease_keeper = keeper

    def _lease_changed(self, table_id: str, change: str, held: bool) -> None:
        self.metrics.lease_changes.labels(table_id, change).inc()
        self.metrics.leases.labels(table_id).set(1 if held else 0)

    def _deal_held(self, held: Held) -> asyncio.Task[None]:
        """Start dealing a table whose lease this node has just taken."""
        assert isinstance(self._fanout, RedisFanout)
        fanout = self._fanout
        settings = next(s for s in self.config.tables if s.table_id == held.table_id)
        mirror = self.tables[held.table_id]

        def outlet(broadcast: Broadcast) -> None:
            # Only under a lease still valid by this node's clock: a node that was paused
            # past it says nothing more (its next write is refused by the fence).
            if held.valid():
                fanout.publish(broadcast)

        def guard(connection: Connection) -> None:
            held.check()
            fence(connection, held.table_id, held.epoch)

        dealer = self._dealer(settings, outlet, seq=mirror.seq)
        feed = self.feeds[held.table_id]
        dealer.fence = guard
        held.dealer = dealer
        self.runtimes.attach(dealer)

        async def deal() -> None:
            try:
                latest = await fanout.latest(held.table_id)
                if latest is not None and latest.seq > feed.seq:
                    feed.seq = latest.seq
            except Exception as error:  # Redis away: go on from this node's mirror
                log.warning("cannot read the feed of %s (%s)", held.table_id, error)
            try:
                await dealer.run()
            finally:
                if self.runtimes.dealers.get(held.table_id) is dealer:
                    self.runtimes.detach(dealer)
                    if self.feeds.get(held.table_id) is feed:
                        del self.feeds[held.table_id]

        return asyncio.create_task(deal(), name=f"dealer-{held.table_id}")

    def _audience_total_changed(self, table_id: str) -> None:
        feed = self.feeds.get(table_id)
        if feed is not None:
            feed.audience_changed()

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

    def _tell_balance(self, player_id: str, balance: int, currency: str) -> None:
        """Tell the player's pages on this node their wallet's balance after a credit."""
        text = BalanceMessage(balance=balance, currency=currency).text()
        for mirror in self.tables.values():
            for client in list(mirror.clients):
                if client.player_id == player_id:
                    client.send(text)

    def nobody_betting(self) -> bool:
        """No table is open for bets right now."""
        return all(mirror.phase is not Phase.OPEN for mirror in self.tables.values())

    async def _close_redis(self) -> None:
        if self._redis is not None:
            with contextlib.suppress(Exception):
                await self._redis.aclose()

    async def stop(self) -> None:
        if self._lease_task is not None:  # first: it would start a dealer while we stop
            self._lease_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._lease_task
        if self.lease_keeper is not None:
            await self.lease_keeper.stop()  # other nodes take the tables over at once
        if self.presence is not None:
            with contextlib.suppress(Exception):
                await self.presence.leave()
        stuck = await stop_tasks(self._tasks, unblock=self._close_redis)
        if stuck:
            log.warning("left running at stop: %s", ", ".join(t.get_name() for t in stuck))
        if self._bet_queue is not None:
            await self._bet_queue.stop()
        for mirror in self.tables.values():
            for client in list(mirror.clients):
                client.drop(1001, "the server is stopping")
        await self._close_redis()
        if self._collector is not None:
            self._collector.uninstall()
        if self._anchor is not None:
            try:
                await self._anchor.anchor()
            except Exception as error:  # stopping goes on; the last anchor is older
                log.error("cannot anchor the audit log at shutdown: %s", error)
        if self._wallet is not None:
            await self._wallet.aclose()
        if self._runner is not None:
            await asyncio.to_thread(self._runner.close)
