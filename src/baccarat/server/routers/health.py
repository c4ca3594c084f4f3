"""``/healthz`` and ``/metrics`` (Prometheus text format)."""

from __future__ import annotations

from fastapi import APIRouter, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from baccarat.server.deps import ServiceDep
from baccarat.server.models import Health

router = APIRouter(tags=["operations"])


@router.get("/healthz")
async def healthz(service: ServiceDep) -> Health:
    """The server is up, its database open and its tables dealing."""
    return Health(status="ok", database=service.dialect, tables=list(service.tables))


@router.get(
    "/metrics",
    response_class=Response,
    responses={200: {"content": {"text/plain": {"schema": {"type": "string"}}}}},
)
async def metrics(service: ServiceDep) -> Response:
    """Bets accepted and refused, acknowledgement latency, rounds, WebSocket clients."""
    return Response(generate_latest(service.metrics.registry), media_type=CONTENT_TYPE_LATEST)
