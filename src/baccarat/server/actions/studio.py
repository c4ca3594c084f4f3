"""What a studio table's shoe device, dealer and supervisor do: each a command to the runtime
dealing the table (``baccarat.live.commands``), which judges, stores and shows it.

Who may ask is checked here, before anything is sent: a device token pushes cards to its own
table and nothing else; a dealer runs the console; a supervisor (operator or admin) resolves
what waits for one. Nothing is decided here: the runtime's desk decides, in its transaction.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from baccarat.cards import Card
from baccarat.live.commands import (
    CloseBets,
    Command,
    Done,
    Misscan,
    Placed,
    ReadCard,
    Refused,
    Resolve,
    SeatDealer,
    StartShoe,
    Voided,
    VoidRound,
)
from baccarat.refusals import Refusal, RefusalCode
from baccarat.server.clock import Clock
from baccarat.server.service import Service
from baccarat.store.device_tokens import DeviceToken, device_of
from baccarat.store.staff import StaffSession
from baccarat.store.studio import pending_reads
from baccarat.store.table_controls import get_control
from baccarat.table import TableSettings

__all__ = ["Caller", "StudioDesks"]


@dataclass(frozen=True, slots=True)
class Caller:
    """Who calls a studio route: a shoe device (of one table) or a member of staff."""

    actor: str
    role: str
    #: A device's one table (``None``: a member of staff).
    device_table: str | None = None
    #: A member of staff's session (``None``: a device).
    session: StaffSession | None = None


class StudioDesks:
    """The studio routes' actions."""

    def __init__(self, service: Service, clock: Clock) -> None:
        self.service = service
        self.clock = clock

    async def device(self, token: str) -> DeviceToken | None:
        """The live device behind a bearer token, if it is one."""
        return await self.service.runner.read(lambda c: device_of(c, token))

    def studio_table(self, table_id: str) -> TableSettings | Refusal:
        for settings in self.service.config.tables:
            if settings.table_id == table_id:
                if not settings.studio:
                    message = f"table {table_id!r} is dealt by the server, not a studio"
                    return Refusal(RefusalCode.NOT_A_STUDIO, message)
                return settings
        return Refusal(RefusalCode.TABLE_NOT_FOUND, f"there is no table {table_id!r}")

    async def _ask(self, table_id: str, command: Command) -> Any:
        found = self.studio_table(table_id)
        if isinstance(found, Refusal):
            return found
        reply = await self.service.commands.ask(table_id, command)
        if isinstance(reply, Refused):
            return Refusal(reply.code, reply.message)
        return reply

    async def read(self, caller: Caller, table_id: str, card: Card, scan_id: str) -> Any:
        """A card read by the table's shoe (or typed at its console)."""
        if caller.device_table is not None and caller.device_table != table_id:
            message = "this device token pushes cards to another table"
            return Refusal(RefusalCode.DEVICE_FORBIDDEN, message)
        reply = await self._ask(table_id, ReadCard(card, scan_id, caller.actor))
        if isinstance(reply, Placed):
            return {
                "scan_id": reply.scan_id,
                "card": reply.card,
                "position": reply.position,
                "seq": reply.seq,
                "round_id": reply.round_id,
                "shoe_id": reply.shoe_id,
                "repeat": reply.repeat,
                "next": reply.next,
            }
        return reply

    async def start_shoe(self, caller: Caller, table_id: str, certificate: dict[str, Any]) -> Any:
        command = StartShoe(certificate, caller.actor, {"role": caller.role})
        reply = await self._ask(table_id, command)
        return await self.console(table_id) if isinstance(reply, Done) else reply

    async def close(self, caller: Caller, table_id: str) -> Any:
        del caller
        reply = await self._ask(table_id, CloseBets())
        return await self.console(table_id) if isinstance(reply, Done) else reply

    async def misscan(self, caller: Caller, table_id: str, card: Card, reason: str) -> Any:
        reply = await self._ask(table_id, Misscan(card, reason, caller.actor))
        return await self.console(table_id) if isinstance(reply, Done) else reply

    async def resolve(
        self, caller: Caller, table_id: str, kind: str, action: str, reason: str
    ) -> Any:
        """A supervisor's decision on the read of ``kind`` waiting at the table."""
        found = self.studio_table(table_id)
        if isinstance(found, Refusal):
            return found
        waiting = await self.service.runner.read(lambda c: pending_reads(c, table_id))
        read = next((read for read in waiting if read.kind == kind), None)
        if read is None:
            return Refusal(RefusalCode.NOT_NOW, f"no {kind} read waits at table {table_id!r}")
        reply = await self._ask(table_id, Resolve(read.id, action, reason, caller.actor))
        if isinstance(reply, Refusal):
            return reply
        return await self.console(table_id)

    async def seat(self, caller: Caller, table_id: str) -> Any:
        """The caller, a dealer, takes the table (a dealer change)."""
        assert caller.session is not None
        command = SeatDealer(caller.session.username, caller.actor, {"role": caller.role})
        reply = await self._ask(table_id, command)
        return await self.console(table_id) if isinstance(reply, Done) else reply

    async def misdeal(self, caller: Caller, table_id: str, reason: str) -> Any:
        """Cards exposed: the round in play is voided, every stake back (audited)."""
        found = self.studio_table(table_id)
        if isinstance(found, Refusal):
            return found
        view = await self.console(table_id)
        if isinstance(view, Refusal):
            return view
        current = view["round"]
        if current is None or current["phase"] in ("settled", "voided"):
            return Refusal(RefusalCode.NOT_NOW, "no round is in play")
        command = VoidRound(
            int(current["id"]),
            f"misdeal: {reason}",
            actor=caller.actor,
            audit={"role": caller.role, "procedure": "misdeal"},
        )
        reply = await self._ask(table_id, command)
        if isinstance(reply, Voided):
            return {"round_id": reply.round_id, "returned": dict(reply.returned)}
        return reply

    async def console(self, table_id: str) -> Any:
        """The table as its dealer's console shows it: the feed's snapshot (only revealed
        cards) and the reads waiting for a supervisor."""
        found = self.studio_table(table_id)
        if isinstance(found, Refusal):
            return found
        mirror = self.service.tables.get(table_id)
        try:
            snapshot = mirror.snapshot() if mirror is not None else None
        except LookupError:
            snapshot = None
        if snapshot is None:
            return Refusal(RefusalCode.TABLE_STARTING, f"table {table_id!r} is starting")
        waiting, control = await self.service.runner.read(
            lambda c: (pending_reads(c, table_id), get_control(c, table_id))
        )
        studio = snapshot.get("studio") or {}
        return {
            "table_id": table_id,
            "next": studio.get("next", "shoe_change"),
            "studio": studio,
            "round": snapshot["round"],
            "cards": snapshot["cards"],
            "result": snapshot["result"],
            "shoe": snapshot["shoe"],
            "settings": snapshot["settings"],
            "pending": [read.to_json() for read in waiting],
            "status": control.status,
            "now": snapshot["now"],
        }
