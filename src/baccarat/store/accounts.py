"""Registered players: a username and a password hash, expiring session tokens, the cashier.

A registered player is a ``players`` row like a guest (its own token hash is of a random
secret never shown) plus a ``logins`` row. Logging in opens an ``auth_sessions`` row
holding the SHA-256 of a fresh bearer token and its expiry; logging out or a break ends it.
The cashier moves play money between the player and the ``world`` account, in the ledger.
A guest is never converted: registering makes a new player with no money, so a guest's
demo money stays demo money (the cashier refuses guests).

>>> normalize_username("  Alice_01 ")
'alice_01'
>>> normalize_username("a b")
Traceback (most recent call last):
...
ValueError: a username is 3 to 32 characters: letters, digits, '.', '_' or '-'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy import Connection, select, update

from baccarat.store import sessions
from baccarat.store.ledger import WORLD, Transaction, balances, player_account, post
from baccarat.store.players import DemoAccountError, create_player, is_demo, new_token
from baccarat.store.responsible import CASHIER
from baccarat.store.schema import logins
from baccarat.store.sessions import end_sessions

__all__ = [
    "Login",
    "UsernameTakenError",
    "cashier",
    "count_failed_login",
    "end_sessions",
    "find_login",
    "normalize_username",
    "open_session",
    "register",
    "set_password_hash",
    "take_failed_logins",
]

_USERNAME = re.compile(r"[a-z0-9._-]{3,32}")


class UsernameTakenError(ValueError):
    """The username is registered already."""


def normalize_username(username: str) -> str:
    """The stored form of a username (trimmed, lower case), or ``ValueError``."""
    name = username.strip().lower()
    if not _USERNAME.fullmatch(name):
        raise ValueError("a username is 3 to 32 characters: letters, digits, '.', '_' or '-'")
    return name


@dataclass(frozen=True, slots=True)
class Login:
    """A registered player's login row."""

    player_id: str
    username: str
    password_hash: str
    last_login_at: int | None


def register(connection: Connection, username: str, password_hash: str, at: int) -> str:
    """A new registered player with no money yet; returns its id."""
    name = normalize_username(username)
    if find_login(connection, name) is not None:
        raise UsernameTakenError(f"the username {name!r} is taken")
    player_id = create_player(connection, new_token(), 0, at)
    connection.execute(
        logins.insert().values(
            player_id=player_id, username=name, password_hash=password_hash, created_at=at
        )
    )
    return player_id


def find_login(connection: Connection, username: str) -> Login | None:
    """The login of ``username`` (any case), or ``None``."""
    query = select(logins).where(logins.c.username == username.strip().lower())
    row = connection.execute(query).first()
    if row is None:
        return None
    return Login(row.player_id, row.username, row.password_hash, row.last_login_at)


def open_session(connection: Connection, player_id: str, at: int, ttl_ms: int) -> tuple[str, int]:
    """A fresh session token valid for ``ttl_ms`` and its expiry; records the login time."""
    token, expires = sessions.open_session(connection, player_id, at, ttl_ms)
    connection.execute(
        update(logins).where(logins.c.player_id == player_id).values(last_login_at=at)
    )
    return token, expires


def count_failed_login(connection: Connection, player_id: str) -> None:
    """One more wrong password for the player's username since its last good login."""
    connection.execute(
        update(logins)
        .where(logins.c.player_id == player_id)
        .values(failed_logins=logins.c.failed_logins + 1)
    )


def take_failed_logins(connection: Connection, player_id: str) -> int:
    """The wrong passwords since the last good login, counted anew from now (at a login)."""
    count = connection.execute(
        select(logins.c.failed_logins).where(logins.c.player_id == player_id)
    ).scalar_one()
    if count:
        connection.execute(
            update(logins).where(logins.c.player_id == player_id).values(failed_logins=0)
        )
    return int(count)


def set_password_hash(connection: Connection, player_id: str, password_hash: str) -> None:
    """Replace the player's password hash (one made with current parameters)."""
    connection.execute(
        update(logins).where(logins.c.player_id == player_id).values(password_hash=password_hash)
    )


def cashier(connection: Connection, player_id: str, amount: int, at: int) -> int:
    """Deposit (``amount`` > 0) or withdraw (< 0) play money; returns the new balance.

    Raises ``ValueError`` for a withdrawal larger than the balance and ``DemoAccountError``
    for a guest, whose demo money never mixes with real money (nothing is written).
    """
    if is_demo(connection, player_id):
        raise DemoAccountError("a guest's demo money can be neither deposited to nor withdrawn")
    account = player_account(player_id)
    balance = balances(connection, [account], lock=True).get(account, 0)
    if amount < 0 and -amount > balance:
        raise ValueError(f"you cannot withdraw {-amount}: the balance is {balance}")
    kind = "deposit" if amount > 0 else "withdrawal"
    post(connection, [Transaction(kind, [(WORLD, -amount), (account, amount)], memo=CASHIER)], at)
    return balance + amount
