"""One router per resource: players, tables, bets, rounds, shoes, health, the table feed."""

from __future__ import annotations

from baccarat.server.routers import (
    bets,
    feed,
    health,
    players,
    pseudonyms,
    rounds,
    shoes,
    tables,
    tickets,
)

ROUTERS = (
    players.router,
    tables.router,
    bets.router,
    rounds.router,
    shoes.router,
    pseudonyms.router,
    health.router,
    tickets.router,
    feed.router,
)

__all__ = ["ROUTERS"]
