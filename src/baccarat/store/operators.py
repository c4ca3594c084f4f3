"""Casino operators whose players play here with the operator's own wallet (provider mode).

An operator is a row of ``operators``: its name, its wallet's URL, the one currency it plays
in, a wallet call's timeout, and the secret both sides sign with (HMAC-SHA256,
``baccarat.wallet.contract``). The secret is 32 random bytes, shown once (as 64 hex digits)
when it is made and sealed at rest with the seed keys (``store.seal``, label
``operator:{id}``): it must sign, so it cannot be hashed, and it is never stored plain. A
rotation keeps the previous secret for a grace period, accepted (never used to sign) until
``previous_until``, so the operator can switch without a gap. A disabled operator launches
nobody and takes no new stake (``operator_endpoint`` is ``None``); its players' sessions end
with it. What the game owes its players is still paid: their credits and rollbacks go to the
wallet whatever ``disabled_at`` says (``payout_endpoint``).

An operator's player is a ``players`` row of ours plus its ``operator_players`` row: the
operator's id for them (``external_id``, what the wallet calls ``player_id``), the name and
language they were last launched with, and the currency.

>>> check_operator_id("casino-1")
'casino-1'
>>> check_wallet_url("https://wallet.example.com/api/")
'https://wallet.example.com/api'
>>> check_currency("idr")
'IDR'
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any, NamedTuple
from urllib.parse import urlsplit

from sqlalchemy import Connection, select, update

from baccarat.rulesets import CURRENCIES
from baccarat.store.clock import db_now
from baccarat.store.ledger import ensure_accounts
from baccarat.store.schema import auth_sessions, operator_players, operators
from baccarat.store.seal import SeedVault
from baccarat.store.sessions import PLAYER_SESSIONS
from baccarat.store.wallet_calls import WALLET_KIND, wallet_account
from baccarat.wallet.client import WalletEndpoint

__all__ = [
    "SECRET_BYTES",
    "TIMEOUT_MS_RANGE",
    "Operator",
    "OperatorError",
    "OperatorPlayer",
    "add_operator",
    "check_currency",
    "check_operator_id",
    "check_timeout_ms",
    "check_wallet_url",
    "disable_operator",
    "find_operator",
    "list_operators",
    "operator_endpoint",
    "operator_secrets",
    "payout_endpoint",
    "player_operator",
    "rotate_secret",
    "seal_label",
]

#: An operator's shared secret: 32 random bytes (256 bits, the HMAC-SHA256 key size).
SECRET_BYTES = 32
#: The timeouts a wallet call may be given (ms): a betting window is seconds long.
TIMEOUT_MS_RANGE = (100, 30_000)
_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")
_NAME_CHARS = 100
_URL_CHARS = 500


class OperatorError(ValueError):
    """Bad input about an operator (a taken or unknown id, a bad URL); one line for people."""


@dataclass(frozen=True, slots=True)
class Operator:
    """An operator as stored, without its secrets."""

    id: str
    name: str
    wallet_url: str
    currency: str
    timeout_ms: int
    created_at: int
    #: Until when the secret before the last rotation is still accepted, if one is.
    previous_until: int | None
    disabled_at: int | None

    @property
    def active(self) -> bool:
        return self.disabled_at is None


class OperatorPlayer(NamedTuple):
    """Whose player a player of ours is: the operator, and what the operator calls them."""

    operator_id: str
    external_id: str
    display_name: str
    currency: str
    language: str


def seal_label(operator_id: str) -> str:
    """The label an operator's secrets are sealed under: a secret moved to another does not open.

    >>> seal_label("casino-1")
    'operator:casino-1'
    """
    return f"operator:{operator_id}"


def check_operator_id(text: str) -> str:
    """An operator id: 1-40 of a-z, 0-9, '_' and '-', starting with a letter or digit.

    >>> check_operator_id("Casino")
    Traceback (most recent call last):
    ...
    baccarat.store.operators.OperatorError: an operator id is 1-40 of a-z, 0-9, '_' and '-' (starting with a-z or 0-9), not 'Casino'
    """
    if not _ID.fullmatch(text):
        raise OperatorError(
            "an operator id is 1-40 of a-z, 0-9, '_' and '-' (starting with a-z or 0-9), "
            f"not {text!r}"
        )
    return text


def check_name(text: str) -> str:
    """An operator's name as shown to its players: 1-100 printable characters.

    >>> check_name("  Kasino Nusantara ")
    'Kasino Nusantara'
    """
    name = text.strip()
    if not name or len(name) > _NAME_CHARS or not name.isprintable():
        raise OperatorError(f"an operator's name is 1-{_NAME_CHARS} printable characters")
    return name


def check_wallet_url(text: str) -> str:
    """The wallet's base URL: http or https, a host, no query, no credentials; the calls are
    ``{url}/balance`` and so on, so a trailing '/' is dropped.

    >>> check_wallet_url("ftp://wallet")
    Traceback (most recent call last):
    ...
    baccarat.store.operators.OperatorError: the wallet URL must be http:// or https:// with a host, without a query, a fragment or credentials, not 'ftp://wallet'
    """
    url = text.strip().rstrip("/")
    try:
        parts = urlsplit(url)
        _ = parts.port  # a port that is not a number raises here
        good = (
            parts.scheme in ("http", "https")
            and bool(parts.hostname)
            and not parts.query
            and not parts.fragment
            and parts.username is None
        )
    except ValueError:
        good = False
    if not good or len(url) > _URL_CHARS or not url.isprintable() or " " in url:
        raise OperatorError(
            "the wallet URL must be http:// or https:// with a host, without a query, a "
            f"fragment or credentials, not {text!r}"
        )
    return url


def check_currency(text: str) -> str:
    """A currency the game counts in (``rulesets.CURRENCIES``), upper case.

    >>> check_currency("XBT")
    Traceback (most recent call last):
    ...
    baccarat.store.operators.OperatorError: the currency must be one of EUR, GBP, IDR, MYR, SGD, USD, not 'XBT'
    """
    code = text.strip().upper()
    if code not in CURRENCIES:
        raise OperatorError(
            f"the currency must be one of {', '.join(sorted(CURRENCIES))}, not {text!r}"
        )
    return code


def check_timeout_ms(value: int) -> int:
    """A wallet call's timeout in ms, within ``TIMEOUT_MS_RANGE``.

    >>> check_timeout_ms(2000)
    2000
    """
    low, high = TIMEOUT_MS_RANGE
    if not low <= value <= high:
        raise OperatorError(f"the timeout must be {low} to {high} ms, not {value}")
    return value


def _operator(row: Any) -> Operator:
    return Operator(
        id=row.id,
        name=row.name,
        wallet_url=row.wallet_url,
        currency=row.currency,
        timeout_ms=int(row.timeout_ms),
        created_at=int(row.created_at),
        previous_until=row.previous_until,
        disabled_at=row.disabled_at,
    )


_COLUMNS = (
    operators.c.id,
    operators.c.name,
    operators.c.wallet_url,
    operators.c.currency,
    operators.c.timeout_ms,
    operators.c.created_at,
    operators.c.previous_until,
    operators.c.disabled_at,
)


def find_operator(
    connection: Connection, operator_id: str, *, lock: bool = False
) -> Operator | None:
    """The operator ``operator_id`` (disabled or not), or ``None``; ``lock`` takes its row
    (PostgreSQL) so that what follows for this operator waits for this transaction."""
    query = select(*_COLUMNS).where(operators.c.id == operator_id)
    if lock:
        query = query.with_for_update()
    row = connection.execute(query).first()
    return None if row is None else _operator(row)


def list_operators(connection: Connection) -> list[Operator]:
    """Every operator, by id."""
    rows = connection.execute(select(*_COLUMNS).order_by(operators.c.id))
    return [_operator(row) for row in rows]


def add_operator(
    connection: Connection,
    vault: SeedVault,
    *,
    operator_id: str,
    name: str,
    wallet_url: str,
    currency: str,
    timeout_ms: int,
    at: int,
) -> str:
    """Add an operator; returns its new secret as 64 hex digits (shown once: only its sealed
    form is stored). ``OperatorError`` for bad input or an id taken."""
    operator_id = check_operator_id(operator_id)
    values = {
        "name": check_name(name),
        "wallet_url": check_wallet_url(wallet_url),
        "currency": check_currency(currency),
        "timeout_ms": check_timeout_ms(timeout_ms),
    }
    if find_operator(connection, operator_id) is not None:
        raise OperatorError(f"there is an operator {operator_id!r} already")
    secret = os.urandom(SECRET_BYTES)
    connection.execute(
        operators.insert().values(
            id=operator_id,
            secret_sealed=vault.seal(seal_label(operator_id), secret),
            created_at=at,
            **values,
        )
    )
    # Its ledger account exists from the start: two first bets at once would otherwise both
    # create it, and one would fail on the key.
    ensure_accounts(connection, {wallet_account(operator_id): WALLET_KIND}, at)
    return secret.hex()


def _known(connection: Connection, operator_id: str) -> Operator:
    found = find_operator(connection, operator_id, lock=True)
    if found is None:
        raise OperatorError(f"there is no operator {operator_id!r}")
    return found


def rotate_secret(
    connection: Connection, vault: SeedVault, operator_id: str, at: int, grace_ms: int
) -> str:
    """A new secret for the operator (64 hex digits, shown once); the one it replaces is still
    accepted until ``at + grace_ms`` (a second rotation within that drops the oldest)."""
    if grace_ms < 0:
        raise OperatorError(f"the grace period cannot be negative, not {grace_ms} ms")
    operator = _known(connection, operator_id)
    if not operator.active:
        raise OperatorError(f"the operator {operator_id!r} is disabled")
    current = connection.scalar(
        select(operators.c.secret_sealed).where(operators.c.id == operator_id)
    )
    secret = os.urandom(SECRET_BYTES)
    connection.execute(
        update(operators)
        .where(operators.c.id == operator_id)
        .values(
            secret_sealed=vault.seal(seal_label(operator_id), secret),
            previous_secret_sealed=current if grace_ms > 0 else None,
            previous_until=at + grace_ms if grace_ms > 0 else None,
        )
    )
    return secret.hex()


def disable_operator(connection: Connection, operator_id: str, at: int) -> int:
    """Disable the operator: no launch and no debit from now on (credits and rollbacks still
    go: ``payout_endpoint``), and every live session of its players ends (how many).
    ``OperatorError`` if unknown or disabled already."""
    operator = _known(connection, operator_id)
    if not operator.active:
        raise OperatorError(f"the operator {operator_id!r} is disabled already")
    connection.execute(
        update(operators).where(operators.c.id == operator_id).values(disabled_at=at)
    )
    theirs = select(operator_players.c.player_id).where(
        operator_players.c.operator_id == operator_id
    )
    ended = 0
    for player_id in connection.scalars(
        select(auth_sessions.c.player_id)
        .where(auth_sessions.c.player_id.in_(theirs), auth_sessions.c.ended_at.is_(None))
        .distinct()
    ):
        ended += PLAYER_SESSIONS.end(connection, at, owner_id=player_id)
    return ended


def operator_secrets(
    connection: Connection, vault: SeedVault, operator_id: str, at: int
) -> list[bytes]:
    """The secrets a request of the operator may be signed with at ``at``: the current one,
    and the previous one while ``at < previous_until``. None for an unknown or disabled
    operator (so nothing of theirs verifies)."""
    row = connection.execute(
        select(
            operators.c.secret_sealed,
            operators.c.previous_secret_sealed,
            operators.c.previous_until,
            operators.c.disabled_at,
        ).where(operators.c.id == operator_id)
    ).first()
    if row is None or row.disabled_at is not None:
        return []
    label = seal_label(operator_id)
    found = [vault.open(label, row.secret_sealed)]
    previous, until = row.previous_secret_sealed, row.previous_until
    if previous is not None and until is not None and at < int(until):
        found.append(vault.open(label, previous))
    return found


def operator_endpoint(
    connection: Connection, vault: SeedVault, operator_id: str, at: int | None = None
) -> WalletEndpoint | None:
    """Where and how to call the operator's wallet for a launch's balance or a stake, or
    ``None`` for an unknown or disabled operator. Calls are signed with the current secret; an
    answer signed with the previous one is accepted too while its grace lasts at ``at`` (by
    default the database's clock)."""
    return _endpoint(connection, vault, operator_id, at, disabled_too=False)


def payout_endpoint(
    connection: Connection, vault: SeedVault, operator_id: str, at: int | None = None
) -> WalletEndpoint | None:
    """Where the outbox sends the operator's credits and rollbacks: its wallet, disabled or
    not (disabling stops new launches and stakes, never the money owed to its players);
    ``None`` only for an unknown operator."""
    return _endpoint(connection, vault, operator_id, at, disabled_too=True)


def _endpoint(
    connection: Connection,
    vault: SeedVault,
    operator_id: str,
    at: int | None,
    *,
    disabled_too: bool,
) -> WalletEndpoint | None:
    row = connection.execute(
        select(
            operators.c.wallet_url,
            operators.c.secret_sealed,
            operators.c.previous_secret_sealed,
            operators.c.previous_until,
            operators.c.timeout_ms,
            operators.c.disabled_at,
        ).where(operators.c.id == operator_id)
    ).first()
    if row is None or (row.disabled_at is not None and not disabled_too):
        return None
    label = seal_label(operator_id)
    previous: tuple[bytes, ...] = ()
    if row.previous_secret_sealed is not None and row.previous_until is not None:
        now = db_now(connection) if at is None else at
        if now < int(row.previous_until):
            previous = (vault.open(label, row.previous_secret_sealed),)
    return WalletEndpoint(
        operator_id=operator_id,
        url=row.wallet_url,
        secret=vault.open(label, row.secret_sealed),
        timeout_s=int(row.timeout_ms) / 1000,
        previous_secrets=previous,
    )


def player_operator(connection: Connection, player_id: str) -> OperatorPlayer | None:
    """Whose player ``player_id`` is, or ``None`` for a player of our own (a guest, a login)."""
    row = connection.execute(
        select(
            operator_players.c.operator_id,
            operator_players.c.external_id,
            operator_players.c.display_name,
            operator_players.c.currency,
            operator_players.c.language,
        ).where(operator_players.c.player_id == player_id)
    ).first()
    return None if row is None else OperatorPlayer(*row)
