"""The figures of the operator's reports: per table, day or hour (UTC) and bet, what was
staked and returned on settled bets, per round, with the rule set it was settled by; and per
player over a period.

Bets on one spot of one round share its outcome, so their sum is the unit of chance: each
row is one round's total on one spot (``stake``, ``returned``). Voided and undone bets are
not turnover. The maths (edges, variances, hold) is the caller's.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection, func, select

from baccarat.store.schema import bet_outcomes, bets, logins, players, rounds, shoes

__all__ = ["DAY_MS", "HOUR_MS", "PlayerFigures", "SpotRound", "player_figures", "spot_rounds"]

DAY_MS = 86_400_000
HOUR_MS = 3_600_000


@dataclass(frozen=True, slots=True)
class SpotRound:
    """Every settled stake on one spot of one round."""

    table_id: str
    day: int
    round_id: int
    bet: str
    ruleset_toml: str
    stake: int
    returned: int
    #: The UTC hour of the day (0-23) in an hourly report; ``None`` in a daily one.
    hour: int | None = None


def spot_rounds(
    connection: Connection,
    *,
    since_ms: int,
    until_ms: int,
    table_id: str | None,
    demo: bool | None,
    hourly: bool = False,
) -> list[SpotRound]:
    """The settled stakes per round and spot, settled in ``[since_ms, until_ms)``; ``demo``
    ``True`` counts guests' demo money only, ``False`` real money only, ``None`` both. ``day``
    is the UTC day of the settlement, in days since the epoch; ``hourly``: and its hour."""
    day = bet_outcomes.c.created_at // (HOUR_MS if hourly else DAY_MS)
    joined = (
        bets.join(bet_outcomes, bet_outcomes.c.bet_id == bets.c.id)
        .join(rounds, rounds.c.id == bets.c.round_id)
        .join(shoes, shoes.c.id == rounds.c.shoe_id)
        .join(players, players.c.id == bets.c.player_id)
    )
    query = (
        select(
            bets.c.table_id,
            day.label("day"),
            bets.c.round_id,
            bets.c.spot,
            shoes.c.ruleset_toml,
            func.sum(bets.c.stake).label("stake"),
            func.sum(bet_outcomes.c.returned).label("returned"),
        )
        .select_from(joined)
        .where(
            bet_outcomes.c.kind == "settled",
            bet_outcomes.c.created_at >= since_ms,
            bet_outcomes.c.created_at < until_ms,
        )
        .group_by(bets.c.table_id, day, bets.c.round_id, bets.c.spot, shoes.c.ruleset_toml)
    )
    if table_id is not None:
        query = query.where(bets.c.table_id == table_id)
    if demo is not None:
        query = query.where(players.c.demo.is_(demo))
    per_day = DAY_MS // HOUR_MS if hourly else 1
    return [
        SpotRound(
            r.table_id,
            int(r.day) // per_day,
            int(r.round_id),
            r.spot,
            r.ruleset_toml,
            int(r.stake),
            int(r.returned),
            int(r.day) % per_day if hourly else None,
        )
        for r in connection.execute(query)
    ]


@dataclass(frozen=True, slots=True)
class PlayerFigures:
    """One player's settled bets over a period."""

    player_id: str
    username: str | None
    demo: bool
    rounds: int
    bets: int
    stakes: int
    returns: int
    last_ms: int


def player_figures(
    connection: Connection,
    *,
    since_ms: int,
    until_ms: int,
    demo: bool | None,
    player_id: str | None = None,
) -> list[PlayerFigures]:
    """Per player, their bets settled in ``[since_ms, until_ms)``: rounds, bets, stakes,
    returns and the last settlement's time; ``demo`` as for ``spot_rounds``."""
    query = (
        select(
            bets.c.player_id,
            logins.c.username,
            players.c.demo,
            func.count(func.distinct(bets.c.round_id)).label("rounds"),
            func.count(bets.c.id).label("bets"),
            func.sum(bets.c.stake).label("stakes"),
            func.sum(bet_outcomes.c.returned).label("returns"),
            func.max(bet_outcomes.c.created_at).label("last_ms"),
        )
        .select_from(
            bets.join(bet_outcomes, bet_outcomes.c.bet_id == bets.c.id)
            .join(players, players.c.id == bets.c.player_id)
            .outerjoin(logins, logins.c.player_id == bets.c.player_id)
        )
        .where(
            bet_outcomes.c.kind == "settled",
            bet_outcomes.c.created_at >= since_ms,
            bet_outcomes.c.created_at < until_ms,
        )
        .group_by(bets.c.player_id, logins.c.username, players.c.demo)
    )
    if demo is not None:
        query = query.where(players.c.demo.is_(demo))
    if player_id is not None:
        query = query.where(bets.c.player_id == player_id)
    return [
        PlayerFigures(
            r.player_id,
            r.username,
            bool(r.demo),
            int(r.rounds),
            int(r.bets),
            int(r.stakes),
            int(r.returns),
            int(r.last_ms),
        )
        for r in connection.execute(query)
    ]
