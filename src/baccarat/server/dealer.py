"""The dealer of one table: shoes, rounds, the reveal and the settlement, forever.

Per round: open with a deadline (database time), close at the deadline, draw the coup
from the fair shoe and store its cards, reveal them one by one (each recorded in the round's
``revealed`` just after its event, so the stored views never run ahead of the feed), settle
every bet in one transaction. The shoe's commitment is published before its first round; its
server seed after its last. A face-down table squeezes each card (a ``squeeze`` event without
the card, a pause) before turning it. On start, and after any failure, the dealer first
rebuilds its state from the database and finishes what was left (``baccarat.table.recovery``).

The dealer decides nothing about a round: every step is the round's state machine's
(``baccarat.table.Round``), through the store for the steps that are stored. The dealer keeps
the time (deadlines, pauses) and hands the events each step returned to the live table.
It also reports named checkpoints of a round with bets (``baccarat.server.pause``), which
only the crash tests listen to.

In a cluster the dealer acts under its node's lease of the table: ``fence`` runs first in
every write transaction (``baccarat.store.leases.fence``) and refuses it once the lease has
gone to another node or lapsed. A fenced dealer stops at once, writing nothing more; the
node that took the table over finishes the round by the same recovery as a restart.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any, TypeVar

from sqlalchemy import Connection

from baccarat.analysis.exact.counts import CardCounts
from baccarat.fair import commitment, new_server_seed
from baccarat.roads import Scoreboard
from baccarat.rulesets import RuleSet, parse_ruleset
from baccarat.server.clock import Clock
from baccarat.server.integrity_watch import IntegrityWatch
from baccarat.server.live import LiveTable, finished_round
from baccarat.server.metrics import Metrics
from baccarat.server.pause import Checkpoint
from baccarat.server.pause import observer as pause_observer
from baccarat.server.store_threads import StoreRunner
from baccarat.shoe import Shoe
from baccarat.store.bet_reads import round_has_bets, round_stakes
from baccarat.store.clock import db_now
from baccarat.store.leases import FencedError
from baccarat.store.ledger import new_id
from baccarat.store.rounds import (
    RoundChange,
    RoundRow,
    close_round,
    get_round,
    last_finished_round,
    open_round,
    record_reveal,
    shoe_rounds,
    store_cards,
    unfinished_rounds,
)
from baccarat.store.seal import SeedVault
from baccarat.store.settlement import SettledRound, VoidedRound, settle_round, void_round
from baccarat.store.shoes import (
    ShoeRow,
    end_shoe,
    fix_client_seed,
    get_shoe,
    last_ended_shoe,
    open_shoe,
    start_shoe,
)
from baccarat.store.table_controls import get_control, take_pending
from baccarat.table import RESTART_VOID_REASON, Phase, recovery_action, turn_order

__all__ = ["Dealer"]

T = TypeVar("T")
#: How often, at most, the open round's stakes per spot are read and sent.
STAKES_EVERY_S = 0.5
#: How often a paused or closed table's dealer asks whether it may open a round again.
CONTROL_POLL_S = 0.25
log = logging.getLogger("baccarat.server")


class Dealer:
    """Runs one table. ``table_ruleset`` applies from the next new shoe."""

    def __init__(
        self,
        live: LiveTable,
        table_ruleset: RuleSet,
        runner: StoreRunner,
        clock: Clock,
        metrics: Metrics,
        *,
        vault: SeedVault,
        fence: Callable[[Connection], None] | None = None,
        node_id: str = "",
        integrity: IntegrityWatch | None = None,
    ) -> None:
        self.live = live
        #: The integrity monitor, handed every settled round (``None``: not watched).
        self.integrity = integrity
        #: Checks, inside each write transaction, that this dealer may still write.
        self.fence = fence
        self.node_id = node_id
        #: Set to stop after the round in play (the table goes to another node).
        self.hand_over = asyncio.Event()
        #: Why a write was refused, once the lease's fence has stopped this dealer.
        self.fenced: str | None = None
        self.vault = vault
        self.table_ruleset = table_ruleset
        self.runner = runner
        self.clock = clock
        self.metrics = metrics
        #: The shoe being dealt, positioned after the last stored coup (``None`` until its
        #: client seed is fixed).
        self.shoe: Shoe | None = None
        self.next_number = 1
        self.ready = asyncio.Event()

    @property
    def table_id(self) -> str:
        return self.live.id

    async def run(self) -> None:
        """Deal until cancelled, fenced off or handed over; after a failure, rebuild from the
        database and go on."""
        while True:
            try:
                resumable = await self.recover()
                self.live.sync()
                self.ready.set()
                await self.resume(resumable)
                while not self.hand_over.is_set():
                    await self._ensure_shoe()
                    if await self._may_open():
                        await self._play_round()
                log.warning("baccarat-node: %s hands %s over", self.node_id, self.table_id)
                return
            except asyncio.CancelledError:
                raise
            except FencedError as fenced:  # its node's lease keeper says so, once
                self.fenced = str(fenced)
                return
            except Exception:
                log.exception("dealer of table %s failed; recovering", self.table_id)
                await self.clock.sleep(1.0)

    async def _write(self, fn: Callable[[Connection], T]) -> T:
        """``fn`` in a write transaction, refused (``FencedError``) if this dealer may not write."""
        fence = self.fence
        if fence is None:
            return await self.runner.write(fn)

        def fenced(connection: Connection) -> T:
            fence(connection)
            return fn(connection)

        return await self.runner.write(fenced)

    # -- recovery --------------------------------------------------------------------

    async def recover(self) -> list[RoundRow]:
        """Load the shoe in play, void every unfinished round without cards; the rounds to resume.

        The voids are done before the server listens (no bet can land in such a round); each
        client that connects later finds the last one in its snapshot's ``last_round``.
        """
        applied = await self.runner.read(lambda c: get_control(c, self.table_id).applied)
        self._use_controls(applied)
        shoe_row = await self.runner.read(lambda c: open_shoe(c, self.table_id, self.vault))
        ended = await self.runner.read(lambda c: last_ended_shoe(c, self.table_id))
        self.live.previous_shoe = None if ended is None else ended.public()
        self.live.begin(None)
        if shoe_row is None:
            self.live.shoe, self.shoe = None, None
            self.live.board = Scoreboard()
        else:
            await self._load_shoe(shoe_row)
        pending = await self.runner.read(lambda c: unfinished_rounds(c, self.table_id))
        resumable: list[RoundRow] = []
        for row in pending:
            action = recovery_action(row.phase, has_cards=row.cards is not None)
            if action == "void":
                await self._void(row, RESTART_VOID_REASON)
            elif action == "resume":
                resumable.append(row)
        last = await self.runner.read(lambda c: last_finished_round(c, self.table_id))
        self.live.last_round = None if last is None else finished_round(last)
        if resumable:
            self.live.begin(resumable[0])
        return resumable

    async def resume(self, resumable: list[RoundRow]) -> None:
        """Reveal and settle each round with stored cards, while the clients watch."""
        for row in resumable:
            log.info("table %s: resuming round %d with its stored cards", self.table_id, row.id)
            self.live.begin(row)
            await self._reveal_and_settle(row)
        shoe_row = self.live.shoe
        if shoe_row is not None and not shoe_row.ended and self.shoe and self.shoe.finished:
            await self._end_shoe()

    async def _load_shoe(self, shoe_row: ShoeRow) -> None:
        rounds = await self.runner.read(lambda c: shoe_rounds(c, shoe_row.id))
        ruleset = parse_ruleset(shoe_row.ruleset_toml)
        self.live.shoe = shoe_row
        self.live.use_ruleset(ruleset)
        self.live.board = Scoreboard()
        self.next_number = max((r.number for r in rounds), default=0) + 1
        self.shoe = None
        self.live.cards_left = 52 * shoe_row.decks
        if shoe_row.client_seed is None:
            return
        self.shoe = shoe_row.fair().shoe(ruleset.shoe)
        pending = 0
        for row in rounds:
            if row.cards is None:
                continue
            coup = self.shoe.deal_coup()
            if coup.cards != row.cards:
                raise RuntimeError(f"round {row.id}: stored cards differ from the shoe's order")
            if row.phase is Phase.SETTLED:
                self.live.board.add_coup(coup)
            else:
                pending += len(coup.cards)
        self.live.cards_left = self.shoe.cards_left + pending

    async def _void(self, row: RoundRow, reason: str) -> None:
        def run(c: Connection) -> VoidedRound | None:
            return void_round(c, row, reason, db_now(c))

        voided = await self._write(run)
        if voided is None:  # finished already
            return
        self.metrics.rounds.labels(self.table_id, "voided").inc()
        log.info("table %s: round %d voided (%s)", self.table_id, row.id, reason)
        own = {player: {"returned": amount} for player, amount in voided.returned.items()}
        # Not the round in play: a client learns of it from the event or its last_round.
        self.live.announce(voided.change.row, voided.change.events, own)

    # -- what operators set (baccarat.store.table_controls) -------------------------

    def _use_controls(self, applied: dict[str, Any] | None) -> None:
        """Deal by the rule set and settings operators applied (``None``: the table's own)."""
        if not applied:
            return
        toml = applied.get("ruleset_toml")
        if toml is not None:
            self.table_ruleset = parse_ruleset(toml)
        if applied.get("settings"):
            self.live.settings = replace(self.live.settings, **applied["settings"])

    async def _may_open(self) -> bool:
        """Whether a new round may open: wait while operators pause or close the table
        (the round in play has finished by now); ``False`` if the table is handed over."""
        while not self.hand_over.is_set():
            status = await self.runner.read(lambda c: get_control(c, self.table_id).status)
            if status == "open":
                return True
            await self.clock.sleep(CONTROL_POLL_S)
        return False

    def staff_void(self, change: RoundChange, own: dict[str, dict[str, Any]]) -> None:
        """Staff voided round ``change.row`` before its cards were drawn (stored already):
        show it; the dealer finds it voided at its next step and deals no coup for it."""
        if self.live.round is not None and self.live.round.id == change.row.id:
            self.live.follow(change, own)
        else:
            self.live.announce(change.row, change.events, own)

    # -- shoes -----------------------------------------------------------------------

    async def _ensure_shoe(self) -> None:
        live_shoe = self.live.shoe
        if live_shoe is not None and not live_shoe.ended:
            if self.shoe is None or not self.shoe.finished:
                return
            await self._end_shoe()
        # What operators changed for the next shoe applies from this one.
        self._use_controls(await self._write(lambda c: take_pending(c, self.table_id, db_now(c))))
        ruleset = self.table_ruleset
        seed, shoe_id = new_server_seed(), new_id()

        def run(c: Connection) -> ShoeRow:
            return start_shoe(
                c,
                shoe_id=shoe_id,
                table_id=self.table_id,
                decks=ruleset.decks,
                ruleset_toml=ruleset.to_toml(),
                server_seed=seed,
                commitment=commitment(seed),
                at=db_now(c),
                vault=self.vault,
            )

        row = await self._write(run)
        self.live.shoe, self.shoe, self.next_number = row, None, 1
        self.live.use_ruleset(ruleset)
        self.live.board = Scoreboard()
        self.live.cards_left = 52 * row.decks
        self.live.begin(None)
        self.live.announce_shoe_start(row)

    async def _end_shoe(self) -> None:
        shoe_row = self.live.shoe
        assert shoe_row is not None
        fair = shoe_row.fair()
        digest = fair.digest

        def run(c: Connection) -> ShoeRow | None:
            end_shoe(c, shoe_row.id, digest, db_now(c), fair.server_seed)
            return get_shoe(c, shoe_row.id)

        ended = await self._write(run)
        assert ended is not None
        self.live.shoe = ended
        self.live.announce_shoe_end(ended, fair.server_seed)

    # -- one round -------------------------------------------------------------------

    async def _checkpoint(self, point: Checkpoint, round_id: int) -> None:
        """Report ``point`` of a round with bets (only the crash tests' observer listens)."""
        pause = pause_observer()
        if pause is not None and pause.wants(point) and await self._has_bets(round_id):
            await pause.hold_async(point, round_id)

    async def _has_bets(self, round_id: int) -> bool:
        return await self.runner.read(lambda c: round_has_bets(c, round_id))

    async def _play_round(self) -> None:
        shoe_row = self.live.shoe
        assert shoe_row is not None
        number, betting_ms = self.next_number, self.live.settings.betting_ms

        def opening(c: Connection) -> RoundChange:
            return open_round(
                c, table_id=self.table_id, shoe_id=shoe_row.id, number=number, betting_ms=betting_ms
            )

        opened = await self._write(opening)
        self.next_number = number + 1
        if self.shoe is not None:
            self.live.cards_left = self.shoe.cards_left
        live = self.live
        live.begin(opened.row)
        live.follow(opened)
        closed = await self._close(opened.row)
        live.follow(closed)
        if closed.row.phase is Phase.VOIDED:  # staff voided it while it was open
            return
        await self._checkpoint("closing", closed.row.id)
        if self.shoe is None:
            shoe_now = await self.runner.read(lambda c: get_shoe(c, shoe_row.id, vault=self.vault))
            assert shoe_now is not None
            live.shoe = shoe_now
            self.shoe = shoe_now.fair().shoe(live.ruleset.shoe)
            live.cards_left = self.shoe.cards_left
        # What the shoe held before this deal: the integrity monitor prices each side bet on it.
        before = CardCounts.of(self.shoe.order[self.shoe.position :])
        coup = self.shoe.deal_coup()
        round_id = closed.row.id

        def storing(c: Connection) -> RoundChange | None:
            current = get_round(c, round_id, lock=True)
            if current is None or not current.state.allows("deal"):
                return None  # staff voided it since it closed
            return store_cards(c, round_id, coup.cards, db_now(c))

        dealt = await self._write(storing)
        if dealt is None:  # the coup was not stored: the shoe goes back to the stored coups
            await self._load_shoe(shoe_row)
            return
        live.follow(dealt)  # no event: the cards leave the table only as they are turned
        await self._reveal_and_settle(dealt.row, before)

    async def _read_stakes(self, round_id: int) -> None:
        """Every player's stakes on the round, from the database (every node takes bets).
        Only a display: a failed read is logged and the round goes on."""
        stakes = await self._stakes(round_id)
        if stakes is not None:
            self.live.show_stakes(round_id, stakes)

    async def _stakes(self, round_id: int) -> dict[str, int] | None:
        try:
            return await self.runner.read(lambda c: round_stakes(c, round_id))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.warning("table %s: the stakes of round %d were not read", self.table_id, round_id)
            return None

    async def _close(self, row: RoundRow) -> RoundChange:
        """Wait for the deadline and close the round by the database's clock; meanwhile the
        round's stakes per spot are read at most every ``STAKES_EVERY_S`` and sent if moved."""
        while True:
            wait_ms = row.closes_at - self.clock.now_ms()
            while wait_ms > 0:
                await self.clock.sleep(min(wait_ms / 1000, STAKES_EVERY_S))
                wait_ms = row.closes_at - self.clock.now_ms()
                if wait_ms > 0:
                    await self._read_stakes(row.id)
            await self._checkpoint("open", row.id)

            def closing(c: Connection) -> RoundChange | int:
                closed = close_round(c, row.id)
                if not isinstance(closed, int):
                    fix_client_seed(c, closed.row.shoe_id)
                return closed

            result = await self._write(closing)
            if not isinstance(result, int):
                # Closed: no bet comes any more, so these are the round's final stakes (sent
                # with ``bets_closed``).
                final = await self._stakes(row.id)
                if final is not None:
                    self.live.stakes = final
                return result
            await self.clock.sleep(result / 1000)

    async def _reveal_and_settle(self, row: RoundRow, before: CardCounts | None = None) -> None:
        """Turn the round's cards still face down, one at a time, then settle it (``before``:
        the cards the shoe held before the deal, unknown for a round resumed after a restart)."""
        live = self.live
        pause_s = live.settings.reveal_ms / 1000
        face_down = live.settings.dealing == "face-down"
        state = row.state
        # A resumed round goes on from the cards already shown before the restart.
        for card in turn_order(state.coup, live.settings.dealing):
            if state.turned(card):
                continue
            await self.clock.sleep(pause_s)
            if face_down:
                live.announce(row, state.squeeze(card).events)
                await self.clock.sleep(pause_s)
            state, events = state.turn(card)
            live.announce(row, events)  # the card; with the last one, the result
            # Recorded after its events went out: the stored views never run ahead of the
            # feed, and all cards recorded means the result was announced.
            await self._write(partial(record_reveal, round_id=row.id, revealed=state.revealed))
            if len(live.revealed) == 2:
                await self._checkpoint("dealing", row.id)
        ruleset, coup = live.ruleset, state.coup

        def settling(c: Connection) -> SettledRound | None:
            settled = settle_round(c, row, coup, ruleset, db_now(c))
            pause = pause_observer()
            if settled and settled.players and pause is not None and pause.wants("settling"):
                pause.hold("settling", row.id)  # inside the transaction, before its commit
            return settled

        settled = await self._write(settling)
        if settled is None:
            log.warning("table %s: round %d was finished already", self.table_id, row.id)
        else:
            self.metrics.rounds.labels(self.table_id, "settled").inc()
            own = {player: s.to_json() for player, s in settled.players.items()}
            live.follow(settled.change, own)
            if self.integrity is not None:
                self.integrity.observe(
                    self.table_id,
                    ruleset,
                    round_id=row.id,
                    shoe_id=row.shoe_id,
                    coup=coup,
                    before=before,
                    players=settled.players,
                )
        await self.clock.sleep(live.settings.result_ms / 1000)
        if self.shoe is not None and self.shoe.finished and live.shoe and not live.shoe.ended:
            await self._end_shoe()
