"""What staff read: rounds found by table, id or time, every bet of a round, who bets on a
round, players found by id or username with their balance and status, the newest shoes (the
audit log's pages are ``store.audit_log``'s).

Read-only; rounds are returned as ``RoundRow`` so that every view shows them through
``RoundRow.face()`` (no card before its reveal, for staff too).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, func, or_, select

from baccarat.store.ledger import player_account
from baccarat.store.rounds import RoundRow, get_round
from baccarat.store.schema import (
    accounts,
    bet_outcomes,
    bets,
    logins,
    player_status,
    players,
    rounds,
    shoes,
)

__all__ = [
    "find_players",
    "find_rounds",
    "find_shoes",
    "player_summary",
    "round_bets",
    "round_bettors",
]


def find_rounds(
    connection: Connection,
    *,
    table_id: str | None,
    since_ms: int | None,
    until_ms: int | None,
    limit: int,
    before_id: int | None = None,
) -> list[RoundRow]:
    """Rounds opened in ``[since_ms, until_ms)`` at the table (any if ``None``), newest first,
    at most ``limit``, those with an id below ``before_id`` (the next page)."""
    query = select(rounds.c.id)
    if table_id is not None:
        query = query.where(rounds.c.table_id == table_id)
    if since_ms is not None:
        query = query.where(rounds.c.opened_at >= since_ms)
    if until_ms is not None:
        query = query.where(rounds.c.opened_at < until_ms)
    if before_id is not None:
        query = query.where(rounds.c.id < before_id)
    ids = list(connection.scalars(query.order_by(rounds.c.id.desc()).limit(limit)))
    found = (get_round(connection, round_id) for round_id in ids)
    return [row for row in found if row is not None]


def round_bets(connection: Connection, round_id: int) -> list[dict[str, Any]]:
    """Every bet on the round, of every player, with its outcome (``None`` while in play)."""
    query = (
        select(
            bets.c.id,
            bets.c.player_id,
            bets.c.spot,
            bets.c.stake,
            bets.c.created_at,
            bet_outcomes.c.kind,
            bet_outcomes.c.event,
            bet_outcomes.c.result,
            bet_outcomes.c.returned,
        )
        .select_from(bets.outerjoin(bet_outcomes, bet_outcomes.c.bet_id == bets.c.id))
        .where(bets.c.round_id == round_id)
        .order_by(bets.c.id)
    )
    return [
        {
            "id": r.id,
            "player_id": r.player_id,
            "spot": r.spot,
            "stake": int(r.stake),
            "placed_at": int(r.created_at),
            "outcome": r.kind,
            "event": r.event,
            "result": r.result,
            "returned": None if r.returned is None else int(r.returned),
        }
        for r in connection.execute(query)
    ]


def round_bettors(connection: Connection, round_id: int) -> dict[str, dict[str, int]]:
    """Each player's stakes still in play on the round, per spot."""
    query = (
        select(bets.c.player_id, bets.c.spot, func.sum(bets.c.stake))
        .select_from(bets.outerjoin(bet_outcomes, bet_outcomes.c.bet_id == bets.c.id))
        .where(bets.c.round_id == round_id, bet_outcomes.c.bet_id.is_(None))
        .group_by(bets.c.player_id, bets.c.spot)
    )
    found: dict[str, dict[str, int]] = {}
    for player, spot, stake in connection.execute(query):
        found.setdefault(player, {})[spot] = int(stake)
    return found


def _players_query() -> Any:
    joined = (
        players.outerjoin(logins, logins.c.player_id == players.c.id)
        .outerjoin(accounts, accounts.c.id == players.c.account_id)
        .outerjoin(player_status, player_status.c.player_id == players.c.id)
    )
    return select(
        players.c.id,
        players.c.demo,
        players.c.created_at,
        logins.c.username,
        logins.c.last_login_at,
        accounts.c.balance,
        player_status.c.locked_at,
        player_status.c.closed_at,
    ).select_from(joined)


def _player(row: Any) -> dict[str, Any]:
    state = "active"
    if row.closed_at is not None:
        state = "closed"
    elif row.locked_at is not None:
        state = "locked"
    return {
        "id": row.id,
        "username": row.username,
        "demo": bool(row.demo),
        "balance": int(row.balance or 0),
        "created_at": int(row.created_at),
        "last_login_at": None if row.last_login_at is None else int(row.last_login_at),
        "status": state,
    }


def find_players(connection: Connection, text: str, limit: int) -> list[dict[str, Any]]:
    """Players whose id starts with ``text`` or whose username contains it (any case)."""
    needle = text.strip().lower()
    escaped = needle.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    query = _players_query().where(
        or_(
            players.c.id.like(f"{escaped}%", escape="\\"),
            logins.c.username.like(f"%{escaped}%", escape="\\"),
        )
    )
    rows = connection.execute(query.order_by(players.c.created_at.desc()).limit(limit))
    return [_player(row) for row in rows]


def player_summary(connection: Connection, player_id: str) -> dict[str, Any] | None:
    """One player's summary (as ``find_players`` gives it), or ``None``."""
    row = connection.execute(_players_query().where(players.c.id == player_id)).first()
    if row is None:
        return None
    summary = _player(row)
    summary["account"] = player_account(player_id)
    return summary


def find_shoes(connection: Connection, table_id: str | None, limit: int) -> list[str]:
    """The ids of the newest shoes (of one table, or of all), newest first."""
    query = select(shoes.c.id)
    if table_id is not None:
        query = query.where(shoes.c.table_id == table_id)
    return list(connection.scalars(query.order_by(shoes.c.started_at.desc()).limit(limit)))
