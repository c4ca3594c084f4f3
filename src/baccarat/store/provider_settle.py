"""Paying an operator's players back through their wallet when their bets are resolved.

An operator's player bets with money its wallet debited (``store.wallet_calls``): each
confirmed debit paid for the bets of one request, which share one ledger transaction (the
debit's ``bet_txn_id``), so they are resolved together, by the round's settlement or void or
by the player's undo. In the transaction that writes those outcomes, ``credit_resolved`` finds
every confirmed debit of the round whose bets all have an outcome and that has no credit yet,
posts what its bets returned from the player back to ``wallet:{op}`` (nothing for a loss) and
queues the credit (``round_closed``: true for a settlement or a void, false for an undo), which
the outbox sender then delivers. The player's own account is back at 0 once it has.

Called by ``store.settlement`` (settle, void) and ``store.placement`` (undo, undo_last): every
path that writes a bet's outcome. A round without operator players costs one indexed query.

What the player's page is told: a settlement gives an operator's player no balance
(``at_wallet``): the wallet's own answer to the credit is sent as soon as it lands. An undo's
receipt must carry one: ``expected_balance``, an estimate, which the page never puts in the
place of a wallet's answer that came while the undo was on its way.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import NamedTuple

from sqlalchemy import Connection, func, select

from baccarat.store.ledger import player_account
from baccarat.store.schema import (
    bet_outcomes,
    bets,
    ledger_entries,
    ledger_transactions,
    operator_players,
    wallet_transactions,
)
from baccarat.store.wallet_calls import call_of, queue_credit

__all__ = ["Credits", "at_wallet", "credit_resolved", "expected_balance"]

_W = wallet_transactions


class Credits(NamedTuple):
    """What ``credit_resolved`` queued, per player: the amount going back to the wallet, and the
    wallet's balance as it will be once it has (for the player's page; the wallet's own answer
    follows)."""

    amounts: dict[str, int]
    balances: dict[str, int]


def at_wallet(connection: Connection, player_ids: Iterable[str]) -> set[str]:
    """Which of ``player_ids`` are operators' players: their money is at their wallet."""
    wanted = sorted(set(player_ids))
    if not wanted:
        return set()
    found = connection.scalars(
        select(operator_players.c.player_id).where(operator_players.c.player_id.in_(wanted))
    )
    return set(found)


def _answered_balance(answer: str | None) -> int | None:
    """The ``balance`` of a wallet's stored answer, if it has one."""
    try:
        value = json.loads(answer or "")
    except ValueError:
        return None
    balance = value.get("balance") if isinstance(value, dict) else None
    return balance if isinstance(balance, int) and not isinstance(balance, bool) else None


def expected_balance(connection: Connection, player_id: str) -> int | None:
    """The player's wallet balance as it will be once the credits queued now have landed: what
    the wallet answered to the player's latest confirmed debit, plus the credits posted since
    (in the ledger's order). An estimate for the page: the wallet's answer to each credit is
    the truth, and the player's page is told it (``server.outbox_sender``)."""
    account = player_account(player_id)
    posted = ledger_entries.join(
        ledger_transactions, ledger_transactions.c.id == ledger_entries.c.txn_id
    )
    latest = connection.execute(
        select(ledger_entries.c.id, ledger_transactions.c.memo)
        .select_from(posted)
        .where(ledger_entries.c.account_id == account, ledger_transactions.c.kind == "wallet_debit")
        .order_by(ledger_entries.c.id.desc())
        .limit(1)
    ).first()
    if latest is None or latest.memo is None:
        return None
    answer = connection.scalar(select(_W.c.answer).where(_W.c.id == latest.memo))
    base = _answered_balance(answer)
    if base is None:
        return None
    since = connection.scalar(
        select(func.coalesce(func.sum(ledger_entries.c.amount), 0))
        .select_from(posted)
        .where(
            ledger_entries.c.account_id == account,
            ledger_entries.c.id > latest.id,
            ledger_transactions.c.kind == "wallet_credit",
        )
    )
    return base - int(since or 0)


def credit_resolved(
    connection: Connection,
    round_id: int,
    at: int,
    *,
    round_closed: bool,
    player_id: str | None = None,
) -> Credits:
    """Queue the credit of every confirmed debit of the round (of one player, for an undo)
    whose bets now all have an outcome and that has none yet, in the caller's transaction."""
    ended = _W.alias("ended")
    debits = (
        select(_W)
        .select_from(_W.outerjoin(ended, ended.c.reference_id == _W.c.id))
        .where(
            _W.c.round_id == round_id,
            _W.c.kind == "debit",
            _W.c.state == "confirmed",
            _W.c.bet_txn_id.is_not(None),
            ended.c.id.is_(None),
        )
        .order_by(_W.c.created_at, _W.c.id)
    )
    if player_id is not None:
        debits = debits.where(_W.c.player_id == player_id)
    found = connection.execute(debits).all()
    if not found:
        return Credits({}, {})
    txns = sorted({row.bet_txn_id for row in found})
    per_txn = select(
        bets.c.txn_id,
        func.count(bets.c.id),
        func.count(bet_outcomes.c.bet_id),
        func.coalesce(func.sum(bet_outcomes.c.returned), 0),
    ).select_from(bets.outerjoin(bet_outcomes, bet_outcomes.c.bet_id == bets.c.id))
    per_txn = per_txn.where(bets.c.round_id == round_id, bets.c.txn_id.in_(txns))
    resolved = {
        txn: int(returned)
        for txn, placed, outcomes, returned in connection.execute(per_txn.group_by(bets.c.txn_id))
        if placed and placed == outcomes
    }
    amounts: dict[str, int] = {}
    for debit in map(call_of, found):
        if debit.bet_txn_id not in resolved:
            continue
        amount = resolved[debit.bet_txn_id]
        queue_credit(connection, debit, amount, round_closed=round_closed, at=at)
        amounts[debit.player_id] = amounts.get(debit.player_id, 0) + amount
    balances = {}
    for player in amounts:
        expected = expected_balance(connection, player)
        if expected is not None:
            balances[player] = expected
    return Credits(amounts, balances)
