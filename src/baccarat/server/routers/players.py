"""``/api/players``, ``/api/me`` and ``/api/config``: guest players with demo money.

A guest is given the demo credit from the ``demo-bank`` account; its balance is demo money
(``"demo": true``). An operator may turn guests off (``baccarat serve --guests off``): then
``POST /api/players`` answers ``403 guests_disabled`` and ``GET /api/config`` tells the page.
A device whose last seat (its seat device token) an operator locked gets no new guest
(``403 device_locked``) until the player is unlocked; ``POST /api/players/seat-status`` tells
the page why its token stopped working.
"""

from __future__ import annotations

from fastapi import APIRouter, Request

from baccarat.rulesets import CURRENCIES, DEFAULT_CURRENCY
from baccarat.server.deps import AccountsDep, CurrentPlayer, ServiceDep
from baccarat.server.errors import answer
from baccarat.server.guard import RATE_LIMITED, GuardDep, client_address
from baccarat.server.models import (
    ClientConfig,
    GuestRequest,
    Me,
    PlayerCreated,
    SeatDeviceRequest,
    SeatStatus,
)
from baccarat.server.routers.responses import errors

__all__ = ["router"]

router = APIRouter(tags=["players"])


@router.get("/api/config")
async def client_config(service: ServiceDep) -> ClientConfig:
    """Whether guests may play, their demo credit, the money every table counts in, and the
    rule set the page's Rules link opens (the first table's)."""
    config = service.config
    # The tables share one currency (tables_from), so any table's rule set names it.
    rules = next(iter(service.rulesets().values()), None)
    return ClientConfig(
        guests=config.guests,
        demo_credit=config.guest_credit,
        currency=rules.currency if rules else DEFAULT_CURRENCY,
        minor_unit=rules.minor_unit if rules else CURRENCIES[DEFAULT_CURRENCY],
        rules=rules.name if rules else "standard",
        language="id" if config.locale == "id" else None,
    )


@router.post("/api/players", status_code=201, responses={**errors(403, 422), **RATE_LIMITED})
async def new_player(
    accounts: AccountsDep, guard: GuardDep, request: Request, body: GuestRequest | None = None
) -> PlayerCreated:
    """A guest player holding the demo credit in demo money (403 ``guests_disabled`` while
    guests are turned off; 403 ``device_locked`` while the player of this device's last seat,
    named by the seat device token sent, is locked or closed). Keep the token: it is shown
    only once; keep the seat device token on the device."""
    if accounts.service.config.guests:
        await guard.limit("guests_per_address", client_address(request))
    return answer(await accounts.new_guest(None if body is None else body.seat_device))


@router.post("/api/players/seat-status", responses=errors(422))
async def seat_status(body: SeatDeviceRequest, accounts: AccountsDep) -> SeatStatus:
    """Whether the player of this device's last seat is locked or closed by an operator (its
    sessions ended then): why its token stopped working. 422 for a token this server did not
    make."""
    return answer(await accounts.seat_status(body.seat_device))


@router.get("/api/me", responses=errors(401, 403, 503), response_model_exclude_unset=True)
async def me(player: CurrentPlayer, accounts: AccountsDep) -> Me:
    """The caller's id and balance (money not staked), and whether it is demo money. An
    operator's player (a launch) has its balance at the operator's wallet, and the operator's
    name: 503 ``wallet_unavailable`` while the wallet does not answer."""
    return answer(await accounts.me(player))
