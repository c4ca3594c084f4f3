"""``/api/me/history`` (paged JSON) and ``/api/me/history.csv``: game recall.

Each round the player bet on, newest first: its id, the UTC time, the bets per spot, the
cards, the result, the returns and the balance before and after, from the ledger.
"""

from __future__ import annotations

import csv
import io
from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import Response

from baccarat.server.clock import iso_utc
from baccarat.server.deps import CurrentPlayer, ServiceDep
from baccarat.server.models import HistoryPage, HistoryRound
from baccarat.server.routers.responses import errors
from baccarat.store.history import RoundRecall, history_page

__all__ = ["CSV_COLUMNS", "router"]

router = APIRouter(tags=["history"])

Page = Annotated[int, Query(ge=1, le=1_000_000, description="1 is the newest page.")]
PerPage = Annotated[int, Query(ge=1, le=100)]

#: One CSV line per spot of each round.
CSV_COLUMNS = (
    "round_id",
    "table_id",
    "shoe_number",
    "number",
    "time",
    "phase",
    "void_reason",
    "cards",
    "winner",
    "bet",
    "stake",
    "outcome",
    "event",
    "result",
    "returned",
    "round_staked",
    "round_returned",
    "balance_before",
    "balance_after",
)


def _round(recall: RoundRecall) -> HistoryRound:
    return HistoryRound.model_validate({**recall.to_json(), "time": iso_utc(recall.time_ms)})


@router.get("/api/me/history", responses=errors(401, 422))
async def history(
    player: CurrentPlayer, service: ServiceDep, page: Page = 1, per_page: PerPage = 10
) -> HistoryPage:
    """One page of the rounds the player bet on, newest first."""
    total, rounds = await service.runner.read(lambda c: history_page(c, player, page, per_page))
    return HistoryPage(
        page=page,
        per_page=per_page,
        total=total,
        pages=(total + per_page - 1) // per_page,
        rounds=[_round(r) for r in rounds],
    )


@router.get(
    "/api/me/history.csv",
    responses={**errors(401), 200: {"content": {"text/csv": {}}}},
    response_class=Response,
)
async def history_csv(player: CurrentPlayer, service: ServiceDep) -> Response:
    """Every round the player bet on as CSV (one line per spot), newest first."""
    total, _ = await service.runner.read(lambda c: history_page(c, player, 1, 1))
    _, rounds = await service.runner.read(lambda c: history_page(c, player, 1, max(total, 1)))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for r in rounds:
        winner = None if r.result is None else r.result["winner"]
        for bet, spot in r.spots.items():
            writer.writerow(
                [
                    r.round_id,
                    r.table_id,
                    r.shoe_number,
                    r.number,
                    iso_utc(r.time_ms),
                    r.phase,
                    r.void_reason or "",
                    " ".join(r.cards or []),
                    winner or "",
                    bet,
                    spot["stake"],
                    spot["outcome"] or "",
                    spot["event"] or "",
                    spot["result"] or "",
                    "" if spot["returned"] is None else spot["returned"],
                    r.staked,
                    r.returned,
                    r.balance_before,
                    r.balance_after,
                ]
            )
    return Response(
        out.getvalue(),
        media_type="text/csv",
        headers={"Content-Disposition": 'attachment; filename="baccarat-history.csv"'},
    )
