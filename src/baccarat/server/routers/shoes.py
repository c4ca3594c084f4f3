"""``/api/shoes/{shoe_id}``: the commitment while in play; the full shoe record once ended
(also alone at ``/api/shoes/{shoe_id}/record``, the file ``baccarat verify`` checks)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from sqlalchemy import Connection

from baccarat.refusals import Refusal, RefusalCode
from baccarat.server.deps import CurrentPlayer, ServiceDep, ShoeId
from baccarat.server.errors import refused
from baccarat.server.models import SeedRequest, SeedResponse, ShoeView
from baccarat.server.routers.responses import errors
from baccarat.store.clock import db_now
from baccarat.store.records import shoe_record
from baccarat.store.shoes import ShoeRow, add_player_seed, get_shoe

__all__ = ["router"]

router = APIRouter(tags=["shoes"])


def _no_shoe(shoe_id: str) -> Refusal:
    return Refusal(RefusalCode.SHOE_NOT_FOUND, f"there is no shoe {shoe_id!r}")


@router.get("/api/shoes/{shoe_id}", responses=errors(404, 422))
async def get_shoe_view(shoe_id: ShoeId, service: ServiceDep) -> ShoeView:
    """The shoe's public facts; after its end, the server seed and the full record (verifiable)."""

    def run(c: Connection) -> tuple[ShoeRow | None, dict[str, Any] | None]:
        shoe = get_shoe(c, shoe_id)
        record = shoe_record(c, shoe) if shoe is not None and shoe.ended else None
        return shoe, record

    shoe, record = await service.runner.read(run)
    if shoe is None:
        raise refused(_no_shoe(shoe_id))
    return ShoeView.model_validate({**shoe.public(), "record": record})


@router.get(
    "/api/shoes/{shoe_id}/record",
    responses={
        **errors(404, 409, 422),
        200: {"description": "The bare shoe record, as `baccarat verify` reads it."},
    },
)
async def get_shoe_record(shoe_id: ShoeId, service: ServiceDep) -> JSONResponse:
    """The ended shoe's record alone (save it and run ``baccarat verify record.json``)."""

    def run(c: Connection) -> tuple[ShoeRow | None, dict[str, Any] | None]:
        shoe = get_shoe(c, shoe_id)
        record = shoe_record(c, shoe) if shoe is not None and shoe.ended else None
        return shoe, record

    shoe, record = await service.runner.read(run)
    if shoe is None:
        raise refused(_no_shoe(shoe_id))
    if record is None:
        message = "the shoe is still in play: its record comes at its end"
        raise refused(Refusal(RefusalCode.SHOE_IN_PLAY, message))
    disposition = f'inline; filename="shoe-{shoe.number}-{shoe_id[:8]}.json"'
    return JSONResponse(record, headers={"Content-Disposition": disposition})


@router.post("/api/shoes/{shoe_id}/seed", responses=errors(401, 404, 409, 422))
async def send_seed(
    shoe_id: ShoeId, body: SeedRequest, player: CurrentPlayer, service: ServiceDep
) -> SeedResponse:
    """Add your seed to the shoe's client seed; accepted until its first betting window closes."""

    def run(c: Connection) -> ShoeRow | bool | None:
        shoe = get_shoe(c, shoe_id)
        if shoe is None:
            return None
        if shoe.studio:  # a physical shoe: its order is the shuffle's, no seed makes it
            return False
        return add_player_seed(c, shoe_id, player, body.seed, db_now(c))

    result = await service.runner.write(run)
    if result is None:
        raise refused(_no_shoe(shoe_id))
    if result is False:
        message = "this shoe's client seed is already fixed (or it is a studio shoe: no seeds)"
        raise refused(Refusal(RefusalCode.CLIENT_SEED_FIXED, message))
    return SeedResponse(shoe_id=shoe_id, seed=body.seed)
