"""Shoe seeds sealed at rest: AES-256-GCM under the operator's keys, never stored in the clear.

A sealed seed reads ``v1:<key id>:<nonce>:<ciphertext>`` (nonce and ciphertext in unpadded
base64url). The key id is the first 8 hex digits of a hash of the key, so a key needs no
name and ids stay the same wherever the key is loaded. The shoe id is the associated data:
a sealed seed moved to another shoe does not open. Several keys may be loaded (an old key
still opens what it sealed); the newest seals.

>>> vault = SeedVault.ephemeral()
>>> sealed = vault.seal("shoe-1", bytes(32))
>>> sealed.startswith("v1:" + vault.keys().newest_id + ":"), len(sealed) <= SEALED_MAX
(True, True)
>>> vault.open("shoe-1", sealed) == bytes(32)
True
>>> try:
...     vault.open("shoe-2", sealed)
... except SealError as error:
...     print(str(error).split(" with ")[0])
the sealed seed of shoe 'shoe-2' does not open
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

__all__ = [
    "KEY_BYTES",
    "SEALED_MAX",
    "SealError",
    "SeedKeys",
    "SeedVault",
    "is_sealed",
    "key_id",
    "parse_key",
    "sealed_key_id",
]

KEY_BYTES = 32
#: The longest sealed text (the column is sized for it).
SEALED_MAX = 128
_VERSION = "v1"
_AAD = b"baccarat-shoe-seed-v1\0"


class SealError(Exception):
    """A key or a sealed seed that cannot be used; the message is one line for the operator."""


def key_id(key: bytes) -> str:
    """The key's id: 8 hex digits of a domain-separated SHA-256 (reveals nothing of the key).

    >>> key_id(bytes(32))
    '50e4e171'
    """
    return hashlib.sha256(b"baccarat-seed-key-id\0" + key).hexdigest()[:8]


def parse_key(text: str) -> bytes:
    """A 32-byte key from 64 hex digits or base64 (standard or url-safe, padded or not).

    >>> parse_key("00" * 32) == bytes(32)
    True
    >>> parse_key("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=") == bytes(32)
    True
    >>> parse_key("abc")
    Traceback (most recent call last):
    ...
    baccarat.store.seal.SealError: a seed key must be 32 bytes as 64 hex digits or base64
    """
    value = text.strip()
    if len(value) == 2 * KEY_BYTES:
        try:
            return bytes.fromhex(value)
        except ValueError:
            pass
    try:
        padded = value + "=" * (-len(value) % 4)
        key = base64.b64decode(padded.replace("-", "+").replace("_", "/"), validate=True)
    except (binascii.Error, ValueError):
        key = b""
    if len(key) != KEY_BYTES:
        raise SealError("a seed key must be 32 bytes as 64 hex digits or base64")
    return key


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def is_sealed(text: str | None) -> bool:
    """Whether a stored value is a sealed seed (rather than a revealed one or nothing)."""
    return text is not None and text.startswith(_VERSION + ":")


def sealed_key_id(text: str) -> str:
    """The id of the key a sealed seed was sealed with."""
    return text.split(":")[1] if is_sealed(text) and text.count(":") == 3 else ""


@dataclass(frozen=True, slots=True)
class SeedKeys:
    """Loaded keys, oldest first: the last one seals, any opens what it sealed."""

    keys: tuple[bytes, ...]

    def __post_init__(self) -> None:
        if not self.keys:
            raise SealError("no seed key is loaded")
        for key in self.keys:
            if len(key) != KEY_BYTES:
                raise SealError(f"a seed key must be {KEY_BYTES} bytes, not {len(key)}")

    @property
    def newest_id(self) -> str:
        return key_id(self.keys[-1])

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(key_id(key) for key in self.keys)

    def find(self, wanted: str) -> bytes | None:
        return next((key for key in self.keys if key_id(key) == wanted), None)


def seal_with(keys: SeedKeys, shoe_id: str, seed: bytes) -> str:
    """``seed`` sealed under the newest key, bound to ``shoe_id``."""
    nonce = os.urandom(12)
    sealed = AESGCM(keys.keys[-1]).encrypt(nonce, seed, _AAD + shoe_id.encode("utf-8"))
    return f"{_VERSION}:{keys.newest_id}:{_b64(nonce)}:{_b64(sealed)}"


def open_with(keys: SeedKeys, shoe_id: str, text: str) -> bytes:
    """The seed sealed in ``text`` for ``shoe_id``; ``SealError`` if no loaded key opens it."""
    parts = text.split(":")
    if len(parts) != 4 or parts[0] != _VERSION:
        raise SealError(f"the sealed seed of shoe {shoe_id!r} is not in the {_VERSION} format")
    key = keys.find(parts[1])
    if key is None:
        loaded = ", ".join(keys.ids)
        raise SealError(
            f"the seed of shoe {shoe_id!r} is sealed with key {parts[1]}, which is not loaded "
            f"(loaded: {loaded}); give the key that sealed it (BACCARAT_SEED_KEY or the key file)"
        )
    try:
        return AESGCM(key).decrypt(
            _unb64(parts[2]), _unb64(parts[3]), _AAD + shoe_id.encode("utf-8")
        )
    except (InvalidTag, ValueError, binascii.Error):
        raise SealError(
            f"the sealed seed of shoe {shoe_id!r} does not open with its key {parts[1]}: "
            "it was changed or moved from another shoe"
        ) from None


class SeedVault:
    """Seals and opens shoe seeds with keys from ``load`` (called again to see a rotation).

    ``load`` is called before each seal (a new shoe is rare) and when a sealed seed names a
    key not loaded yet, so a key file rotated while the server runs is picked up.
    """

    def __init__(self, load: Callable[[], SeedKeys]) -> None:
        self._load = load
        self._keys = load()

    @classmethod
    def of(cls, keys: Sequence[bytes]) -> SeedVault:
        """A vault over fixed keys, oldest first."""
        fixed = SeedKeys(tuple(keys))
        return cls(lambda: fixed)

    @classmethod
    def ephemeral(cls) -> SeedVault:
        """A vault with one fresh key held only in memory (tests, throwaway databases)."""
        return cls.of([os.urandom(KEY_BYTES)])

    def keys(self) -> SeedKeys:
        return self._keys

    def seal(self, shoe_id: str, seed: bytes) -> str:
        self._keys = self._load()
        return seal_with(self._keys, shoe_id, seed)

    def open(self, shoe_id: str, text: str) -> bytes:
        if self._keys.find(sealed_key_id(text)) is None:
            self._keys = self._load()
        return open_with(self._keys, shoe_id, text)
