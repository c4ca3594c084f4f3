"""``/api/rounds/{round_id}``: a round's revealed cards, its winner, and the caller's bets.

What the round shows comes from the database (``RoundRow.face``), like every other view of
it, so any process answers the same and none shows a card before its reveal.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path
from sqlalchemy import Connection

from baccarat.refusals import Refusal, RefusalCode
from baccarat.server.clock import iso_utc
from baccarat.server.deps import OptionalPlayer, ServiceDep
from baccarat.server.errors import refused
from baccarat.server.models import MAX_ID, RoundView
from baccarat.server.routers.responses import errors
from baccarat.store.bet_reads import player_round_bets
from baccarat.store.rounds import RoundRow, get_round

router = APIRouter(tags=["rounds"])


@router.get(
    "/api/rounds/{round_id}",
    responses=errors(401, 404, 422),
    # The token is optional here: without one, the round is shown without anyone's bets.
    openapi_extra={"security": [{}]},
)
async def get_round_view(
    round_id: Annotated[int, Path(ge=1, le=MAX_ID)],
    player: OptionalPlayer,
    service: ServiceDep,
) -> RoundView:
    """A round: only the cards revealed so far, the winner once all are, your bets if you send a token."""

    def run(c: Connection) -> tuple[RoundRow | None, list[dict[str, Any]]]:
        row = get_round(c, round_id)
        mine = player_round_bets(c, round_id, player) if row is not None and player else []
        return row, mine

    row, mine = await service.runner.read(run)
    if row is None:
        raise refused(Refusal(RefusalCode.ROUND_NOT_FOUND, f"there is no round {round_id}"))
    face = row.face()
    coup = face.coup
    return RoundView.model_validate(
        {
            "id": row.id,
            "table_id": row.table_id,
            "shoe_id": row.shoe_id,
            "number": row.number,
            "phase": row.phase.value,
            "closes_at": iso_utc(row.closes_at),
            "cards": [card.to_json() for card in face.cards],
            "winner": None if coup is None else coup.winner.value,
            "player_total": None if coup is None else coup.player_total,
            "banker_total": None if coup is None else coup.banker_total,
            "void_reason": row.void_reason,
            "bets": mine,
        }
    )
