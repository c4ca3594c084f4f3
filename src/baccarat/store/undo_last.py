"""Take back a player's last accepted placement on a round, and nothing else.

A placement is one accepted request (place, rebet or double): its bets share one ledger
transaction. Taking it back is append-only: one new ``undo`` transaction returns exactly
that placement's stakes, and each of its bets gets an ``undone`` outcome, in the caller's
transaction (so all of it or none of it is kept).

The bet path calls it for an ``undo_last`` order, in its batch (``store.placement``), which
has checked the round, locked it and the player's balance, and written what the batch
accepted before it.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection, select

from baccarat.store.ledger import Transaction, player_account, post, stake_account
from baccarat.store.schema import bet_outcomes, bets

__all__ = ["undo_last"]


@dataclass(frozen=True, slots=True)
class _Placement:
    txn_id: str
    bets: list[tuple[int, str, int]]  # (bet id, spot, stake)


def _last_placement(connection: Connection, round_id: int, player_id: str) -> _Placement | None:
    query = (
        select(bets.c.id, bets.c.spot, bets.c.stake, bets.c.txn_id)
        .select_from(bets.outerjoin(bet_outcomes, bet_outcomes.c.bet_id == bets.c.id))
        .where(
            bets.c.round_id == round_id,
            bets.c.player_id == player_id,
            bet_outcomes.c.bet_id.is_(None),
        )
        .order_by(bets.c.id.desc())
    )
    rows = list(connection.execute(query))
    if not rows:
        return None
    last = rows[0].txn_id
    return _Placement(last, [(r.id, r.spot, int(r.stake)) for r in rows if r.txn_id == last])


def undo_last(
    connection: Connection, table_id: str, round_id: int, player_id: str, at: int
) -> int | None:
    """Return the stakes of the player's last placement on the round: the amount given back,
    or ``None`` when the player has no bet in play on it."""
    placement = _last_placement(connection, round_id, player_id)
    if placement is None:
        return None
    total = sum(stake for _bet, _spot, stake in placement.bets)
    account = player_account(player_id)
    undo = Transaction("undo", [(stake_account(table_id), -total), (account, total)], round_id)
    post(connection, [undo], at)
    connection.execute(
        bet_outcomes.insert(),
        [
            {
                "bet_id": bet,
                "round_id": round_id,
                "kind": "undone",
                "event": None,
                "result": None,
                "returned": stake,
                "txn_id": undo.id,
                "created_at": at,
            }
            for bet, _spot, stake in placement.bets
        ],
    )
    return total
