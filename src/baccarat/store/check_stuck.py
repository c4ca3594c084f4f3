"""Rounds in play that no dealer will finish: their stakes would be held forever.

A round in play (open, closed or dealt) is finished only by its table's dealer, at its
end or when a server starts: the dealer finishes a round before it opens the next, finishes
a shoe's rounds before it ends that shoe or starts another, and a server that starts without
a table finishes that table's rounds in the transaction that retires it
(``baccarat.store.undealt``). So a round in play must be

- its table's newest round,
- on its table's newest shoe, and that shoe not ended,
- of a table still dealt (``game_tables.retired_at`` unset).

Any other round in play is stuck: no dealer will ever settle it or return its stakes.
"""

from __future__ import annotations

from collections import defaultdict

from sqlalchemy import Connection, func, select

from baccarat.store.schema import bet_outcomes, bets, game_tables, rounds, shoes
from baccarat.table import Phase

__all__ = ["stuck_rounds"]

_IN_PLAY = [Phase.OPEN.value, Phase.CLOSED.value, Phase.DEALT.value]


def stuck_rounds(connection: Connection) -> list[str]:
    """``round <id> (table <t>): <why>; holds <n> in stakes`` for every stuck round."""
    c = connection
    in_play = c.execute(
        select(
            rounds.c.id,
            rounds.c.table_id,
            shoes.c.number.label("shoe_number"),
            shoes.c.status,
            game_tables.c.retired_at,
        )
        .select_from(
            rounds.join(shoes, shoes.c.id == rounds.c.shoe_id).join(
                game_tables, game_tables.c.id == rounds.c.table_id
            )
        )
        .where(rounds.c.phase.in_(_IN_PLAY))
        .order_by(rounds.c.id)
    ).all()
    if not in_play:
        return []
    tables = sorted({row.table_id for row in in_play})
    newest_round = dict(
        c.execute(
            select(rounds.c.table_id, func.max(rounds.c.id))
            .where(rounds.c.table_id.in_(tables))
            .group_by(rounds.c.table_id)
        ).all()
    )
    newest_shoe = dict(
        c.execute(
            select(shoes.c.table_id, func.max(shoes.c.number))
            .where(shoes.c.table_id.in_(tables))
            .group_by(shoes.c.table_id)
        ).all()
    )
    held: dict[int, int] = defaultdict(int)
    open_stakes = (
        select(bets.c.round_id, func.sum(bets.c.stake))
        .select_from(bets.outerjoin(bet_outcomes, bet_outcomes.c.bet_id == bets.c.id))
        .where(bets.c.round_id.in_([row.id for row in in_play]), bet_outcomes.c.bet_id.is_(None))
        .group_by(bets.c.round_id)
    )
    for round_id, stake in c.execute(open_stakes):
        held[round_id] = int(stake)
    stuck: list[str] = []
    for row in in_play:
        why = []
        if row.retired_at is not None:
            why.append("its table is no longer dealt")
        if row.id != newest_round[row.table_id]:
            why.append(f"a later round {newest_round[row.table_id]} was opened")
        if row.status == "ended":
            why.append("its shoe has ended")
        elif row.shoe_number != newest_shoe[row.table_id]:
            why.append("a later shoe was started")
        if why:
            stuck.append(
                f"round {row.id} (table {row.table_id}): {', '.join(why)}; "
                f"holds {held[row.id]} in stakes"
            )
    return stuck
