"""``/api/studio/tables/{table}``: a studio table's shoe device, dealer console and supervisor
(``docs/studio.md``).

Cards come from the table's device token or a dealer at its console; the console's other
actions are a dealer's (or a supervisor's); what waits for a supervisor is an operator's or
an admin's. A player's token opens none of them.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field

from baccarat.cards import Card
from baccarat.refusals import Refusal, RefusalCode
from baccarat.server.actions.studio import Caller, StudioDesks
from baccarat.server.admin_deps import admin_errors
from baccarat.server.admin_models import Reason
from baccarat.server.deps import Credentials, StaffAccountsDep, TableId
from baccarat.server.errors import answer, refused

__all__ = ["router"]

router = APIRouter(tags=["studio"])

#: A card code: rank A 2-9 T (or 10) J Q K, suit s h d c, any case.
CARD_CODE = r"^(?i:(?:[2-9atjqk]|10)[shdc])$"
SCAN_ID = r"^[A-Za-z0-9._:-]{1,64}$"
#: Who runs a studio table's console; who resolves what waits for a supervisor.
DEALING = frozenset({"dealer", "operator", "admin"})
SUPERVISING = frozenset({"operator", "admin"})


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CardRead(_Body):
    card: str = Field(pattern=CARD_CODE, description="A card code, e.g. 'Ah', 'Td', '10d'.")
    scan_id: str = Field(pattern=SCAN_ID, description="Unique per card read; a retry repeats it.")


class HandCard(_Body):
    card: str = Field(pattern=CARD_CODE)
    reason: Reason


class Certificate(_Body):
    shuffled_by: str = Field(min_length=1, max_length=64, pattern=r"^[^\x00-\x1f\x7f]+$")
    decks: int = Field(8, ge=1, le=8)
    deck_serials: list[Annotated[str, Field(min_length=1, max_length=40)]] = Field(
        default_factory=list, max_length=8
    )
    cut_card: int = Field(14, ge=0, le=410, description="Cards behind the cut card.")


class ReasonOnly(_Body):
    reason: Reason


def _desks(request: Request) -> StudioDesks:
    desks: StudioDesks = request.app.state.studio
    return desks


StudioDesksDep = Annotated[StudioDesks, Depends(_desks)]


def _unauthorized() -> Exception:
    message = "a device token or a studio staff token is needed"
    return refused(Refusal(RefusalCode.UNAUTHORIZED, message), {"WWW-Authenticate": "Bearer"})


class _Who:
    """The caller of a studio route: a device token (``devices``) or a staff token whose role
    is one of ``roles``; 401 without either, 403 for another role or a device elsewhere."""

    def __init__(self, roles: frozenset[str], *, devices: bool) -> None:
        self.roles, self.devices = roles, devices

    async def __call__(
        self, credentials: Credentials, desks: StudioDesksDep, staff: StaffAccountsDep
    ) -> Caller:
        if credentials is None:
            raise _unauthorized()
        token = credentials.credentials
        device = await desks.device(token)
        if device is not None:
            if not self.devices:
                message = "a device token pushes cards and does nothing else"
                raise refused(Refusal(RefusalCode.DEVICE_FORBIDDEN, message))
            return Caller(f"device:{device.id}", "device", device.table_id)
        session = await staff.session(token)
        if session is None:
            raise _unauthorized()
        if session.role not in self.roles:
            allowed = ", ".join(sorted(self.roles))
            message = f"the role {session.role!r} may not do this (allowed: {allowed})"
            raise refused(Refusal(RefusalCode.ROLE_FORBIDDEN, message))
        return Caller(f"staff:{session.username}", session.role, session=session)


Reader = Annotated[Caller, Depends(_Who(DEALING, devices=True))]
Dealer = Annotated[Caller, Depends(_Who(DEALING, devices=False))]
Supervisor = Annotated[Caller, Depends(_Who(SUPERVISING, devices=False))]
_ERRORS = admin_errors(404, 409, 422)


@router.post("/api/studio/tables/{table_id}/cards", responses=_ERRORS)
async def read_card(
    table_id: TableId, body: CardRead, caller: Reader, desks: StudioDesksDep
) -> dict[str, Any]:
    """A card read by the table's shoe (device token) or typed at its console (dealer):
    where it went and what is due next. A retry with the same ``scan_id`` gets the same
    answer; a card that cannot be next halts the table (409 ``table_halted``)."""
    card = Card.parse(body.card)
    result: dict[str, Any] = answer(await desks.read(caller, table_id, card, body.scan_id))
    return result


@router.get("/api/studio/tables/{table_id}", responses=admin_errors(404))
async def console(table_id: TableId, _caller: Dealer, desks: StudioDesksDep) -> dict[str, Any]:
    """The table as its dealer's console shows it: what is due, the round, the cards shown,
    the shoe and what waits for a supervisor."""
    result: dict[str, Any] = answer(await desks.console(table_id))
    return result


@router.post("/api/studio/tables/{table_id}/shoe", status_code=201, responses=_ERRORS)
async def start_shoe(
    table_id: TableId, body: Certificate, caller: Dealer, desks: StudioDesksDep
) -> dict[str, Any]:
    """A new shoe (its shuffle certificate), between rounds; its burn is read next."""
    certificate = {
        "shuffled_by": body.shuffled_by,
        "shuffled_at": desks.clock.now_ms(),
        "decks": body.decks,
        "deck_serials": body.deck_serials,
        "cut_card": body.cut_card,
    }
    result: dict[str, Any] = answer(await desks.start_shoe(caller, table_id, certificate))
    return result


@router.post("/api/studio/tables/{table_id}/close", responses=_ERRORS)
async def close_betting(table_id: TableId, caller: Dealer, desks: StudioDesksDep) -> dict[str, Any]:
    """Close betting now, before the deadline (where the table allows it)."""
    result: dict[str, Any] = answer(await desks.close(caller, table_id))
    return result


@router.post("/api/studio/tables/{table_id}/misscan", responses=_ERRORS)
async def misscan(
    table_id: TableId, body: HandCard, caller: Dealer, desks: StudioDesksDep
) -> dict[str, Any]:
    """A card left the shoe unread: typed by hand, it counts once a supervisor confirms."""
    card = Card.parse(body.card)
    result: dict[str, Any] = answer(await desks.misscan(caller, table_id, card, body.reason))
    return result


@router.post("/api/studio/tables/{table_id}/misdeal", responses=_ERRORS)
async def misdeal(
    table_id: TableId, body: ReasonOnly, caller: Dealer, desks: StudioDesksDep
) -> dict[str, Any]:
    """Cards exposed: the round in play is voided and every stake goes back (audited)."""
    result: dict[str, Any] = answer(await desks.misdeal(caller, table_id, body.reason))
    return result


@router.post("/api/studio/tables/{table_id}/dealer", responses=_ERRORS)
async def take_table(table_id: TableId, caller: Dealer, desks: StudioDesksDep) -> dict[str, Any]:
    """The caller takes the table (a dealer change): seated from now, audited with who was."""
    result: dict[str, Any] = answer(await desks.seat(caller, table_id))
    return result


@router.post("/api/studio/tables/{table_id}/pause", responses=_ERRORS)
async def pause(
    table_id: TableId, body: ReasonOnly, caller: Dealer, desks: StudioDesksDep, request: Request
) -> dict[str, Any]:
    """No new round opens (the round in play finishes): stored and audited, as an operator's
    pause in the back office."""
    return await _status(table_id, "paused", body.reason, caller, desks, request)


@router.post("/api/studio/tables/{table_id}/resume", responses=_ERRORS)
async def resume(
    table_id: TableId, body: ReasonOnly, caller: Dealer, desks: StudioDesksDep, request: Request
) -> dict[str, Any]:
    """Rounds open again."""
    return await _status(table_id, "open", body.reason, caller, desks, request)


async def _status(
    table_id: str, status: str, reason: str, caller: Caller, desks: StudioDesks, request: Request
) -> dict[str, Any]:
    found = desks.studio_table(table_id)
    if isinstance(found, Refusal):
        raise refused(found)
    assert caller.session is not None
    tables = request.app.state.desks.tables
    answer(await tables.set_status(caller.session, table_id, status, reason))
    result: dict[str, Any] = answer(await desks.console(table_id))
    return result


_DECISIONS = {
    "misscan/confirm": ("misscan", "confirm"),
    "misscan/reject": ("misscan", "reject"),
    "halt/discard": ("impossible", "discard"),
    "halt/void": ("impossible", "void"),
}


def _decision(path: str) -> Any:
    kind, action = _DECISIONS[path]

    async def decide(
        table_id: TableId, body: ReasonOnly, caller: Supervisor, desks: StudioDesksDep
    ) -> dict[str, Any]:
        outcome = await desks.resolve(caller, table_id, kind, action, body.reason)
        result: dict[str, Any] = answer(outcome)
        return result

    decide.__doc__ = {
        "misscan/confirm": "A supervisor confirms the card typed by hand: it counts now.",
        "misscan/reject": "A supervisor rejects the card typed by hand: it never counts.",
        "halt/discard": "A supervisor sets the impossible read aside: the table goes on.",
        "halt/void": "A supervisor voids the round in play with the impossible read.",
    }[path]
    decide.__name__ = path.replace("/", "_")
    return decide


for _path in _DECISIONS:
    router.add_api_route(
        f"/api/studio/tables/{{table_id}}/{_path}",
        _decision(_path),
        methods=["POST"],
        responses=_ERRORS,
    )
