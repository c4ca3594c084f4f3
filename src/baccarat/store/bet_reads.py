"""Reading bets: open stakes per spot, a player's previous round, a round's bets and outcomes.

Read-only queries of the bet path; the writers are ``placement`` and ``settlement``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from sqlalchemy import Connection, and_, func, select, tuple_

from baccarat.store.schema import bet_outcomes, bets

__all__ = [
    "open_bets",
    "open_stakes",
    "player_round_bets",
    "previous_bets",
    "round_has_bets",
    "round_stakes",
]


def round_stakes(connection: Connection, round_id: int) -> dict[str, int]:
    """Every player's stakes on the round still in play (not undone), summed per spot."""
    query = (
        select(bets.c.spot, func.sum(bets.c.stake))
        .select_from(bets.outerjoin(bet_outcomes, bet_outcomes.c.bet_id == bets.c.id))
        .where(bets.c.round_id == round_id, bet_outcomes.c.bet_id.is_(None))
        .group_by(bets.c.spot)
        .order_by(bets.c.spot)
    )
    return {spot: int(stake) for spot, stake in connection.execute(query)}


def open_stakes(
    connection: Connection, pairs: Iterable[tuple[int, str]]
) -> dict[tuple[int, str], dict[str, int]]:
    """Stakes per spot still in play (no outcome yet) for each (round, player) asked about,
    in one grouped query; a pair with none is left out."""
    wanted = sorted(set(pairs))
    if not wanted:
        return {}
    query = (
        select(bets.c.round_id, bets.c.player_id, bets.c.spot, func.sum(bets.c.stake))
        .select_from(bets.outerjoin(bet_outcomes, bet_outcomes.c.bet_id == bets.c.id))
        .where(
            tuple_(bets.c.round_id, bets.c.player_id).in_(wanted),
            bet_outcomes.c.bet_id.is_(None),
        )
        .group_by(bets.c.round_id, bets.c.player_id, bets.c.spot)
    )
    found: dict[tuple[int, str], dict[str, int]] = defaultdict(dict)
    for round_id, player_id, spot, stake in connection.execute(query):
        found[(round_id, player_id)][spot] = int(stake)
    return dict(found)


def previous_bets(
    connection: Connection, table_id: str, player_id: str, before_round: int
) -> dict[str, int]:
    """The player's stakes per spot in their last earlier round at this table (undone excluded)."""
    kept = bets.outerjoin(bet_outcomes, bet_outcomes.c.bet_id == bets.c.id)
    not_undone = (bet_outcomes.c.kind.is_(None)) | (bet_outcomes.c.kind != "undone")
    last = connection.scalar(
        select(func.max(bets.c.round_id))
        .select_from(kept)
        .where(
            bets.c.player_id == player_id,
            bets.c.table_id == table_id,
            bets.c.round_id < before_round,
            not_undone,
        )
    )
    if last is None:
        return {}
    query = (
        select(bets.c.spot, func.sum(bets.c.stake))
        .select_from(kept)
        .where(bets.c.player_id == player_id, bets.c.round_id == last, not_undone)
        .group_by(bets.c.spot)
    )
    return {spot: int(stake) for spot, stake in connection.execute(query)}


def open_bets(
    connection: Connection, round_id: int, player_id: str | None = None
) -> list[tuple[int, str, str, int]]:
    query = (
        select(bets.c.id, bets.c.player_id, bets.c.spot, bets.c.stake)
        .select_from(bets.outerjoin(bet_outcomes, bet_outcomes.c.bet_id == bets.c.id))
        .where(bets.c.round_id == round_id, bet_outcomes.c.bet_id.is_(None))
        .order_by(bets.c.id)
    )
    if player_id is not None:
        query = query.where(bets.c.player_id == player_id)
    return [(r.id, r.player_id, r.spot, int(r.stake)) for r in connection.execute(query)]


def player_round_bets(
    connection: Connection, round_id: int, player_id: str
) -> list[dict[str, Any]]:
    """The player's bets on a round with their outcomes (``None`` while in play)."""
    query = (
        select(
            bets.c.id,
            bets.c.spot,
            bets.c.stake,
            bet_outcomes.c.kind,
            bet_outcomes.c.event,
            bet_outcomes.c.result,
            bet_outcomes.c.returned,
        )
        .select_from(bets.outerjoin(bet_outcomes, bet_outcomes.c.bet_id == bets.c.id))
        .where(and_(bets.c.round_id == round_id, bets.c.player_id == player_id))
        .order_by(bets.c.id)
    )
    return [
        {
            "id": r.id,
            "spot": r.spot,
            "stake": int(r.stake),
            "outcome": r.kind,
            "event": r.event,
            "result": r.result,
            "returned": None if r.returned is None else int(r.returned),
        }
        for r in connection.execute(query)
    ]


def round_has_bets(connection: Connection, round_id: int) -> bool:
    """Whether anyone bet on the round."""
    query = select(bets.c.id).where(bets.c.round_id == round_id).limit(1)
    return connection.scalar(query) is not None
