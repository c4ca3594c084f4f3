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
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from baccarat.server.clock import Clock, SystemClock
from baccarat.server.config import ServerConfig
from baccarat.server.errors import ApiError, error_body, install_error_handlers
from baccarat.server.feedsessions import watch_feed_sessions
from baccarat.server.pause import PauseHook
from baccarat.server.protections import Protections
from baccarat.server.routers import ROUTERS, accounts, cashier, controls, history, rules, session
from baccarat.server.routers.accounts import (
    REFUSAL_STATUS,
    AccountPolicy,
    documented,
)
from baccarat.server.service import Service
from baccarat.store.responsible import use_policy_clock
from baccarat.web.mount import mount_web

__all__ = ["create_app"]

DESCRIPTION = """\
A live punto banco table: rounds with a betting window, provably fair shoes
(`baccarat-shoe-v1`), a double-entry ledger in integer minor units.

Errors are `{"error": {"code": ..., "message": ...}}`. Bets need an `Idempotency-Key`.
The live feed is the WebSocket `/ws/tables/{table_id}`.

Registered players log in at `/api/sessions` (a token that expires); limits, breaks, the
session time limit and reality checks are enforced on every bet and deposit.
"""

#: The player-account routers: accounts, the cashier, limits and breaks, the session, recall, rules.
ACCOUNT_ROUTERS = (
    accounts.router,
    cashier.router,
    controls.router,
    session.router,
    history.router,
    rules.router,
)


def create_app(
    config: ServerConfig,
    *,
    clock: Clock | None = None,
    pause: PauseHook | None = None,
    policy_clock: Clock | None = None,
    session_ttl_ms: int | None = None,
) -> FastAPI:
    """The app: its service starts (database, migrations, dealers) with the ASGI lifespan.

    ``policy_clock`` (default: ``clock``) is the clock of accounts and responsible gaming:
    session expiry, limits, breaks, session time, on the bet path too. Tests move it (a day
    ahead, say) without moving the dealers' clock; ``session_ttl_ms`` is a login's lifetime
    (default: the config's ``session_lifetime_ms``).
    """
    service = Service(config, clock or SystemClock(), pause or PauseHook.from_env())
    account_clock = policy_clock or service.clock

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await service.start()
        _app.state.protections.start()
        service.tokens.now_ms = account_clock.now_ms
        database = service.runner.database
        use_policy_clock([database.write_engine, database.read_engine], account_clock.now_ms)
        pusher = asyncio.create_task(
            session.push_reality_checks(service, account_clock), name="reality-checks"
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
            _app.state.protections.stop()

    app = FastAPI(
        title="baccarat table service",
        version="1",
        description=DESCRIPTION,
        lifespan=lifespan,
    )
    app.state.service = service
    app.state.accounts = AccountPolicy(account_clock, session_ttl_ms or config.session_lifetime_ms)
    app.state.protections = Protections(app, config, service.metrics)
    install_error_handlers(app)
    _map_policy_refusals(app)
    for router in (*ROUTERS, *ACCOUNT_ROUTERS):
        app.include_router(router)
    _document_policy_refusals(app)
    if config.static_dir is not None:
        mount_web(app, config.static_dir)  # `/` is the page itself, `/static` its files

    return app


def _map_policy_refusals(app: FastAPI) -> None:
    """Answer a responsible-gaming refusal with its status (403, or 409 for a reality check)
    wherever it is raised: the bet routes pass unknown refusal codes on as 422."""

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, error: ApiError) -> JSONResponse:
        status = REFUSAL_STATUS.get(error.code, error.status)
        headers = getattr(error, "headers", None)  # Retry-After of a 429
        return JSONResponse(
            error_body(error.code, error.message), status_code=status, headers=headers
        )


def _document_policy_refusals(app: FastAPI) -> None:
    """Add the policy's 403 and 409 to the bet routes' documented responses."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = build()
            for path, operations in schema["paths"].items():
                if not path.startswith("/api/tables/{table_id}/bets"):
                    continue
                for method, operation in operations.items():
                    if method in ("post", "delete"):
                        extra = documented(403, 409)
                        for status, body in extra.items():
                            operation["responses"].setdefault(
                                str(status),
                                {
                                    "description": body["description"],
                                    "content": {
                                        "application/json": {
                                            "schema": {"$ref": "#/components/schemas/ErrorBody"}
                                        }
                                    },
                                },
                            )
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
