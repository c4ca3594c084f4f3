"""Players: a player is an id, the hash of a bearer token and a ledger account.

The token is a random secret shown once; only its SHA-256 is stored (a 256-bit random
token needs no slow password hash).

A guest (``players.demo``) plays with demo money: its account is of kind ``demo`` and its
credit comes from the ``demo-bank`` account, never from ``world``. Demo money cannot be
deposited to or withdrawn (``DemoAccountError``), so it never becomes real money; a
registered player's account is of kind ``player``.

>>> len(new_token()), token_hash("abc")[:8]
(43, 'ba7816bf')
"""

from __future__ import annotations

import hashlib
import secrets

from sqlalchemy import Connection, select

from baccarat.store.ledger import (
    DEMO_BANK,
    WORLD,
    Transaction,
    balances,
    ensure_accounts,
    new_id,
    player_account,
    post,
)
from baccarat.store.schema import players

__all__ = [
    "DemoAccountError",
    "create_player",
    "is_demo",
    "new_token",
    "player_balance",
    "token_hash",
]


class DemoAccountError(Exception):
    """Real money was asked to move in or out of a guest's demo account."""


def new_token() -> str:
    """A fresh bearer token (256 random bits, URL-safe)."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def create_player(
    connection: Connection, token: str, credit: int, at: int, *, demo: bool = False
) -> str:
    """A new player holding ``credit`` minor units; returns its id.

    A guest (``demo``) gets demo money from the ``demo-bank`` account; otherwise the
    credit comes from the ``world`` account.
    """
    if credit < 0:
        raise ValueError(f"a credit cannot be negative, not {credit}")
    player_id = new_id()
    account = player_account(player_id)
    source = DEMO_BANK if demo else WORLD
    ensure_accounts(connection, {account: "demo" if demo else "player", source: source}, at)
    connection.execute(
        players.insert().values(
            id=player_id,
            token_hash=token_hash(token),
            account_id=account,
            created_at=at,
            demo=demo,
        )
    )
    if credit:
        post(connection, [Transaction("deposit", [(source, -credit), (account, credit)])], at)
    return player_id


def player_balance(connection: Connection, player_id: str) -> int:
    return balances(connection, [player_account(player_id)]).get(player_account(player_id), 0)


def is_demo(connection: Connection, player_id: str) -> bool:
    """Whether the player is a guest playing with demo money (``False`` for an unknown id)."""
    query = select(players.c.demo).where(players.c.id == player_id)
    return bool(connection.scalar(query))
