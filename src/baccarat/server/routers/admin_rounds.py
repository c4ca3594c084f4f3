"""``/api/admin/rounds``: find rounds, every bet of one, void one with a reason."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import AwareDatetime

from baccarat.server.admin_deps import DesksDep, Limit, RoundPath, admin_errors
from baccarat.server.admin_models import AdminRoundDetail, AdminRoundPage, ReasonBody, VoidResult
from baccarat.server.deps import StaffActor, StaffReader
from baccarat.server.errors import answer
from baccarat.server.models import MAX_ID, PRINTABLE

__all__ = ["router"]

router = APIRouter(tags=["admin"])


def _ms(moment: AwareDatetime | None) -> int | None:
    return None if moment is None else int(moment.timestamp() * 1000)


@router.get("/api/admin/rounds", responses=admin_errors(422))
async def find_rounds(
    _session: StaffReader,
    desks: DesksDep,
    table_id: Annotated[str | None, Query(max_length=64, pattern=PRINTABLE)] = None,
    since: Annotated[AwareDatetime | None, Query(description="Opened at or after.")] = None,
    until: Annotated[AwareDatetime | None, Query(description="Opened before.")] = None,
    before_id: Annotated[int | None, Query(ge=1, le=MAX_ID)] = None,
    limit: Limit = 50,
) -> AdminRoundPage:
    """Rounds, newest first, by table and opening time; page with ``before_id``."""
    return await desks.rounds.find(table_id, _ms(since), _ms(until), limit, before_id)


@router.get("/api/admin/rounds/{round_id}", responses=admin_errors(404, 422))
async def get_round(
    round_id: RoundPath, _session: StaffReader, desks: DesksDep
) -> AdminRoundDetail:
    """A round (only its revealed cards) and every bet on it, of every player."""
    return answer(await desks.rounds.detail(round_id))


@router.post("/api/admin/rounds/{round_id}/void", responses=admin_errors(404, 409, 422))
async def void_round(
    round_id: RoundPath, body: ReasonBody, session: StaffActor, desks: DesksDep
) -> VoidResult:
    """Void a round before its cards are drawn: every stake goes back (audited). A settled or
    voided round is refused (409 ``round_finished``), so is a dealt one (``round_dealt``)."""
    return answer(await desks.rounds.void(session, round_id, body.reason))
