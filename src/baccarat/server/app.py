"""The ASGI application factory of the live table service.

>>> from baccarat.server.config import ServerConfig, tables_from
>>> app = create_app(ServerConfig("sqlite:///:memory:", tables_from(["standard"])))
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
from baccarat.server.actions.admin_players import PlayerDesk
from baccarat.server.actions.admin_records import RecordDesk
from baccarat.server.actions.admin_reports import ReportDesk
from baccarat.server.actions.admin_rounds import RoundDesk
from baccarat.server.actions.admin_staff import StaffAccounts
from baccarat.server.actions.admin_tables import TableDesk
from baccarat.server.actions.reality_checks import push_reality_checks
from baccarat.server.admin_deps import Desks
from baccarat.server.bet_lane import BetLane
from baccarat.server.clock import Clock, SystemClock
from baccarat.server.config import ServerConfig
from baccarat.server.errors import install_error_handlers
from baccarat.server.feedsessions import watch_feed_sessions
from baccarat.server.protections import Protections
from baccarat.server.routers import ROUTERS
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


def create_app(
    config: ServerConfig,
    *,
    clock: Clock | None = None,
    policy_clock: Clock | None = None,
) -> FastAPI:
    """The app: its service starts (database, migrations, dealers) with the ASGI lifespan.

    ``clock`` is the dealers' clock; ``policy_clock`` (default: ``clock``) is the clock of
    sessions and responsible gaming (session expiry, limits, breaks, session time, on the
    bet path too), passed to everything that judges them. Tests move it (a day ahead, say)
    without moving the dealers.
    """
    service = Service(config, clock or SystemClock(), policy_clock=policy_clock)
    account_clock = service.policy_clock

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await service.start()
        protections.start()
        pusher = asyncio.create_task(
            push_reality_checks(service, account_clock), name="reality-checks"
        )
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
    app.state.accounts = Accounts(service, protections.guard, account_clock)
    app.state.controls = PlayerControls(service, account_clock)
    app.state.cashier = Cashier(service, account_clock)
    app.state.staff = StaffAccounts(service, protections.guard, account_clock)
    app.state.desks = Desks(
        tables=TableDesk(service, account_clock),
        rounds=RoundDesk(service, account_clock),
        players=PlayerDesk(service, account_clock),
        records=RecordDesk(service, account_clock),
        reports=ReportDesk(service, account_clock),
    )
    install_error_handlers(app)
    for router, responses in ROUTERS:
        app.include_router(router, responses=responses)
    if config.static_dir is not None:
        mount_web(app, config.static_dir)  # `/` is the page itself, `/static` its files

    return app
