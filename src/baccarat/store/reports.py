"""The figures of the operator's reports: per table, day (UTC) and bet, what was staked and
returned on settled bets, per round, with the rule set it was settled by.

Bets on one spot of one round share its outcome, so their sum is the unit of chance: each
row is one round's total on one spot (``stake``, ``returned``). Voided and undone bets are
not turnover. The maths (edges, variances, hold) is the caller's.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection, func, select

from baccarat.store.schema import bet_outcomes, bets, players, rounds, shoes

__all__ = ["DAY_MS", "SpotRound", "spot_rounds"]

DAY_MS = 86_400_000


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


def spot_rounds(
    connection: Connection,
    *,
    since_ms: int,
    until_ms: int,
    table_id: str | None,
    demo: bool | None,
) -> list[SpotRound]:
    """The settled stakes per round and spot, settled in ``[since_ms, until_ms)``; ``demo``
    ``True`` counts guests' demo money only, ``False`` real money only, ``None`` both. ``day``
    is the UTC day of the settlement, in days since the epoch."""
    day = bet_outcomes.c.created_at // DAY_MS
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
    return [
        SpotRound(
            r.table_id,
            int(r.day),
            int(r.round_id),
            r.spot,
            r.ruleset_toml,
            int(r.stake),
            int(r.returned),
        )
        for r in connection.execute(query)
    ]
