"""Device tokens (OWASP's "device cookie"): a device that has logged in as a user before
cannot be locked out by guesses from elsewhere.

A good login answers a device token for its username: a nonce and its HMAC under a key of the
server (derived from the pseudonym key the migrations made, so every node and every restart
knows it). A login that sends a valid token of its username is from a *known device*: the
per-username limits, which guesses from anywhere fill, do not apply to it (the per-address one
still does), and its password check runs in the password pool's lane kept for known devices
and staff. A guesser has no token; a stolen one still needs the password.

>>> key = device_key(bytes(32))
>>> token = issue(key, "Ivy")
>>> is_known(key, "ivy", token), is_known(key, "eve", token), is_known(key, "ivy", None)
(True, False, False)
>>> is_known(key, "ivy", token[:-1] + ("0" if token[-1] != "0" else "1"))
False

A *seat device token* is of the same key, for another purpose: it names the player of the
device's last seat, a guest or a login (``issue_seat``), so that an operator's lock of that
player follows the device (``seat_holder``): while the player is locked, the device gets no
new guest, and the page learns why its token stopped working. It holds the player's id, which
the device knows anyway, and a MAC: another id cannot be put in it.

>>> seat = issue_seat(key, "0" * 32)
>>> seat_holder(key, seat) == "0" * 32, seat_holder(key, "1" * 32 + seat[32:]), seat_holder(key, "x")
(True, None, None)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from baccarat.server.ratelimit import username_key

__all__ = ["device_key", "is_known", "issue", "issue_seat", "seat_holder"]


def device_key(pseudonym_key: bytes) -> bytes:
    """The key of device tokens, derived from the server's pseudonym key."""
    return hmac.new(pseudonym_key, b"baccarat-device-key-v1", hashlib.sha256).digest()


def _mac(key: bytes, username: str, nonce: str) -> str:
    message = f"{username_key(username)}\x00{nonce}".encode()
    return hmac.new(key, message, hashlib.sha256).hexdigest()[:32]


def issue(key: bytes, username: str) -> str:
    """A new device token for ``username``."""
    nonce = secrets.token_urlsafe(12)
    return f"{nonce}.{_mac(key, username, nonce)}"


def is_known(key: bytes, username: str, token: str | None) -> bool:
    """Whether ``token`` is a device token this server issued for ``username``."""
    if not token or "." not in token:
        return False
    nonce, _, mac = token.partition(".")
    return hmac.compare_digest(mac, _mac(key, username, nonce))


def _seat_mac(key: bytes, player_id: str) -> str:
    return hmac.new(key, f"seat\x00{player_id}".encode(), hashlib.sha256).hexdigest()[:32]


def issue_seat(key: bytes, player_id: str) -> str:
    """The seat device token of ``player_id``: the device's last seat is theirs."""
    return f"{player_id}.{_seat_mac(key, player_id)}"


def seat_holder(key: bytes, token: str | None) -> str | None:
    """The player a seat device token names, or ``None`` for a token this server did not make."""
    if not token or "." not in token:
        return None
    player_id, _, mac = token.partition(".")
    expected = _seat_mac(key, player_id).encode()
    return player_id if hmac.compare_digest(mac.encode(), expected) else None
