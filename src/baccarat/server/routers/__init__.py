"""One router per resource: players, tables, bets, rounds, shoes, health, and
the player's account (accounts and sessions, the cashier, limits and breaks, the session,
recall, the rules page); and the operator's side, ``admin_*`` (staff sessions and staff,
tables, rounds, players, shoes and the audit log, reports).

A router parses a request, calls the service or a player action
(``baccarat.server.actions``) and answers with a model of ``baccarat.server.models``; no
router imports another: what several share is in ``baccarat.server.deps``. The table feed
(``feed``) has no route: ``feed.FeedLane`` serves it before the app's routing.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from baccarat.server.routers import (
    accounts,
    admin_operators,
    admin_players,
    admin_records,
    admin_reports,
    admin_rounds,
    admin_session,
    admin_shifts,
    admin_staff,
    admin_tables,
    bets,
    cashier,
    controls,
    health,
    history,
    launch,
    players,
    pseudonyms,
    rounds,
    rules,
    session,
    shoes,
    studio,
    tables,
    tickets,
)
from baccarat.server.routers.responses import errors

__all__ = ["ROUTERS"]

#: Every router in the order the app includes it, with the error responses its routes
#: document besides their own: a bet is also refused by responsible gaming (403).
ROUTERS: tuple[tuple[APIRouter, dict[int | str, dict[str, Any]]], ...] = (
    (players.router, {}),
    (tables.router, {}),
    (bets.router, errors(403)),
    (rounds.router, {}),
    (shoes.router, {}),
    (pseudonyms.router, {}),
    (health.router, {}),
    (tickets.router, {}),
    (accounts.router, {}),
    (cashier.router, {}),
    (controls.router, {}),
    (session.router, {}),
    (history.router, {}),
    (rules.router, {}),
    # The operator's side (``/api/admin``, docs/admin.md): staff tokens only.
    (admin_session.router, {}),
    (admin_staff.router, {}),
    (admin_tables.router, {}),
    (admin_rounds.router, {}),
    (admin_players.router, {}),
    (admin_records.router, {}),
    (admin_reports.router, {}),
    (admin_shifts.router, {}),
    (admin_operators.router, {}),
    # A studio table's shoe device, dealer console and supervisor (docs/studio.md).
    (studio.router, {}),
    # Provider mode: an operator launches its player; the page trades the link (docs/wallet.md).
    (launch.router, {}),
)
