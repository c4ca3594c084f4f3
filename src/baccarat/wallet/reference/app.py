"""The reference wallet's FastAPI application: the signed wallet calls and the loopback admin.

- ``POST /{call}`` (``balance``, ``debit``, ``credit``, ``rollback``): the contract's server side.
  A call whose ``X-Operator-Id``, timestamp (within the replay window) or signature is wrong is
  answered ``invalid_signature``; a body that is not the call's, ``bad_request``; every answer
  is signed with the operator's secret. The faults in force (``faults``) apply here only.
- ``/admin/...`` (loopback clients only, not signed): players, the transactions, the faults, a
  new secret, and ``POST /admin/launch``, which signs a launch request to the game server as
  an operator's platform would and hands back the game's answer.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

import httpx
from fastapi import Depends, FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StrictInt
from sqlalchemy.exc import IntegrityError

from baccarat.wallet.client import wall_ms
from baccarat.wallet.contract import (
    CALLS,
    HEADER_OPERATOR,
    HEADER_SIGNATURE,
    HEADER_TIMESTAMP,
    MAX_AMOUNT,
    canonical,
    check_body,
    error_answer,
    parse_timestamp,
    signed_headers,
    verify,
)
from baccarat.wallet.reference import book
from baccarat.wallet.reference.drop import Dropper
from baccarat.wallet.reference.faults import FaultPlan, Faults
from baccarat.wallet.reference.schema import open_engine

__all__ = ["LOOPBACK", "ReferenceConfig", "create_app"]

LOOPBACK = frozenset({"127.0.0.1", "::1"})
_ID = r"^[A-Za-z0-9._:@-]{1,100}$"


@dataclass(frozen=True)
class ReferenceConfig:
    """One operator's wallet: its id and secret at the game server, its database, the game."""

    operator_id: str
    secret: bytes = field(repr=False)
    db_path: Path
    game_url: str | None = None
    faults: Faults = field(default_factory=Faults)
    seed: int | None = None


class _Keys:
    """The secret that signs, and the one before it (still accepted) after a new one is set."""

    def __init__(self, secret: bytes) -> None:
        self.current, self.previous = secret, b""

    def accepted(self) -> list[bytes]:
        return [self.current, self.previous] if self.previous else [self.current]


class PlayerIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    player_id: Annotated[str, Field(pattern=_ID)]
    balance: Annotated[StrictInt, Field(ge=0, le=MAX_AMOUNT)]
    currency: Annotated[str, Field(pattern=r"^[A-Z]{3}$")]
    blocked: bool | None = None


class FaultsIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    latency_ms: Annotated[StrictInt, Field(ge=0, le=3_600_000)] | None = None
    timeout_rate: Annotated[float, Field(ge=0, le=1)] | None = None
    error_rate: Annotated[float, Field(ge=0, le=1)] | None = None
    drop_rate: Annotated[float, Field(ge=0, le=1)] | None = None
    hang_ms: Annotated[StrictInt, Field(ge=0, le=3_600_000)] | None = None
    calls: list[Literal["balance", "debit", "credit", "rollback"]] | None = None
    seed: StrictInt | None = None


class SecretIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    secret: Annotated[str, Field(pattern=r"^[0-9a-f]{32,128}$")]


class LaunchIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    player_id: Annotated[str, Field(pattern=_ID)]
    display_name: Annotated[str, Field(min_length=1, max_length=100)] | None = None
    language: Literal["en", "id"] | None = None
    table_id: Annotated[str, Field(min_length=1, max_length=64)] | None = None


def _loopback(request: Request) -> None:
    if request.client is None or request.client.host not in LOOPBACK:
        raise HTTPException(403, "the admin answers loopback clients only")


