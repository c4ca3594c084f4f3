"""Game launches: an operator's signed request seats its player and gets a one-time link.

Three steps, each in the caller's transaction:

- ``request_seen`` / ``record_request``: each signed launch request is kept by its signature
  (``launch_requests``) while a replay of it could still pass the timestamp check, so the
  same request sent again is refused. The caller holds the operator's row
  (``operators.find_operator(lock=True)``), so two copies of one request sent at once cannot
  both pass; the primary key refuses the second anyway.
- ``seat_player``: the operator's player as ours (a ``players`` row with no money of its own,
  plus its ``operator_players`` row), found by the operator's id for them, its display name
  and language brought up to date.
- ``issue_launch`` / ``redeem_launch``: the one-time token of the launch URL. Only its
  SHA-256 is stored; it is good for ``LAUNCH_TTL_MS`` and is used up by the first redemption.

>>> LAUNCH_TTL_MS, REQUEST_KEPT_MS
(120000, 600000)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from sqlalchemy import Connection, delete, select, update

from baccarat.store.players import create_player, new_token, token_hash
from baccarat.store.schema import launch_requests, launch_tokens, operator_players

__all__ = [
    "LAUNCH_TTL_MS",
    "REQUEST_KEPT_MS",
    "Launch",
    "Unusable",
    "issue_launch",
    "record_request",
    "redeem_launch",
    "request_seen",
    "seat_player",
]

#: How long a launch URL's token may be traded for a session.
LAUNCH_TTL_MS = 120_000
#: How long a launch request's signature is kept: a request received at ``r`` carries a
#: timestamp within 300 s of ``r``, so a copy of it passes the timestamp check until at most
#: ``r`` + 600 s. After that the clock refuses it, and the row can go.
REQUEST_KEPT_MS = 2 * 300_000
#: How long a used or expired launch token's row stays (what was launched, for support).
_TOKENS_KEPT_MS = 24 * 3_600_000


@dataclass(frozen=True, slots=True)
class Launch:
    """What a redeemed launch token seats: whose player, at which table, in which language."""

    operator_id: str
    player_id: str
    table_id: str | None
    language: str


@dataclass(frozen=True, slots=True)
class Unusable:
    """Why a launch token cannot be traded: never issued, used already, or expired."""

    reason: Literal["unknown", "used", "expired"]


def request_seen(connection: Connection, operator_id: str, signature: str) -> bool:
    """Whether the operator's request with this signature was taken before."""
    query = select(launch_requests.c.received_at).where(
        launch_requests.c.operator_id == operator_id, launch_requests.c.signature == signature
    )
    return connection.execute(query).first() is not None


def record_request(connection: Connection, operator_id: str, signature: str, at: int) -> None:
    """Keep the request's signature (a copy is refused from now on) and let go of those no
    copy of which could pass the timestamp check any more."""
    connection.execute(
        delete(launch_requests).where(launch_requests.c.received_at < at - REQUEST_KEPT_MS)
    )
    connection.execute(
        launch_requests.insert().values(
            operator_id=operator_id, signature=signature, received_at=at
        )
    )


def seat_player(
    connection: Connection,
    *,
    operator_id: str,
    external_id: str,
    display_name: str,
    currency: str,
    language: str,
    at: int,
) -> str:
    """Our player id of the operator's player ``external_id``: found, with its name and
    language updated, or made (no money of its own: the operator's wallet holds it)."""
    found = connection.scalar(
        select(operator_players.c.player_id).where(
            operator_players.c.operator_id == operator_id,
            operator_players.c.external_id == external_id,
        )
    )
    if found is not None:
        connection.execute(
            update(operator_players)
            .where(operator_players.c.player_id == found)
            .values(display_name=display_name, language=language)
        )
        return str(found)
    # The player's own token hash is of a secret never shown: it opens only through sessions.
    player_id = create_player(connection, new_token(), 0, at)
    connection.execute(
        operator_players.insert().values(
            player_id=player_id,
            operator_id=operator_id,
            external_id=external_id,
            display_name=display_name,
            currency=currency,
            language=language,
            created_at=at,
        )
    )
    return player_id


def issue_launch(
    connection: Connection,
    *,
    operator_id: str,
    player_id: str,
    table_id: str | None,
    language: str,
    at: int,
    ttl_ms: int = LAUNCH_TTL_MS,
) -> tuple[str, int]:
    """A fresh one-time launch token (256 random bits) and when it expires; only its hash is
    stored. Tokens long expired are let go on the way."""
    connection.execute(
        delete(launch_tokens).where(launch_tokens.c.expires_at < at - _TOKENS_KEPT_MS)
    )
    token = new_token()
    connection.execute(
        launch_tokens.insert().values(
            token_hash=token_hash(token),
            operator_id=operator_id,
            player_id=player_id,
            table_id=table_id,
            language=language,
            created_at=at,
            expires_at=at + ttl_ms,
        )
    )
    return token, at + ttl_ms


def redeem_launch(connection: Connection, token: str, at: int) -> Launch | Unusable:
    """Use up the launch token: what it seats, or why it cannot be used. Of two redemptions
    of one token, only the one whose update marked it used gets the launch."""
    hashed = token_hash(token)
    row = connection.execute(
        select(
            launch_tokens.c.operator_id,
            launch_tokens.c.player_id,
            launch_tokens.c.table_id,
            launch_tokens.c.language,
            launch_tokens.c.expires_at,
            launch_tokens.c.used_at,
        ).where(launch_tokens.c.token_hash == hashed)
    ).first()
    if row is None:
        return Unusable("unknown")
    if row.used_at is not None:
        return Unusable("used")
    if at >= int(row.expires_at):
        return Unusable("expired")
    marked = connection.execute(
        update(launch_tokens)
        .where(launch_tokens.c.token_hash == hashed, launch_tokens.c.used_at.is_(None))
        .values(used_at=at)
    ).rowcount
    if marked != 1:
        return Unusable("used")
    return Launch(row.operator_id, row.player_id, row.table_id, row.language)
