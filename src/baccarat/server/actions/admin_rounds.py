"""Operators and rounds: find rounds, see every bet on one, void one with a reason.

A round is voided before its cards are drawn (open or closed): one with its cards drawn
settles by them, since its coup belongs to the shoe's public record (409 ``round_dealt``).
A void returns every open stake through the store's one void path
(``store.settlement.void_round``), audited as the member of staff's with the reason. A round
settled or voided already is refused (409 ``round_finished``). When this node deals the
table, its dealer shows the void on the feed at once and stops dealing the round; another
node's dealer finds the round voided at its next step. Staff see a round through
``RoundRow.face()`` like everyone: no card before its reveal.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection

from baccarat.refusals import Refusal, RefusalCode
from baccarat.server.admin_models import (
    AdminBet,
    AdminRound,
    AdminRoundDetail,
    AdminRoundPage,
    VoidResult,
)
from baccarat.server.clock import Clock, iso_utc
from baccarat.server.errors import ApiError, refused
from baccarat.server.service import Service
from baccarat.store.admin_reads import find_rounds, round_bets
from baccarat.store.clock import db_now
from baccarat.store.rounds import RoundRow, get_round
from baccarat.store.settlement import VoidedRound, void_round
from baccarat.store.staff import StaffSession
from baccarat.table import Phase

__all__ = ["RoundDesk", "admin_round"]


def admin_round(row: RoundRow) -> AdminRound:
    """A round as staff see it: only what has been revealed."""
    face = row.face()
    coup = face.coup
    finished = row.finished_at
    return AdminRound.model_validate(
        {
            "id": row.id,
            "table_id": row.table_id,
            "shoe_id": row.shoe_id,
            "number": row.number,
            "phase": row.phase.value,
            "opened_at": iso_utc(row.opened_at),
            "finished_at": None if finished is None else iso_utc(finished),
            "cards": [card.to_json() for card in face.cards],
            "winner": None if coup is None else coup.winner.value,
            "void_reason": row.void_reason,
        }
    )


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
        rows = await self.service.runner.read(
            lambda c: find_rounds(
                c,
                table_id=table_id,
                since_ms=since_ms,
                until_ms=until_ms,
                limit=limit,
                before_id=before_id,
            )
        )
        more = rows[-1].id if len(rows) == limit else None
        return AdminRoundPage(rounds=[admin_round(row) for row in rows], next_before=more)

    async def detail(self, round_id: int) -> AdminRoundDetail:
        def run(c: Connection) -> tuple[RoundRow | None, list[dict[str, Any]]]:
            return get_round(c, round_id), round_bets(c, round_id)

        row, bets = await self.service.runner.read(run)
        if row is None:
            raise ApiError(404, "round_not_found", f"there is no round {round_id}")
        return AdminRoundDetail(round=admin_round(row), bets=[_bet(bet) for bet in bets])

    async def void(self, session: StaffSession, round_id: int, reason: str) -> VoidResult:
        """Void an unfinished round with ``reason``: every open stake back, audited."""
        actor = f"staff:{session.username}"

        def run(c: Connection) -> VoidedRound | RoundRow | None:
            row = get_round(c, round_id, lock=True)
            if row is None or row.phase is Phase.DEALT:
                return row
            voided = void_round(
                c, row, reason, db_now(c), actor=actor, audit={"role": session.role}
            )
            return row if voided is None else voided

        outcome = await self.service.runner.write(run)
        if outcome is None:
            raise ApiError(404, "round_not_found", f"there is no round {round_id}")
        if isinstance(outcome, RoundRow) and outcome.phase is Phase.DEALT:
            message = (
                f"round {round_id}'s cards are drawn: it settles by them (its coup belongs to "
                "the shoe record)"
            )
            raise refused(Refusal(RefusalCode.ROUND_DEALT, message))
        if isinstance(outcome, RoundRow):
            message = f"round {round_id} is {outcome.phase.value}: only a round in play is voided"
            raise refused(Refusal(RefusalCode.ROUND_FINISHED, message))
        row = outcome.change.row
        self.service.metrics.rounds.labels(row.table_id, "voided").inc()
        dealer = self.service.dealers.get(row.table_id)
        if dealer is not None:
            own = {player: {"returned": amount} for player, amount in outcome.returned.items()}
            dealer.staff_void(outcome.change, own)
        return VoidResult(round=admin_round(row), returned=outcome.returned)
