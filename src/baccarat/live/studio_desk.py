"""A studio table's desk: each card read, judged and stored before it is shown, and the
studio's procedures (a new shoe, game before time, an impossible card, a misscan).

The dealer of a studio table hands the desk every studio command it is sent, between its own
steps. What a read is, is the table's rule (``baccarat.table.studio.judge``) over the shoe
as its stored reads tell it and the round in play as stored; the read and what it does (the
round's next card, the burn, a void) are written in one fenced transaction, and only then is
the card turned for the players. A read that cannot be next is stored apart and halts the
table: the dealer settles nothing while it waits for a supervisor (``Resolve``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import Connection

from baccarat.cards import Card
from baccarat.coup import due_slot
from baccarat.live.commands import (
    Done,
    Misscan,
    Placed,
    ReadCard,
    Refused,
    Reply,
    Resolve,
    SeatDealer,
    StartShoe,
)
from baccarat.live.events import StudioShown
from baccarat.live.shoe_keeper import ShoeKeeper, Writer
from baccarat.live.table import LiveTable
from baccarat.live.voids import show_void
from baccarat.refusals import RefusalCode
from baccarat.shoe import ShoeError
from baccarat.store.audit_log import append_audit
from baccarat.store.clock import db_now
from baccarat.store.ledger import new_id
from baccarat.store.rounds import RoundChange, RoundRow, get_round, record_reveal, save_round
from baccarat.store.settlement import VoidedRound, void_round
from baccarat.store.studio import (
    PendingRead,
    add_pending,
    add_read,
    find_scan,
    pending_reads,
    resolve_pending,
    seat_dealer,
    seated_dealer,
)
from baccarat.table import StudioSource, drawn_order
from baccarat.table.studio import BeforeTime, GameBeforeTime, Impossible, Repeat, Take, due, judge
from baccarat.table.studio_shoe import Certificate, Read, StudioShoe, Use

__all__ = ["BEFORE_TIME", "StudioDesk"]

BEFORE_TIME = "game before time: a card was drawn while betting was open"
#: The reads that are cards of a coup (a round's, or a dummy hand's going on from it).
_DEALT = (Use.COUP, Use.DUMMY)


@dataclass(frozen=True, slots=True)
class _Stored:
    """What one read's transaction did: the read that counts (``repeat``: stored before), or
    why it did not."""

    read: Read | None = None
    repeat: bool = False
    refused: Refused | None = None
    shoe: StudioShoe | None = None
    change: RoundChange | None = None
    voided: VoidedRound | None = None
    pending: PendingRead | None = None


class StudioDesk:
    """The studio side of one table's dealer."""

    def __init__(self, table: LiveTable, shoes: ShoeKeeper, write: Writer) -> None:
        self.table = table
        self.shoes = shoes
        self.write = write
        #: Reads waiting for a supervisor (an impossible card halts; a misscan holds).
        self.pending: list[PendingRead] = []
        #: The dealer seated at the table (a staff username), once one has taken it.
        self.dealer: str | None = None
        #: A dummy hand being dealt: the misdealt round and its coup's cards so far.
        self.dummy: tuple[int, list[Card]] | None = None
        #: A new shoe the dealer asked for while a round was in play: it starts after it.
        self.next_shoe: StartShoe | None = None
        table.studio_view = self.view

    async def load(self) -> None:
        """Take up the reads waiting for a supervisor, as stored (after a restart)."""
        table_id = self.table.id
        self.pending = await self.shoes.store.read(lambda c: pending_reads(c, table_id))
        self.dealer = await self.shoes.store.read(lambda c: seated_dealer(c, table_id))
        self.dummy = None
        last = self.table.last_round
        shoe = self.shoe
        if (
            shoe is not None
            and last is not None
            and str(last.get("void_reason")).startswith("misdeal")
        ):
            cards = [r.card for r in shoe.reads if r.round_id == last["id"] and r.use in _DEALT]
            if cards and due_slot(cards) is not None and self.table.settings.exposed == "dummy":
                self.dummy = (int(last["id"]), cards)  # a restart in a dummy hand: deal it on
        self.show()

    # -- what the table waits for ---------------------------------------------------------

    @property
    def shoe(self) -> StudioShoe | None:
        """The physical shoe in play, as its reads tell it (``None``: none in play)."""
        source = self.shoes.source
        shoe_row = self.table.shoe
        if not isinstance(source, StudioSource) or shoe_row is None or shoe_row.ended:
            return None
        return source.shoe

    @property
    def halted(self) -> bool:
        return any(read.kind == "impossible" for read in self.pending)

    @property
    def held(self) -> bool:
        """A misscan waits for its supervisor: no card counts before it."""
        return any(read.kind == "misscan" for read in self.pending)

    @property
    def ready(self) -> bool:
        """Whether a round may open: a shoe in play, burned, no dummy hand being dealt, and
        nothing waits for a supervisor."""
        shoe = self.shoe
        return (
            shoe is not None
            and shoe.burn_due == 0
            and not shoe.finished
            and not self.pending
            and self.dummy is None
            and self.next_shoe is None
        )

    def begin_dummy(self, round_id: int) -> None:
        """After a misdeal of round ``round_id`` (voided, every stake back): on a table whose
        house deals exposed cards on as a dummy hand, its coup is dealt on with no bets, so
        the shoe's sequence is kept."""
        shoe = self.shoe
        if shoe is None or self.table.settings.exposed != "dummy":
            return
        cards = [r.card for r in shoe.reads if r.round_id == round_id and r.use in _DEALT]
        if cards and due_slot(cards) is not None:
            self.dummy = (round_id, cards)
            self.show("dummy_hand")

    def due(self) -> str:
        """What the table waits for (``docs/studio.md``: the device's ``next``)."""
        if self.halted:
            return "halted"
        if self.held:
            return "misscan_pending"
        row = self.table.round
        dummy = None if self.dummy is None else self.dummy[1]
        return due(self.shoe, None if row is None else row.state, dummy)

    def view(self) -> dict[str, Any]:
        """The desk as the table's snapshot shows it (nothing not public already)."""
        shoe = self.shoe
        return {
            "next": self.due(),
            "halted": self.halted,
            "misscan": self.held,
            "burn_due": 0 if shoe is None else shoe.burn_due,
            "cut_card_out": False if shoe is None else shoe.cut_card_out,
            "last_coup": False if shoe is None else shoe.last_coup_due,
            "reads": 0 if shoe is None else len(shoe.reads),
            "dealer": self.dealer,
            "dummy": self.dummy is not None,
            # A dummy hand's cards were exposed and are dealt face up: everyone may see them.
            "dummy_cards": [] if self.dummy is None else [card.code for card in self.dummy[1]],
        }

    def show(self, notice: str | None = None, detail: str | None = None) -> None:
        """Publish the desk's state, with a notice for the players when something happened
        (never a card: a card is shown only when it counts, by its turn)."""
        self.table.subscribers.publish(StudioShown(self.table.id, notice, detail))

    # -- the dealer ---------------------------------------------------------------------

    async def seat(self, command: SeatDealer) -> Reply:
        """A dealer takes the table (a dealer change), audited with who was seated before."""
        table_id = self.table.id

        def run(c: Connection) -> None:
            at = db_now(c)
            before = seat_dealer(c, table_id, command.dealer, at)
            details = {"table": table_id, "before": before, "after": command.dealer}
            append_audit(c, at, command.actor, "studio_dealer_change", {**command.audit, **details})

        await self.write(run)
        self.dealer = command.dealer
        self.show("dealer_change", command.dealer)
        return Done()

    # -- a new shoe ----------------------------------------------------------------------

    async def start_shoe(self, command: StartShoe) -> Reply:
        """Put the dealer's new shoe in play, audited; its burn is read next."""
        shoe_row = self.table.shoe
        row = self.table.round
        if shoe_row is not None and not shoe_row.ended and row is not None and not row.phase.final:
            # The round in play finishes in its shoe; no new round opens before the change.
            self.next_shoe = command
            self.show("shoe_change_next")
            return Done()
        self.next_shoe = None
        if shoe_row is not None and not shoe_row.ended:
            await self.shoes.end()
        try:
            certificate = Certificate.from_json(dict(command.certificate))
        except (KeyError, TypeError, ValueError) as error:
            return Refused(RefusalCode.INVALID_REQUEST, f"not a shuffle certificate: {error}")
        table_id = self.table.id

        def audit(c: Connection, at: int) -> None:
            details = {"table": table_id, "certificate": certificate.to_json()}
            append_audit(c, at, command.actor, "studio_shoe_start", {**command.audit, **details})

        try:
            await self.shoes.start_studio(certificate, audit)
        except ValueError as error:
            return Refused(RefusalCode.INVALID_REQUEST, str(error))
        self.pending = []
        self.show("shoe_change", certificate.shuffled_by)
        return Done()

    # -- a card read -------------------------------------------------------------------

    async def read(self, command: ReadCard, *, before_time: BeforeTime | str) -> Reply:
        """Judge and store one read, then show it; the answer says where it went."""
        burn = before_time == "burn"
        stored = await self.write(lambda c: self._store_read(c, command, burn=burn))
        if stored.shoe is not None:
            source = self.shoes.source
            assert isinstance(source, StudioSource)
            source.shoe = stored.shoe
        if stored.pending is not None:
            self.pending.append(stored.pending)
            self.show("halted")
        if stored.voided is not None:
            show_void(self.table, stored.voided, "system:studio")
            self.show("before_time_void")
        elif stored.read is not None and stored.read.use is Use.BURNED and not stored.repeat:
            self.show("card_burned")
        if stored.read is not None and stored.read.use is Use.DUMMY and not stored.repeat:
            assert self.dummy is not None
            self.dummy[1].append(stored.read.card)
            if due_slot(self.dummy[1]) is None:  # the dummy hand is complete: rounds go on
                self.dummy = None
                self.show("dummy_done")
        if stored.change is not None:
            await self._turn(stored.change)
        elif stored.read is not None and not stored.repeat:
            self.show()
        if stored.refused is not None:
            return stored.refused
        assert stored.read is not None and self.table.shoe is not None
        read = stored.read
        shoe_id = self.table.shoe.id
        return Placed(
            read.scan_id,
            read.card.code,
            read.position,
            read.seq,
            read.round_id,
            shoe_id,
            stored.repeat,
            self.due(),
        )

    def _store_read(self, c: Connection, command: ReadCard, *, burn: bool) -> _Stored:
        table_id = self.table.id
        first = find_scan(c, table_id, command.scan_id)
        if first is not None and first.seq is None:  # set aside before: answered alike
            why = f"scan {command.scan_id!r} was not counted: {first.reason}"
            return _Stored(refused=Refused(RefusalCode.TABLE_HALTED, why))
        if first is not None and first.card == command.card.code:  # a retry: the first answer
            read = Read(
                first.seq,
                first.scan_id,
                Card.parse(first.card),
                first.at,
                Use(first.use),
                first.position,
                first.read_by,
                first.round_id,
            )
            return _Stored(read=read, repeat=True)
        if self.halted:
            return _Stored(
                refused=Refused(RefusalCode.TABLE_HALTED, "the table is halted for a supervisor")
            )
        shoe, shoe_row = self.shoe, self.table.shoe
        if shoe is None or shoe_row is None:
            return _Stored(refused=Refused(RefusalCode.NO_SHOE, "no shoe is in play: start one"))
        if self.held:
            why = "a misscan waits for its supervisor"
            return _Stored(refused=Refused(RefusalCode.MISSCAN_PENDING, why))
        current = self._current(c)
        state = None if current is None else current.state
        dummy = None if self.dummy is None else self.dummy[1]
        verdict = judge(
            shoe,
            state,
            command.scan_id,
            command.card,
            before_time="burn" if burn else "void",
            dummy=dummy,
        )
        at = db_now(c)
        match verdict:
            case Repeat(read=read):
                return _Stored(read=read, repeat=True)
            case Impossible(reason=reason):
                # A scan id read before with another card is kept under an id of its own:
                # the first read stays what it was.
                scan_id = command.scan_id if first is None else f"conflict:{new_id()}"
                pending = add_pending(
                    c,
                    table_id=table_id,
                    shoe_id=shoe_row.id,
                    kind="impossible",
                    scan_id=scan_id,
                    card=command.card,
                    reason=reason,
                    at=at,
                    read_by=command.by,
                    round_id=None if current is None else current.id,
                )
                details: dict[str, object] = {
                    "table": table_id,
                    "card": command.card.code,
                    "reason": reason,
                }
                append_audit(c, at, command.by, "studio_halt", details)
                refused = Refused(RefusalCode.TABLE_HALTED, f"the table is halted: {reason}")
                return _Stored(refused=refused, pending=pending)
            case GameBeforeTime(void=void):
                assert current is not None
                after = shoe.read(
                    command.scan_id,
                    command.card,
                    at=at,
                    use=Use.BURNED,
                    by=command.by,
                    position="burned",
                    round_id=current.id,
                )
                add_read(c, table_id, shoe_row.id, after.reads[-1])
                voided = None
                details = {"card": command.card.code, "scan_id": command.scan_id}
                if void:
                    voided = void_round(
                        c, current, BEFORE_TIME, at, actor="system:studio", audit=details
                    )
                else:
                    details |= {"table": table_id, "round": current.id, "reason": BEFORE_TIME}
                    append_audit(c, at, command.by, "studio_card_burned", details)
                return _Stored(read=after.reads[-1], shoe=after, voided=voided)
            case Take(use=Use.DUMMY, position=position):
                assert self.dummy is not None
                after = shoe.read(
                    command.scan_id,
                    command.card,
                    at=at,
                    use=Use.DUMMY,
                    by=command.by,
                    position=position,
                    round_id=self.dummy[0],
                )
                add_read(c, table_id, shoe_row.id, after.reads[-1])
                if due_slot([*self.dummy[1], command.card]) is None:
                    after = after.coup_done()
                return _Stored(read=after.reads[-1], shoe=after)
            case Take(use=use, position=position):
                round_id = current.id if use is Use.COUP and current is not None else None
                after = shoe.read(
                    command.scan_id,
                    command.card,
                    at=at,
                    use=use,
                    by=command.by,
                    position=position,
                    round_id=round_id,
                )
                add_read(c, table_id, shoe_row.id, after.reads[-1])
                change = None
                if use is Use.COUP:
                    assert current is not None
                    drawn = current.state.draw(command.card, at, left=shoe.left).round
                    change = RoundChange(save_round(c, current, drawn), ())
                    if due_slot(drawn.drawn) is None:
                        after = after.coup_done()
                return _Stored(read=after.reads[-1], shoe=after, change=change)
        raise AssertionError(verdict)

    def _current(self, c: Connection) -> RoundRow | None:
        """The round in play as stored now (locked), if one is."""
        row = self.table.round
        if row is None or row.phase.final:
            return None
        return get_round(c, row.id, lock=True)

    async def _turn(self, change: RoundChange) -> None:
        """Show the card just stored: a studio deals face up, each card as it comes."""
        table = self.table
        table.follow(change)
        state = change.row.state
        for card in drawn_order(state.drawn):
            if state.turned(card):
                continue
            state, events = state.turn(card)
            table.announce(change.row, events)
        row_id, revealed = change.row.id, state.revealed
        await self.write(lambda c: record_reveal(c, row_id, revealed))
        table.round = replace(change.row, state=state)
        self.show()

    # -- a supervisor's procedures ----------------------------------------------------------

    async def misscan(self, command: Misscan) -> Reply:
        """A card typed by hand: it waits for a supervisor before it counts."""
        shoe_row = self.table.shoe
        if self.shoe is None or shoe_row is None:
            return Refused(RefusalCode.NO_SHOE, "no shoe is in play: start one")
        if self.pending:
            return Refused(RefusalCode.NOT_NOW, "a read already waits for a supervisor")
        table_id, shoe_id = self.table.id, shoe_row.id
        row = self.table.round
        round_id = None if row is None or row.phase.final else row.id

        def run(c: Connection) -> PendingRead:
            at = db_now(c)
            scan_id = f"misscan:{new_id()}"
            pending = add_pending(
                c,
                table_id=table_id,
                shoe_id=shoe_id,
                kind="misscan",
                scan_id=scan_id,
                card=command.card,
                reason=command.reason,
                at=at,
                read_by=command.actor,
                round_id=round_id,
            )
            details = {"table": table_id, "card": command.card.code, "reason": command.reason}
            append_audit(c, at, command.actor, "studio_misscan", details)
            return pending

        self.pending.append(await self.write(run))
        self.show("misscan")
        return Done()

    async def resolve(self, command: Resolve, *, before_time: BeforeTime | str) -> Reply:
        """A supervisor's decision on the read waiting: a misscan confirmed counts (as the
        table's rule says, like any read), or is rejected; an impossible read is discarded
        (the table goes on) or voids the round in play with it."""
        waiting = next((read for read in self.pending if read.id == command.read_id), None)
        if waiting is None:
            return Refused(RefusalCode.NOT_NOW, f"no read {command.read_id} waits for a decision")
        allowed = {"misscan": ("confirm", "reject"), "impossible": ("discard", "void")}
        if command.action not in allowed[waiting.kind]:
            choices = " or ".join(allowed[waiting.kind])
            return Refused(RefusalCode.INVALID_REQUEST, f"a {waiting.kind} read is {choices}d")
        table_id = self.table.id
        row = self.table.round
        in_play = None if row is None or row.phase.final else row

        def run(c: Connection) -> VoidedRound | None:
            at = db_now(c)
            resolve_pending(c, waiting.id, by=command.actor, resolution=command.action, at=at)
            details: dict[str, object] = {
                "table": table_id,
                "read": waiting.id,
                "card": waiting.card.code,
                "action": command.action,
                "reason": command.reason,
            }
            append_audit(c, at, command.actor, f"studio_{waiting.kind}_{command.action}", details)
            if command.action == "void" and in_play is not None:
                current = get_round(c, in_play.id, lock=True)
                if current is not None:
                    reason = f"impossible card: {waiting.reason}"
                    return void_round(c, current, reason, at, actor=command.actor, audit=details)
            return None

        voided = await self.write(run)
        self.pending = [read for read in self.pending if read.id != waiting.id]
        if voided is not None:
            show_void(self.table, voided, command.actor)
        if command.action == "confirm":
            self.show("misscan_confirmed")
            by = f"{waiting.read_by} (confirmed by {command.actor})"[:80]
            try:
                return await self.read(
                    ReadCard(waiting.card, f"confirmed:{waiting.id}", by),
                    before_time=before_time,
                )
            except ShoeError as error:  # judged already: kept as a refusal, never a crash
                return Refused(RefusalCode.TABLE_HALTED, str(error))
        self.show("resumed", command.action)
        return Done()