def create_app(config: ReferenceConfig, *, dropper: Dropper | None = None) -> FastAPI:
    """The application over ``config.db_path`` (its tables created if new)."""
    engine = open_engine(config.db_path)
    keys = _Keys(config.secret)
    plan = FaultPlan(config.faults, config.seed)
    dropper = dropper or Dropper()

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        yield
        engine.dispose()

    app = FastAPI(title="Reference operator wallet", lifespan=lifespan, openapi_url=None)
    app.state.plan = plan
    app.state.engine = engine
    admin = [Depends(_loopback)]

    def signed(text: str) -> Response:
        raw = text.encode()
        headers = signed_headers(None, keys.current, wall_ms(), raw)
        return Response(content=raw, status_code=200, headers=headers)

    def refuse(code: str, message: str) -> Response:
        return signed(canonical(error_answer(code, message)).decode())

    def run_call(call: str, body: dict[str, Any]) -> str:
        for attempt in range(2):
            try:
                with engine.begin() as connection:
                    return book.answer_call(connection, call, body, wall_ms())
            except IntegrityError:
                # Another writer recorded the id first: the second turn answers as it did.
                if attempt:
                    raise
        raise AssertionError("unreachable")

    @app.post("/{call}")
    async def wallet_call(call: str, request: Request) -> Response:
        if call not in CALLS:
            return JSONResponse({"error": f"no call {call!r}"}, status_code=404)
        fate = plan.draw(call)
        if fate.latency_s:
            await asyncio.sleep(fate.latency_s)
        if fate.error:  # before anything moves
            return PlainTextResponse("injected error", status_code=500)
        raw = await request.body()
        timestamp = parse_timestamp(request.headers.get(HEADER_TIMESTAMP))
        signature = request.headers.get(HEADER_SIGNATURE, "")
        operator = request.headers.get(HEADER_OPERATOR)
        if (
            operator != config.operator_id
            or timestamp is None
            or not verify(keys.accepted(), timestamp, raw, signature, wall_ms())
        ):
            return refuse("invalid_signature", "unknown operator, stale timestamp or bad signature")
        try:
            body = json.loads(raw)
        except ValueError:
            return refuse("bad_request", "the body is not JSON")
        problem = check_body(call, body)
        if problem is not None:
            return refuse("bad_request", problem)
        if fate.timeout:
            await asyncio.sleep(fate.hang_s)
        text = await asyncio.to_thread(run_call, call, body)
        if fate.timeout or fate.drop:
            await dropper.drop(request.scope.get("client"))
            return Response(status_code=204)  # discarded: the connection is gone
        return signed(text)

    @app.get("/admin/health", dependencies=admin)
    async def health() -> dict[str, object]:
        return {"operator_id": config.operator_id}

    @app.post("/admin/players", dependencies=admin)
    async def put_player(player: PlayerIn) -> dict[str, object]:
        def write() -> book.Player:
            with engine.begin() as connection:
                return book.set_player(
                    connection, player.player_id, player.balance, player.currency, player.blocked
                )

        return asdict(await asyncio.to_thread(write))

    @app.get("/admin/players/{player_id}", dependencies=admin)
    async def get_player(player_id: str) -> dict[str, object]:
        def read() -> book.Player | None:
            with engine.begin() as connection:
                return book.get_player(connection, player_id)

        found = await asyncio.to_thread(read)
        if found is None:
            raise HTTPException(404, "no such player")
        return asdict(found)

    @app.get("/admin/transactions", dependencies=admin)
    async def get_transactions() -> list[dict[str, object]]:
        def read() -> list[dict[str, object]]:
            with engine.begin() as connection:
                return book.list_transactions(connection)

        return await asyncio.to_thread(read)

    @app.put("/admin/faults", dependencies=admin)
    async def put_faults(changes: FaultsIn) -> dict[str, object]:
        given = changes.model_dump(exclude_none=True)
        seed = given.pop("seed", None)
        if "calls" in given:
            given["calls"] = frozenset(given["calls"])
        faults = plan.update(seed, **given)
        return {**asdict(faults), "calls": sorted(faults.calls)}

    @app.put("/admin/secret", dependencies=admin)
    async def put_secret(new: SecretIn) -> dict[str, object]:
        # As after a rotation at the game server: sign with the new, still accept the old.
        keys.current, keys.previous = bytes.fromhex(new.secret), keys.current
        return {"accepted": len(keys.accepted())}

    @app.post("/admin/launch", dependencies=admin)
    async def launch(asked: LaunchIn) -> Response:
        if config.game_url is None:
            raise HTTPException(409, "this wallet was started without --game-url")

        def read() -> book.Player | None:
            with engine.begin() as connection:
                return book.get_player(connection, asked.player_id)

        player = await asyncio.to_thread(read)
        if player is None:
            raise HTTPException(404, "no such player")
        return await _launch(config, keys.current, player, asked)

    return app


async def _launch(
    config: ReferenceConfig, secret: bytes, player: book.Player, asked: LaunchIn
) -> Response:
    body: dict[str, object] = {
        "player_id": player.player_id,
        "display_name": asked.display_name or player.player_id,
        "currency": player.currency,
        "language": asked.language or "en",
    }
    if asked.table_id is not None:
        body["table_id"] = asked.table_id
    raw = canonical(body)
    headers = signed_headers(config.operator_id, secret, wall_ms(), raw)
    url = f"{(config.game_url or '').rstrip('/')}/api/operators/{config.operator_id}/launch"
    try:
        async with httpx.AsyncClient(timeout=10.0, trust_env=False) as client:
            answer = await client.post(url, content=raw, headers=headers)
    except httpx.HTTPError as error:
        return JSONResponse({"error": f"the game server did not answer: {error}"}, 502)
    try:
        content = answer.json()
    except ValueError:
        return JSONResponse({"error": f"the game server answered {answer.status_code}"}, 502)
    return JSONResponse(content, status_code=answer.status_code)
