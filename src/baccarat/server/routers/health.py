"""``/healthz`` and ``/metrics`` (Prometheus text format).

The metrics are not public: ``/metrics`` is not found on the public port unless a token is
configured (``BACCARAT_METRICS_TOKEN``), and then it answers only ``Authorization: Bearer
<token>``. An operator may rather serve them on a listener of their own
(``baccarat serve --metrics-bind 127.0.0.1:9100``).
"""

from __future__ import annotations

import hmac

from fastapi import APIRouter, Request, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from baccarat.refusals import Refusal, RefusalCode
from baccarat.server.auth import bearer_token
from baccarat.server.deps import ServiceDep
from baccarat.server.errors import refused
from baccarat.server.models import Health

router = APIRouter(tags=["operations"])


@router.get("/healthz")
@router.get("/api/health")
async def healthz(service: ServiceDep) -> Health:
    """The server is up, its database open and every table showing its state (a 503 until
    then: a load balancer sends nobody to a node whose feeds cannot serve yet); which tables
    it deals itself."""
    starting = [mirror.id for mirror in service.tables.values() if not mirror.ready.is_set()]
    if starting:
        message = f"tables without their state yet: {', '.join(starting)}"
        raise refused(Refusal(RefusalCode.STARTING, message))
    return Health(
        status="ok",
        database=service.dialect,
        tables=list(service.tables),
        cluster=service.config.cluster is not None,
        node=service.node_id,
        dealing=service.dealing(),
    )


@router.get("/metrics", response_class=Response, include_in_schema=False)
async def metrics(service: ServiceDep, request: Request) -> Response:
    """Bets accepted and refused, acknowledgement latency, rounds, WebSocket clients."""
    expected: str | None = request.app.state.metrics_token
    if expected is None:
        raise refused(Refusal(RefusalCode.NOT_FOUND, "Not Found"))
    given = bearer_token(request.headers.get("authorization")) or ""
    if not hmac.compare_digest(given.encode(), expected.encode()):
        message = "the metrics need their bearer token"
        raise refused(Refusal(RefusalCode.UNAUTHORIZED, message))
    return Response(generate_latest(service.metrics.registry), media_type=CONTENT_TYPE_LATEST)
