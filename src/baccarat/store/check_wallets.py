"""The provider-mode part of ``ledger check``: operators' wallets in the ledger agree with the
wallet calls, and an operator's player holds no money of our own.

An operator's money enters the ledger only by a confirmed debit (``wallet:{op}`` → the player,
kind ``wallet_debit``) and leaves it only by a credit (the player → ``wallet:{op}``, kind
``wallet_credit``), each in the transaction that records the call (``store.wallet_calls``). So
``wallet:{op}`` holds minus its confirmed debits plus its credits, whatever their state, and
an operator's player's own account is 0 at every commit: a debit's money is staked in the
transaction that confirms it, and what comes back is credited in the one that resolves it.
"""

from __future__ import annotations

from collections import defaultdict

from sqlalchemy import Connection, func, select

from baccarat.store.check_money import whole
from baccarat.store.schema import accounts, operator_players, players, wallet_transactions
from baccarat.store.wallet_calls import WALLET_KIND, wallet_account

__all__ = ["wallet_problems"]

_W = wallet_transactions


def wallet_problems(c: Connection, sums: dict[str, int]) -> list[str]:
    """What disagrees, given every account's entries summed (``check_money.account_sums``)."""
    moved: dict[str, int] = defaultdict(int)
    confirmed = (_W.c.kind == "debit") & (_W.c.state == "confirmed")
    query = (
        select(_W.c.operator_id, _W.c.kind, func.sum(_W.c.amount))
        .where(confirmed | (_W.c.kind == "credit"))
        .group_by(_W.c.operator_id, _W.c.kind)
    )
    for operator_id, kind, total in c.execute(query):
        moved[wallet_account(operator_id)] += whole(total) * (-1 if kind == "debit" else 1)
    wallets = set(c.scalars(select(accounts.c.id).where(accounts.c.kind == WALLET_KIND)))
    found = [
        f"{account}: holds {sums.get(account, 0)}, its calls say {moved.get(account, 0)}"
        for account in sorted(wallets | moved.keys())
        if sums.get(account, 0) != moved.get(account, 0)
    ]
    theirs = select(players.c.account_id).select_from(
        players.join(operator_players, operator_players.c.player_id == players.c.id)
    )
    for account in c.scalars(theirs):
        if sums.get(account, 0) != 0:
            found.append(f"{account}: an operator's player holds {sums[account]} of our own")
    return found
