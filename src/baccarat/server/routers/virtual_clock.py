"""``/api/test/clock``: a test moves the server's virtual clock (``--virtual-clock on``).

The app includes this router only when the server runs on a ``VirtualClock``, which only a
test may start (``Settings.virtual_clock_refusal``); without it the route does not exist
(404). Even then it answers only callers on this machine (a loopback peer).

Time moves only here: the betting windows, the reveal and result pauses, the sessions and
responsible gaming, and the database's clock of the bet path (``db_now``) all read the one
clock. An answer gives the time and how many sleeps wait for it (``sleeping``): a test that
advances then waits, in real time, for the dealers to be asleep again before it looks.
"""

from __future__ import annotations

import ipaddress

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from baccarat.refusals import Refusal, RefusalCode
from baccarat.server.clock import VirtualClock
from baccarat.server.deps import ServiceDep
from baccarat.server.errors import refused

__all__ = ["ClockAdvance", "ClockState", "router"]

router = APIRouter(tags=["tests"], include_in_schema=False)

#: The most one call moves the clock: a year.
MAX_ADVANCE_MS = 366 * 86_400_000


class ClockAdvance(BaseModel):
    """How far to move the clock."""

    model_config = ConfigDict(extra="forbid")

    advance_ms: StrictInt = Field(ge=0, le=MAX_ADVANCE_MS, description="Milliseconds ahead.")


class ClockState(BaseModel):
    """The virtual clock after the call."""

    model_config = ConfigDict(extra="forbid")

    now_ms: int = Field(description="The time, epoch milliseconds.")
    sleeping: int = Field(description="How many sleeps (the dealers' waits) wait for it.")
    next_ms: int | None = Field(description="The earliest deadline they wait for.")


def _virtual_clock(service: ServiceDep, request: Request) -> VirtualClock:
    """The server's virtual clock, for a caller on this machine; else the 404 of no route."""
    host = request.client.host if request.client is not None else ""
    try:
        local = ipaddress.ip_address(host).is_loopback
    except ValueError:
        local = False
    clock = service.clock
    if not local or not isinstance(clock, VirtualClock):
        raise refused(Refusal(RefusalCode.NOT_FOUND, "Not Found"))
    return clock


def _state(clock: VirtualClock) -> ClockState:
    return ClockState(now_ms=clock.now_ms(), sleeping=clock.sleeping, next_ms=clock.next_deadline)


@router.get("/api/test/clock", response_model=ClockState)
async def read_clock(service: ServiceDep, request: Request) -> ClockState:
    """The virtual clock's time and sleepers, unmoved."""
    return _state(_virtual_clock(service, request))


@router.post("/api/test/clock", response_model=ClockState)
async def advance_clock(body: ClockAdvance, service: ServiceDep, request: Request) -> ClockState:
    """Move the virtual clock ``advance_ms`` ahead, waking the sleeps it passes in order."""
    clock = _virtual_clock(service, request)
    clock.advance(body.advance_ms)
    return _state(clock)
