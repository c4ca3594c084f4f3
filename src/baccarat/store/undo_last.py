"""Take back a player's last accepted placement on an open round, and nothing else.

A placement is one accepted request (place, rebet or double): its bets share one ledger
transaction. Taking it back is append-only: one new ``undo`` transaction returns exactly
that placement's stakes, and each of its bets gets an ``undone`` outcome, in the caller's
transaction (so all of it or none of it is kept).

With an ``Idempotency-Key`` the answer is remembered in the same transaction: the same key
and request get it again (nothing more is taken back); another request under the key is
refused (``idempotency_key_reused``).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection, select

from baccarat.store.bet_reads import open_stakes
from baccarat.store.idempotency import KeyReused, recall, remember
from baccarat.store.ledger import Transaction, balances, player_account, post, stake_account
from baccarat.store.placement import CLOSED, KEY_REUSED, BetReceipt, BetRefusal
from baccarat.store.rounds import lock_rounds
from baccarat.store.schema import bet_outcomes, bets

__all__ = ["NOTHING_TO_UNDO", "undo_last"]

NOTHING_TO_UNDO = "nothing_to_undo"


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
    connection: Connection,
    table_id: str,
    round_id: int,
    player_id: str,
    at: int,
    key: str | None = None,
    request_hash: str = "",
) -> BetReceipt | BetRefusal:
    """Return the stakes of the player's last placement on the round, if betting is open.

    The receipt's ``returned`` is the amount given back and ``bets`` the stakes that stay.
    """
    if key is not None:
        prior = recall(connection, player_id, key, request_hash)
        if isinstance(prior, KeyReused):
            return BetRefusal(KEY_REUSED, prior.message)
        if prior is not None:
            return BetReceipt.from_json(prior)
    receipt = _undo_last(connection, table_id, round_id, player_id, at)
    if key is not None and isinstance(receipt, BetReceipt):
        remember(connection, player_id, key, request_hash, receipt.to_json(), at)
    return receipt


def _undo_last(
    connection: Connection, table_id: str, round_id: int, player_id: str, at: int
) -> BetReceipt | BetRefusal:
    row = lock_rounds(connection, [round_id]).get(round_id)
    if row is None or row.table_id != table_id:
        return BetRefusal(CLOSED, f"round {round_id} is not a round of this table")
    if not row.domain().accepts_bets(at):
        return BetRefusal(CLOSED, f"betting on round {round_id} is closed")
    account = player_account(player_id)
    balance = balances(connection, [account], lock=True).get(account, 0)
    placement = _last_placement(connection, round_id, player_id)
    if placement is None:
        return BetRefusal(NOTHING_TO_UNDO, "you have no bet on this round to take back")
    taken: dict[str, int] = {}
    for _bet, spot, stake in placement.bets:
        taken[spot] = taken.get(spot, 0) + stake
    total = sum(taken.values())
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
    left = open_stakes(connection, [round_id], [player_id]).get((round_id, player_id), {})
    return BetReceipt(round_id, "undo", {}, dict(left), balance + total, returned=total)
