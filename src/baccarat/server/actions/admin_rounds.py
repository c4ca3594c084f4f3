"""Operators and rounds: find rounds, see every bet on one, void one with a reason.

A void is a command (``baccarat.live.commands.VoidRound``) to the runtime dealing the round's
table, here or on another node: it voids the round by the round's own rule (open, closed, or
dealt and mid-reveal: a misdeal), returns every open stake through the store's one void path
(``store.settlement.void_round``), audited as the member of staff's with the reason, shows
the void on the feed at once and stops dealing the round. A round settled or voided already
is refused (409 ``round_finished``). Staff see a round through ``RoundRow.face()`` like
everyone: no card before its reveal.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection

from baccarat.live.commands import Refused, Voided, VoidRound
from baccarat.refusals import Refusal, RefusalCode
from baccarat.server.admin_models import (
    AdminBet,
    AdminRound,
    AdminRoundDetail,
    AdminRoundPage,
    VoidResult,
)
from baccarat.server.clock import Clock, iso_utc
from baccarat.server.service import Service
from baccarat.store.admin_reads import find_rounds, round_bets
from baccarat.store.rounds import RoundRow, get_round
from baccarat.store.shoes import shoe_numbers
from baccarat.store.staff import StaffSession

__all__ = ["RoundDesk", "admin_round"]


def admin_round(row: RoundRow, shoe_number: int) -> AdminRound:
    """A round as staff see it: only what has been revealed; its server-wide id, and the
    number of its shoe at the table and its number in that shoe, as players name it."""
    face = row.face()
    coup = face.coup
    finished = row.finished_at
    return AdminRound.model_validate(
        {
            "id": row.id,
            "table_id": row.table_id,
            "shoe_id": row.shoe_id,
            "shoe_number": shoe_number,
            "number": row.number,
            "phase": row.phase.value,
            "opened_at": iso_utc(row.opened_at),
            "finished_at": None if finished is None else iso_utc(finished),
            "cards": [card.to_json() for card in face.cards],
            "winner": None if coup is None else coup.winner.value,
            "void_reason": row.void_reason,
        }
    )


def _read_round(c: Connection, round_id: int) -> AdminRound | None:
    """Round ``round_id`` as staff see it, or ``None``."""
    row = get_round(c, round_id)
    if row is None:
        return None
    return admin_round(row, shoe_numbers(c, [row.shoe_id])[row.shoe_id])


def _no_round(round_id: int) -> Refusal:
    return Refusal(RefusalCode.ROUND_NOT_FOUND, f"there is no round {round_id}")


def _bet(bet: dict[str, Any]) -> AdminBet:
    return AdminBet.model_validate({**bet, "placed_at": iso_utc(bet["placed_at"])})


class RoundDesk:
    """The round actions of one server."""

    def __init__(self, service: Service, clock: Clock) -> None:
        self.service = service
        self.clock = clock

    async def find(
        self,
        table_id: str | None,
        since_ms: int | None,
        until_ms: int | None,
        limit: int,
        before_id: int | None,
    ) -> AdminRoundPage:
        def run(c: Connection) -> tuple[list[RoundRow], dict[str, int]]:
            rows = find_rounds(
                c,
                table_id=table_id,
                since_ms=since_ms,
                until_ms=until_ms,
                limit=limit,
                before_id=before_id,
            )
            return rows, shoe_numbers(c, (row.shoe_id for row in rows))

        rows, numbers = await self.service.runner.read(run)
        more = rows[-1].id if len(rows) == limit else None
        views = [admin_round(row, numbers[row.shoe_id]) for row in rows]
        return AdminRoundPage(rounds=views, next_before=more)

    async def detail(self, round_id: int) -> AdminRoundDetail | Refusal:
        def run(c: Connection) -> tuple[AdminRound | None, list[dict[str, Any]]]:
            return _read_round(c, round_id), round_bets(c, round_id)

        found, bets = await self.service.runner.read(run)
        if found is None:
            return _no_round(round_id)
        return AdminRoundDetail(round=found, bets=[_bet(bet) for bet in bets])

    async def void(self, session: StaffSession, round_id: int, reason: str) -> VoidResult | Refusal:
        """Void an unfinished round with ``reason``: every open stake back, audited."""
        actor = f"staff:{session.username}"

        found = await self.service.runner.read(lambda c: get_round(c, round_id))
        if found is None:
            return _no_round(round_id)
        # The runtime dealing the table voids it by the round's own rule (open, closed or
        # mid-reveal), audited as this member of staff's, and shows it on the feed.
        command = VoidRound(round_id, reason, actor=actor, audit={"role": session.role})
        reply = await self.service.commands.ask(found.table_id, command)
        if isinstance(reply, Refused):
            return Refusal(reply.code, reply.message)
        view = await self.service.runner.read(lambda c: _read_round(c, round_id))
        assert view is not None and isinstance(reply, Voided)
        return VoidResult(round=view, returned=dict(reply.returned))
