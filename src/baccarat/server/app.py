"""The ASGI application factory of the live table service.

>>> from baccarat.server.config import Settings
>>> app = create_app(Settings(db="sqlite:///:memory:", tables="standard"))
>>> sorted(path for path in app.openapi()["paths"] if path.startswith("/api/tables"))[:2]
['/api/tables', '/api/tables/{table_id}']
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi_offline import FastAPIOffline

from baccarat.server.actions import Accounts, Cashier, PlayerControls
from baccarat.server.actions.admin_operators import OperatorDesk
from baccarat.server.actions.admin_players import PlayerDesk
from baccarat.server.actions.admin_records import RecordDesk
from baccarat.server.actions.admin_reports import ReportDesk
from baccarat.server.actions.admin_rounds import RoundDesk
from baccarat.server.actions.admin_shifts import ShiftDesk
from baccarat.server.actions.admin_staff import StaffAccounts
from baccarat.server.actions.admin_tables import TableDesk
from baccarat.server.actions.launches import Launches
from baccarat.server.actions.reality_checks import push_reality_checks
from baccarat.server.actions.studio import StudioDesks
from baccarat.server.admin_deps import Desks
from baccarat.server.bet_lane import BetLane
from baccarat.server.clock import Clock, SystemClock, VirtualClock
from baccarat.server.config import Settings
from baccarat.server.errors import install_error_handlers
from baccarat.server.feedsessions import watch_feed_sessions
from baccarat.server.protections import Protections
from baccarat.server.routers import ROUTERS, virtual_clock
from baccarat.server.routers.feed import FeedLane
from baccarat.server.service import Service
from baccarat.web.mount import mount_web

__all__ = ["create_app"]

DESCRIPTION = """\
A live punto banco table: rounds with a betting window, provably fair shoes
(`baccarat-shoe-v1`), a double-entry ledger in integer minor units.

Errors are `{"error": {"code": ..., "message": ...}}`. Bets need an `Idempotency-Key`.
The live feed is the WebSocket `/ws/tables/{table_id}`.

Registered players log in at `/api/sessions` (a token that expires); limits, breaks, the
session time limit and reality checks are enforced on every bet and deposit.

Staff (operators, auditors, admins) log in at `/api/admin/login`; their token opens only
`/api/admin` routes, each checked by role, and every change is in the audit chain.
"""


def create_app(config: Settings, *, clock: Clock | None = None) -> FastAPI:
    """The app: its service starts (database, migrations, dealers) with the ASGI lifespan.

    ``clock`` is the server's one clock: the dealers' pacing, sessions, responsible gaming
    (limits, breaks, session time, on the bet path too) and presence all read it. By default
    the system's, or, with ``config.virtual_clock``, a ``VirtualClock`` that only moves when
    ``POST /api/test/clock`` says (that route exists only then). Tests pass their own.
    """
    if clock is None:
        clock = VirtualClock() if config.virtual_clock else SystemClock()
    elif config.virtual_clock and not isinstance(clock, VirtualClock):
        raise ValueError("virtual_clock needs a VirtualClock")
    service = Service(config, clock)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await service.start()
        protections.start()
        pusher = asyncio.create_task(push_reality_checks(service, clock), name="reality-checks")
        watcher = asyncio.create_task(watch_feed_sessions(service), name="feed-sessions")
        try:
            yield
        finally:
            watcher.cancel()
            pusher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await pusher
            with contextlib.suppress(asyncio.CancelledError):
                await watcher
            await service.stop()
            protections.stop()

    # `/docs` (Swagger UI) and `/redoc` (ReDoc) with their scripts and styles from the
    # fastapi-offline package, served at /static-offline-docs: no CDN, so they work offline.
    app = FastAPIOffline(
        title="baccarat table service",
        version="1",
        description=DESCRIPTION,
        lifespan=lifespan,
    )
    # The bets' fast lane first: the middleware added last (Hygiene) wraps it.
    app.add_middleware(BetLane, service=service)
    protections = Protections(app, config, service.metrics)
    # The feeds outermost of the app's own middleware: a feed passes none it does not need.
    app.add_middleware(FeedLane)
    app.state.service = service
    app.state.protections = protections
    app.state.accounts = Accounts(service, protections.guard, clock)
    app.state.controls = PlayerControls(service, clock)
    app.state.cashier = Cashier(service, clock)
    app.state.launches = Launches(service, clock)
    app.state.staff = StaffAccounts(service, protections.guard, clock)
    app.state.desks = Desks(
        tables=TableDesk(service, clock),
        rounds=RoundDesk(service, clock),
        players=PlayerDesk(service, clock),
        records=RecordDesk(service, clock),
        reports=ReportDesk(service, clock),
    )
    app.state.shifts = ShiftDesk(service, clock)
    app.state.operator_desk = OperatorDesk(service, clock)
    app.state.studio = StudioDesks(service, clock)
    install_error_handlers(app)
    for router, responses in ROUTERS:
        app.include_router(router, responses=responses)
    if isinstance(clock, VirtualClock):  # a test's server: it moves the clock itself
        app.include_router(virtual_clock.router)
    if config.static is not None:  # ``baccarat serve`` names the browser table's by default
        mount_web(app, config.static)  # `/` is the page itself, `/static` its files

    return app
