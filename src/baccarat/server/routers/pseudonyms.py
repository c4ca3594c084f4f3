"""``/api/me/shoes/{shoe_id}/pseudonym``: the caller's name in a shoe's public record.

Shoe records name players by per-shoe pseudonyms (``baccarat.store.pseudonyms``); a player
asks here for their own to find their wagers in a record.
"""

from __future__ import annotations

from fastapi import APIRouter
from sqlalchemy import Connection

from baccarat.refusals import Refusal, RefusalCode
from baccarat.server.deps import CurrentPlayer, ServiceDep, ShoeId
from baccarat.server.errors import refused
from baccarat.server.models import ShoePseudonym
from baccarat.server.routers.responses import errors
from baccarat.store.pseudonyms import pseudonym, record_key
from baccarat.store.shoes import get_shoe

__all__ = ["router"]

router = APIRouter(tags=["shoes"])


@router.get("/api/me/shoes/{shoe_id}/pseudonym", responses=errors(401, 404, 422))
async def my_pseudonym(
    shoe_id: ShoeId, player: CurrentPlayer, service: ServiceDep
) -> ShoePseudonym:
    """Your pseudonym in the shoe's record (the same for every wager of yours in it)."""

    def run(c: Connection) -> str | None:
        if get_shoe(c, shoe_id) is None:
            return None
        return pseudonym(record_key(c), shoe_id, player)

    found = await service.runner.read(run)
    if found is None:
        raise refused(Refusal(RefusalCode.SHOE_NOT_FOUND, f"there is no shoe {shoe_id!r}"))
    return ShoePseudonym(shoe_id=shoe_id, pseudonym=found)
