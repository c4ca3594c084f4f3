"""Per-shoe pseudonyms of players in public shoe records.

A shoe record is public once the shoe ends: it names each wager's player by a pseudonym,
``HMAC-SHA256(key, shoe id, player id)`` cut to 64 bits, with a key the server keeps to
itself (``server_secrets``, made at migration). The same player has one pseudonym within a
shoe and unrelated ones in different shoes, so the records of many shoes cannot be joined
into one player's play; a player asks the server for their own
(``GET /api/me/shoes/{shoe_id}/pseudonym``) to find their wagers.

>>> pseudonym(b"k" * 32, "shoe-1", "42")
'p-df3774d5fffb75a5'
>>> pseudonym(b"k" * 32, "shoe-2", "42") != pseudonym(b"k" * 32, "shoe-1", "42")
True
"""

from __future__ import annotations

import hashlib
import hmac

from sqlalchemy import Connection, select

from baccarat.store.schema import server_secrets

__all__ = ["pseudonym", "record_key"]

KEY_NAME = "record_pseudonyms"


def record_key(connection: Connection) -> bytes:
    """The pseudonym key (made by the migrations)."""
    value = connection.execute(
        select(server_secrets.c.value).where(server_secrets.c.name == KEY_NAME)
    ).scalar_one()
    return bytes.fromhex(value)


def pseudonym(key: bytes, shoe_id: str, player_id: str) -> str:
    """The player's pseudonym in this shoe's record."""
    message = f"baccarat-record-pseudonym-v1\x00{shoe_id}\x00{player_id}".encode()
    return "p-" + hmac.new(key, message, hashlib.sha256).hexdigest()[:16]
