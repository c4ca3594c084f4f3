"""The dealer of one table: shoes, rounds, the reveal and the settlement, forever.

Per round: open with a deadline (database time), close at the deadline, draw the coup card by
card from the table's card source (each card stored before anyone may see it), reveal the
cards one by one (each recorded in the round's ``revealed`` just after its event, so the
stored views never run ahead of the feed), settle every bet in one transaction. The shoe's
commitment is published before its first round; its server seed after its last. A face-down
table squeezes each card (a ``squeeze`` event without the card) before turning it: the player
with the largest stake on its hand squeezes it (``baccarat.table.squeeze``) until they turn it
(``TurnCard``) or its deadline passes, peeling it meanwhile (``PeelCard``, relayed to the
table); with nobody on that hand the dealer squeezes it for the reveal's pause. A restart
mid-squeeze squeezes the card again, with a fresh deadline.
On start, and after any failure, the dealer first rebuilds its state from the database and
finishes what was left (``baccarat.table.recovery``).

The dealer decides nothing about a round: every step is the round's state machine's
(``baccarat.table.Round``), through the store for the steps that are stored. The dealer keeps
the time (deadlines, pauses), hands the events each step returned to the live table, and
carries out the commands it is sent (``baccarat.live.commands``) whenever it waits, so a
command never lands half-way through a step: an operator's pause holds the next round, a
void of the round in play (open, closed, mid-reveal) stops it where it is. It never peeks at
its source's future: what the integrity monitor prices side bets on is the source's own
tally of the cards it has given. Observers (``baccarat.live.observers``) are told each step
of a round and awaited; only the crash tests install one.

In a cluster the dealer acts under its node's lease of the table: ``fence`` runs first in
every write transaction (``baccarat.store.leases.fence``) and refuses it once the lease has
gone to another node or lapsed. A fenced dealer stops at once, writing nothing more; the
node that took the table over finishes the round by the same recovery as a restart.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from functools import partial
from typing import TypeVar

from sqlalchemy import Connection

from baccarat.cards import Card
from baccarat.coup import due_slot
from baccarat.live.commands import (
    ApplyControls,
    ChangeDealer,
    ChangeShoe,
    CloseBets,
    CloseTable,
    Command,
    Done,
    Draw,
    Misscan,
    OpenRound,
    Pause,
    PeelCard,
    ReadCard,
    Refused,
    Reply,
    Resolve,
    Resume,
    SeatDealer,
    StartShoe,
    TurnCard,
    Voided,
    VoidRound,
)
from baccarat.live.events import RoundPaid
from baccarat.live.inbox import Inbox
from baccarat.live.observers import Observer, Step, StepName
from baccarat.live.ports import Clock, Fence, Store
from baccarat.live.round_limits import RoundLimits
from baccarat.live.shoe_keeper import ShoeKeeper
from baccarat.live.studio_desk import StudioDesk
from baccarat.live.table import LiveTable, finished_round
from baccarat.live.voids import show_void, void_by_staff
from baccarat.refusals import RefusalCode
from baccarat.roads import Scoreboard
from baccarat.rulesets import RuleSet
from baccarat.shoe import CardCounts
from baccarat.store.bet_reads import open_bets, round_has_bets, round_stakes
from baccarat.store.clock import db_now
from baccarat.store.leases import FencedError
from baccarat.store.pseudonyms import pseudonym, record_key
from baccarat.store.rounds import (
    RoundChange,
    RoundRow,
    close_round,
    last_finished_round,
    open_round,
    record_reveal,
    store_draws,
    unfinished_rounds,
)
from baccarat.store.seal import SeedVault
from baccarat.store.settlement import SettledRound, VoidedRound, settle_round, void_round
from baccarat.store.shoes import (
    fix_client_seed,
    get_shoe,
    last_ended_shoe,
    open_shoe,
)
from baccarat.store.table_controls import get_control
from baccarat.table import (
    RESTART_VOID_REASON,
    HandName,
    Phase,
    RevealedCard,
    Round,
    TransitionError,
    recovery_action,
    turn_order,
)
from baccarat.table.squeeze import Squeeze, Stake, squeezers

__all__ = ["Dealer"]

T = TypeVar("T")
#: How often, at most, the open round's stakes per spot are read and sent.
STAKES_EVERY_S = 0.5
#: How long a studio's dealer waits on its clock for its dealer's next step before it looks
#: again (a step wakes it at once).
STUDIO_IDLE_S = 3_600.0
log = logging.getLogger("baccarat.live")


class Dealer:
    """Runs one table. ``table_ruleset`` applies from the next new shoe."""

    def __init__(
        self,
        table: LiveTable,
        table_ruleset: RuleSet,
        store: Store,
        clock: Clock,
        *,
        vault: SeedVault,
        fence: Fence | None = None,
        node_id: str = "",
        observers: Sequence[Observer] = (),
    ) -> None:
        self.table = table
        #: Checks, inside each write transaction, that this dealer may still write.
        self.fence = fence
        self.node_id = node_id
        self.observers = list(observers)
        #: Set to stop after the round in play (the table goes to another node).
        self.hand_over = asyncio.Event()
        #: Why a write was refused, once the lease's fence has stopped this dealer.
        self.fenced: str | None = None
        self.vault = vault
        self.store = store
        self.clock = clock
        self.shoes = ShoeKeeper(table, table_ruleset, store, self._write, vault)
        #: The limits each round opens under (an operator's change waits for the next).
        self.limits = RoundLimits(table, store)
        #: The operators' status of the table (``baccarat.store.table_controls``).
        self.status = "open"
        self.ready = asyncio.Event()
        self._inbox = Inbox()
        #: A studio table's desk: its reads and procedures (``None``: the server deals).
        self.desk = StudioDesk(table, self.shoes, self._write) if table.settings.studio else None
        #: A studio dealer closed betting before the deadline.
        self._close_now = False
        #: The card being squeezed now, and whether its squeezer asked for it to be turned.
        self._squeeze: Squeeze | None = None
        self._turn_now = False

    @property
    def table_id(self) -> str:
        return self.table.id

    # -- commands ----------------------------------------------------------------------

    def send(self, command: Command) -> asyncio.Future[Reply]:
        """Queue ``command``; it is carried out the next time the dealer waits."""
        return self._inbox.send(command)

    async def _wait(self, seconds: float | None) -> None:
        """Wait ``seconds`` on the clock (``None``: until a command comes), carrying out every
        command that arrives meanwhile."""
        await self._inbox.wait(self.clock, seconds, self._carry_out)

    async def _idle(self) -> None:
        """Wait for the next command: a studio's on the clock (``STUDIO_IDLE_S`` at most),
        any other until it comes."""
        if self.desk is None:
            await self._wait(None)
        else:
            await self._inbox.wait(self.clock, STUDIO_IDLE_S, self._carry_out, until_command=True)

    async def _drain(self) -> None:
        """Carry out the commands waiting, without waiting for more."""
        await self._inbox.drain(self._carry_out)

    async def _carry_out(self, command: Command, reply: asyncio.Future[Reply] | None) -> None:
        if reply is not None and reply.cancelled():  # withdrawn: nobody waits for it
            return
        try:
            answer = await self._handle(command)
        except BaseException as error:
            if reply is not None and not reply.done():
                reply.set_exception(RuntimeError(f"table {self.table_id}: {error!r}"))
            raise
        if reply is not None and not reply.done():
            reply.set_result(answer)

    async def _handle(self, command: Command) -> Reply:
        match command:
            case Pause() | Resume() | CloseTable() | ApplyControls():
                # The operators' change is stored (audited) already: the database says.
                control = await self.store.read(lambda c: get_control(c, self.table_id))
                self.status = control.status
                return Done()
            case VoidRound():
                reply = await self._staff_void(command)
                misdeal = command.audit.get("procedure") == "misdeal"
                if self.desk is not None and isinstance(reply, Voided) and misdeal:
                    self.desk.begin_dummy(command.round_id)  # where the house deals it on
                return reply
            case ChangeShoe():
                self.shoes.change_asked = True
                return Done()
            case ChangeDealer():
                self.hand_over.set()
                return Done()
            case ReadCard() | StartShoe() | Misscan() | Resolve() | SeatDealer():
                return await self._studio(command)
            case CloseBets() if self.desk is not None:
                row = self.table.round
                if not self.table.settings.early_close:
                    return Refused(RefusalCode.NOT_NOW, "this table closes betting on time only")
                if row is None or row.phase is not Phase.OPEN:
                    return Refused(RefusalCode.NOT_NOW, "no round is open for bets")
                self._close_now = True
                return Done()
            case Draw(card=card):
                push = getattr(self.shoes.source, "push", None)
                if push is None:
                    return Refused(
                        RefusalCode.INVALID_REQUEST, "this table's shoe takes no card from outside"
                    )
                push(card)
                return Done()
            case OpenRound() | CloseBets():
                return Refused(
                    RefusalCode.INVALID_REQUEST, "this table's dealer paces its own rounds"
                )
            case TurnCard() | PeelCard():
                return self._squeezer_step(command)

    def _squeezer_step(self, command: TurnCard | PeelCard) -> Reply:
        """A squeezer's turn or peel of the card being squeezed; anyone else's is refused."""
        squeeze = self._squeeze
        if squeeze is None or self._turn_now:
            return Refused(RefusalCode.NOT_NOW, "no card is being squeezed now")
        refusal = squeeze.refuse(
            command.player_id, command.round_id, command.hand, command.position
        )
        if refusal is not None:
            return Refused(refusal.code, refusal.message)
        if isinstance(command, TurnCard):
            self._turn_now = True
        else:
            self.table.show_peel(
                squeeze.round_id, squeeze.hand, squeeze.position, command.edge, command.progress
            )
        return Done()

    async def _studio(
        self, command: ReadCard | StartShoe | Misscan | Resolve | SeatDealer
    ) -> Reply:
        desk = self.desk
        if desk is None:
            return Refused(RefusalCode.NOT_A_STUDIO, f"table {self.table_id} is not a studio's")
        before_time = self.table.settings.before_time
        match command:
            case ReadCard():
                return await desk.read(command, before_time=before_time)
            case StartShoe():
                return await desk.start_shoe(command)
            case Misscan():
                return await desk.misscan(command)
            case Resolve():
                return await desk.resolve(command, before_time=before_time)
            case SeatDealer():
                return await desk.seat(command)

    # -- the dealer's loop -------------------------------------------------------------

    async def run(self) -> None:
        """Deal until cancelled, fenced off or handed over; after a failure, rebuild from the
        database and go on."""
        while True:
            try:
                resumable = await self.recover()
                self.table.sync()
                self.ready.set()
                await self.resume(resumable)
                while not self.hand_over.is_set():
                    await self._drain()
                    await self.shoes.ensure()
                    if self.desk is not None and self.desk.next_shoe is not None:
                        await self.desk.start_shoe(self.desk.next_shoe)  # asked mid-round
                    if self.desk is not None and not self.desk.ready:
                        await self._idle()  # a studio's new shoe, its burn, a supervisor
                        continue
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
            return await self.store.write(fn)

        def fenced(connection: Connection) -> T:
            fence(connection)
            return fn(connection)

        return await self.store.write(fenced)

    async def _step(self, name: StepName, round_id: int) -> None:
        """Tell the observers (if any) that the dealer is at step ``name`` of the round."""
        if not self.observers:
            return
        has_bets = await self.store.read(lambda c: round_has_bets(c, round_id))
        step = Step(name, self.table_id, round_id, has_bets)
        for observer in self.observers:
            await observer.at(step)

    async def _may_open(self) -> bool:
        """Whether a new round may open: wait while operators pause or close the table (the
        round in play has finished by now); ``False`` if the table is handed over."""
        while self.status != "open" and not self.hand_over.is_set():
            await self._idle()  # until a command: nothing is polled
        return not self.hand_over.is_set()

    def _voided_in_play(self, round_id: int) -> bool:
        """Whether the round in play was voided by a command while the dealer waited."""
        row = self.table.round
        return row is not None and row.id == round_id and row.phase is Phase.VOIDED

    # -- recovery --------------------------------------------------------------------

    async def recover(self) -> list[RoundRow]:
        """Load the shoe in play, void every unfinished round without cards; the rounds to
        finish (draw on, or reveal and settle).

        The voids are done before the server listens (no bet can land in such a round); each
        client that connects later finds the last one in its snapshot's ``last_round``.
        """
        control = await self.store.read(lambda c: get_control(c, self.table_id))
        self.status = control.status
        # An operator's new shoe is stored: it holds across a restart or a failover.
        self.shoes.change_asked = control.new_shoe
        self.shoes.use_controls(control.applied)
        shoe_row = await self.store.read(lambda c: open_shoe(c, self.table_id, self.vault))
        ended = await self.store.read(lambda c: last_ended_shoe(c, self.table_id))
        self.table.previous_shoe = None if ended is None else ended.public()
        if ended is not None:
            self.table.know_shoe(ended.id, ended.number)
        self.table.begin(None)
        if shoe_row is None:
            self.table.shoe, self.shoes.source = None, None
            self.table.board = Scoreboard()
        else:
            await self.shoes.load(shoe_row)
        if self.desk is not None:
            await self.desk.load()
        pending = await self.store.read(lambda c: unfinished_rounds(c, self.table_id))
        await self._know_shoes(pending)
        resumable: list[RoundRow] = []
        for row in pending:
            drawn = len(row.state.drawn)
            action = recovery_action(row.phase, has_cards=row.cards is not None, drawn=drawn)
            if self.desk is not None and row.phase is Phase.CLOSED:
                action = "draw"  # the studio's dealer deals on from the cards already read
            if action == "void":
                await self._void(row, RESTART_VOID_REASON)
            elif action in ("resume", "draw"):
                resumable.append(row)
        last = await self.store.read(lambda c: last_finished_round(c, self.table_id))
        if last is None:
            self.table.last_round = None
        else:
            await self._know_shoes([last])
            self.table.last_round = finished_round(last, self.table.shoe_number(last.shoe_id))
        if resumable:
            self.table.begin(resumable[0])
        await self.limits.recover(resumable[0] if resumable else None)
        return resumable

    async def _know_shoes(self, rows: list[RoundRow]) -> None:
        """Read the number of each shoe of ``rows`` the table has not shown (a round is named
        by its shoe's number)."""
        unknown = {row.shoe_id for row in rows if self.table.shoe_number(row.shoe_id) is None}
        for shoe_id in sorted(unknown):
            found = await self.store.read(partial(get_shoe, shoe_id=shoe_id))
            if found is not None:
                self.table.know_shoe(found.id, found.number)

    async def resume(self, resumable: list[RoundRow]) -> None:
        """Finish each round left: draw the rest of a partial coup from the source, then
        reveal and settle, while the clients watch."""
        for row in resumable:
            log.info("table %s: resuming round %d with its stored cards", self.table_id, row.id)
            self.table.begin(row)
            if row.cards is None:
                dealt = await self._draw(row)
                if dealt is None:
                    continue
                row = dealt
            await self._reveal_and_settle(row)
        if self.shoes.finished:
            await self.shoes.end()

    async def _void(self, row: RoundRow, reason: str) -> None:
        def run(c: Connection) -> VoidedRound | None:
            return void_round(c, row, reason, db_now(c))

        voided = await self._write(run)
        if voided is None:  # finished already
            return
        log.info("table %s: round %d voided (%s)", self.table_id, row.id, reason)
        show_void(self.table, voided, "system:dealer")

    async def _staff_void(self, command: VoidRound) -> Reply:
        """Void a round of this table by its own rule, audited as the command's actor."""
        outcome = await self._write(partial(void_by_staff, table_id=self.table_id, command=command))
        if isinstance(outcome, Refused):
            return outcome
        log.info("table %s: round %d voided by %s", self.table_id, command.round_id, command.actor)
        show_void(self.table, outcome, command.actor)
        return Voided(command.round_id, dict(outcome.returned))

    # -- one round -------------------------------------------------------------------

    async def _play_round(self) -> None:
        shoe_row = self.table.shoe
        assert shoe_row is not None
        shoes = self.shoes
        number, betting_ms = shoes.next_number, self.table.settings.betting_ms

        def opening(c: Connection) -> RoundChange:
            limits = self.limits.opening(c, shoe_row)  # an operator's change applies from here
            return open_round(
                c,
                table_id=self.table_id,
                shoe_id=shoe_row.id,
                number=number,
                betting_ms=betting_ms,
                limits=limits,
            )

        opened = await self._write(opening)
        self._close_now = False
        shoes.next_number = number + 1
        if shoes.source is not None:
            self.table.cards_left = shoes.source.left.total
        table = self.table
        self.limits.show(shoe_row, opened.row.limits)  # shown with round_open
        table.begin(opened.row)
        table.follow(opened)
        closed = await self._close(opened.row)
        table.follow(closed)
        if closed.row.phase is Phase.VOIDED:  # voided while it was open
            return
        await self._step("closing", closed.row.id)
        # What the shoe held before this coup: the integrity monitor prices each side bet on
        # it (the source's own tally, never its future).
        source = await shoes.open_source()
        before = source.left
        dealt = await self._draw(closed.row)
        if dealt is None:
            await self._after_round()
            return
        await self._reveal_and_settle(dealt, before)

    async def _draw(self, row: RoundRow) -> RoundRow | None:
        """Draw the round's coup from the source, card by card, each card checked by the round
        (``Round.draw``) and stored before any is shown; ``None`` if it was voided meanwhile.

        The cards the source has at hand are stored together (a fair shoe's whole coup in one
        transaction: no card is shown before it is turned); a source that has none yet (a
        card-reading shoe waiting for its dealer) is waited for, each card stored as it comes.
        """
        source = await self.shoes.open_source()
        drawn = list(row.state.drawn)
        while due_slot(drawn) is not None:
            cards: list[tuple[Card, CardCounts]] = []
            while due_slot([*drawn, *(card for card, _ in cards)]) is not None:
                left = source.left
                card = source.take()
                if card is None:
                    break
                cards.append((card, left))
            if not cards:
                await self._idle()  # a ``Draw`` or a studio read, or a void
                if self._voided_in_play(row.id):
                    return None
                current = self.table.round
                if current is not None and current.id == row.id:  # read and stored meanwhile
                    drawn = list(current.state.drawn)
                continue
            try:
                change = await self._write(partial(store_draws, round_id=row.id, cards=cards))
            except TransitionError as refused:  # a card the round cannot take: nothing stored
                log.warning("table %s: %s", self.table_id, refused)
                change = None
            if change is None:  # voided, or not this round's turn: the source goes back
                await self.shoes.reload()
                return None
            drawn = list(change.row.state.drawn)
            self.table.follow(change)  # no event: the cards leave the table only as turned
        source.coup_done()
        current = self.table.round
        assert current is not None
        return current

    async def _read_stakes(self, round_id: int) -> None:
        """Every player's stakes on the round, from the database (every node takes bets).
        Only a display: a failed read is logged and the round goes on."""
        stakes = await self._stakes(round_id)
        if stakes is not None:
            self.table.show_stakes(round_id, stakes)

    async def _stakes(self, round_id: int) -> dict[str, int] | None:
        try:
            return await self.store.read(lambda c: round_stakes(c, round_id))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.warning("table %s: the stakes of round %d were not read", self.table_id, round_id)
            return None

    async def _close(self, row: RoundRow) -> RoundChange:
        """Wait for the deadline and close the round by the database's clock; meanwhile the
        round's stakes per spot are read at most every ``STAKES_EVERY_S`` and sent if moved.
        A round voided meanwhile comes back as it is."""
        studio = self.desk is not None
        while True:
            wait_ms = row.closes_at - self.clock.now_ms()
            while wait_ms > 0 and not self._close_now:
                await self._inbox.wait(
                    self.clock,
                    min(wait_ms / 1000, STAKES_EVERY_S),
                    self._carry_out,
                    until_command=studio,  # a studio's dealer may close early
                )
                if self._voided_in_play(row.id):
                    assert self.table.round is not None
                    return RoundChange(self.table.round, ())
                wait_ms = row.closes_at - self.clock.now_ms()
                if wait_ms > 0 and not self._close_now:
                    await self._read_stakes(row.id)
            await self._step("open", row.id)
            result = await self._write(
                partial(_closing, round_id=row.id, early=self._close_now, fair=not studio)
            )
            if not isinstance(result, int):
                # Closed: no bet comes any more, so these are the round's final stakes (sent
                # with ``bets_closed``).
                final = await self._stakes(row.id)
                if final is not None:
                    self.table.stakes = final
                return result
            await self._wait(result / 1000)

    async def _reveal_and_settle(self, row: RoundRow, before: CardCounts | None = None) -> None:
        """Turn the round's cards still face down, one at a time, then settle it (``before``:
        the cards the shoe held before the coup, unknown for a round resumed after a restart).
        A void (a command carried out during a pause) stops the reveal where it is."""
        table = self.table
        pause_s = table.settings.reveal_ms / 1000
        face_down = table.settings.dealing == "face-down"
        state = row.state
        who = await self._squeezers(row) if face_down else {}
        # A resumed round goes on from the cards already shown before the restart.
        for card in turn_order(state.coup, table.settings.dealing):
            if state.turned(card):
                continue
            await self._wait(pause_s)
            if self._voided_in_play(row.id):
                await self._after_round()
                return
            if face_down:
                await self._squeeze_card(row, state, card, who.get(card.hand))
                if self._voided_in_play(row.id):
                    await self._after_round()
                    return
            state, events = state.turn(card)
            table.announce(row, events)  # the card; with the last one, the result
            # Recorded after its events went out: the stored views never run ahead of the
            # feed, and all cards recorded means the result was announced.
            await self._write(partial(record_reveal, round_id=row.id, revealed=state.revealed))
            if len(table.revealed) == 2:
                await self._step("dealing", row.id)
        while self.desk is not None and self.desk.halted:  # an impossible card: nothing settles
            await self._idle()
            if self._voided_in_play(row.id):
                await self._after_round()
                return
        ruleset, coup = table.ruleset, state.coup
        observers = self.observers

        def settling(c: Connection) -> SettledRound | None:
            settled = settle_round(c, row, coup, ruleset, db_now(c))
            if settled is not None:
                step = Step("settling", self.table_id, row.id, has_bets=bool(settled.players))
                for observer in observers:  # inside the transaction, before its commit
                    observer.in_transaction(step)
            return settled

        settled = await self._write(settling)
        if settled is None:
            log.warning("table %s: round %d was finished already", self.table_id, row.id)
        else:
            own = {player: s.to_json() for player, s in settled.players.items()}
            table.follow(settled.change, own)
            paid = RoundPaid(
                self.table_id, ruleset, settled.change.row, coup, before, settled.players
            )
            table.subscribers.publish(paid)
        await self._after_round()

    async def _squeezers(self, row: RoundRow) -> dict[HandName, tuple[str, str]]:
        """Each hand's squeezer, from the round's bets: their player id and pseudonym in the
        shoe. Only a display: a failed read leaves the squeeze to the dealer."""

        def read(c: Connection) -> dict[HandName, tuple[str, str]]:
            stakes = [
                Stake(bet_id, player, spot, stake)
                for bet_id, player, spot, stake in open_bets(c, row.id)
            ]
            found = squeezers(stakes)
            if not found:
                return {}
            key = record_key(c)
            return {
                hand: (player, pseudonym(key, row.shoe_id, player))
                for hand, player in found.items()
            }

        try:
            return await self.store.read(read)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.warning("table %s: the squeezers of round %d were not read", self.table_id, row.id)
            return {}

    async def _squeeze_card(
        self, row: RoundRow, state: Round, card: RevealedCard, squeezer: tuple[str, str] | None
    ) -> None:
        """Announce the squeeze of ``card`` and wait until its squeezer turns it, its deadline
        passes (the table's ``squeeze_ms`` for a player, the reveal's pause for the dealer) or
        the round is voided; the commands that come meanwhile are carried out."""
        settings = self.table.settings
        player, name = squeezer if squeezer is not None else (None, None)
        wait_ms = settings.squeeze_ms if player is not None else settings.reveal_ms
        deadline = self.clock.now_ms() + wait_ms
        self._squeeze = Squeeze(row.id, card.hand, card.position, player, deadline)
        self._turn_now = False
        own = None if player is None else {player: {"yours": True}}
        self.table.announce(row, state.squeeze(card, by=name, deadline=deadline).events, own)
        try:
            while not self._turn_now and not self._voided_in_play(row.id):
                left_ms = deadline - self.clock.now_ms()
                if left_ms <= 0:
                    break
                await self._inbox.wait(
                    self.clock, left_ms / 1000, self._carry_out, until_command=True
                )
        finally:
            self._squeeze, self._turn_now = None, False

    async def _after_round(self) -> None:
        """The result's pause; then the shoe ends if its source says so."""
        await self._wait(self.table.settings.result_ms / 1000)
        if self.shoes.finished:
            await self.shoes.end()
            if self.desk is not None:
                self.desk.show()  # the table now waits for its dealer's next shoe


def _closing(c: Connection, *, round_id: int, early: bool, fair: bool) -> RoundChange | int:
    """Close the round (``close_round``) and, on a fair shoe, fix its client seed with it."""
    closed = close_round(c, round_id, early=early)
    if not isinstance(closed, int) and fair:  # a studio shoe has no seed
        fix_client_seed(c, closed.row.shoe_id)
    return closed
