"""The provably fair shoe ``baccarat-shoe-v1`` (``docs/fairness.md``): commit, derive, verify.

The server draws a secret seed and publishes its commitment before the first bet; the
client seed is fixed after that; the card order is derived from both, the shoe id and
the deck count alone; after the shoe the seed is revealed and anyone can rebuild the
order. Everything here is pure except ``new_server_seed``, which reads the OS CSPRNG.

>>> seed = bytes(range(32))
>>> fair = FairShoe(seed, client_seed="client-seed", shoe_id="shoe-1", decks=1)
>>> fair.commitment == commitment(seed) == hashlib.sha256(seed).hexdigest()
True
>>> sorted(fair.order) == list(range(52))
True
>>> fair.cards[0] == Card.from_index(fair.order[0])
True
>>> len(fair.digest), fair.digest == order_digest(fair.order)
(64, True)
>>> FairShoe(b"short", "c", "s", 8)
Traceback (most recent call last):
...
baccarat.fair.FairError: a server seed is 32 bytes, not 5
"""

from __future__ import annotations

import hashlib
import secrets
import struct
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from baccarat.cards import Card
from baccarat.shoe import Shoe, ShoeProcedure, check_decks

__all__ = [
    "ALGORITHM",
    "SEED_BYTES",
    "FairError",
    "FairShoe",
    "commitment",
    "derive_order",
    "fisher_yates",
    "index_limit",
    "new_server_seed",
    "order_digest",
    "order_key",
    "parse_server_seed",
    "stream_words",
    "table_client_seed",
    "unbiased_index",
]

ALGORITHM = "baccarat-shoe-v1"
#: Length of a server seed in bytes.
SEED_BYTES = 32

_WORD_LIMIT = 1 << 32
_BLOCK = 64  # the SHA-256 block size, for the HMAC pads
_WORDS_PER_BLOCK = 8  # one 32-byte HMAC output holds eight u32


class FairError(ValueError):
    """Inputs that ``baccarat-shoe-v1`` does not accept (a seed of the wrong length, bad hex)."""


def new_server_seed() -> bytes:
    """A fresh secret server seed: 32 bytes from the operating system's CSPRNG.

    >>> len(new_server_seed()), new_server_seed() != new_server_seed()
    (32, True)
    """
    return secrets.token_bytes(SEED_BYTES)


def parse_server_seed(text: str) -> bytes:
    """A server seed from its 64 hex digits (either case), or ``FairError`` saying what is wrong.

    >>> parse_server_seed("00" * 31 + "Ff")[-1]
    255
    >>> parse_server_seed("abc")
    Traceback (most recent call last):
    ...
    baccarat.fair.FairError: a server seed is 64 hex digits (32 bytes), not 3 characters
    """
    digits = text.strip()
    if len(digits) != 2 * SEED_BYTES:
        raise FairError(
            f"a server seed is {2 * SEED_BYTES} hex digits ({SEED_BYTES} bytes), "
            f"not {len(digits)} characters"
        )
    if any(ch not in "0123456789abcdefABCDEF" for ch in digits):
        raise FairError(f"a server seed is hexadecimal (0-9, a-f), not {digits!r}")
    return bytes.fromhex(digits)


def _check_seed(server_seed: bytes) -> bytes:
    if not isinstance(server_seed, bytes | bytearray):
        raise FairError(f"a server seed is bytes, not {type(server_seed).__name__}")
    if len(server_seed) != SEED_BYTES:
        raise FairError(f"a server seed is {SEED_BYTES} bytes, not {len(server_seed)}")
    return bytes(server_seed)


def commitment(server_seed: bytes) -> str:
    """The commitment ``hex(SHA256(S))``, published before the shoe's first bet.

    >>> commitment(bytes(32))
    '66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925'
    """
    return hashlib.sha256(_check_seed(server_seed)).hexdigest()


def table_client_seed(shoe_id: str, player_seeds: Mapping[str, str]) -> str:
    """The client seed of a shared table: ``hex(SHA256(shoe_id|id:seed|id:seed...))``, sorted.

    ``player_seeds`` maps each player id to the seed that player sent before the first
    betting window closed. With none, the hashed text is ``shoe_id + "|"``.

    >>> table_client_seed("s1", {}) == hashlib.sha256(b"s1|").hexdigest()
    True
    >>> table_client_seed("s1", {"b": "2", "a": "1"}) == hashlib.sha256(b"s1|a:1|b:2").hexdigest()
    True
    """
    entries = sorted(f"{player_id}:{seed}" for player_id, seed in player_seeds.items())
    text = shoe_id + "|" + "|".join(entries)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class _Hmac:
    """HMAC-SHA256 under one key, with the padded key states hashed once (RFC 2104)."""

    def __init__(self, key: bytes) -> None:
        if len(key) > _BLOCK:
            key = hashlib.sha256(key).digest()
        padded = key.ljust(_BLOCK, b"\0")
        self._inner = hashlib.sha256(bytes(b ^ 0x36 for b in padded))
        self._outer = hashlib.sha256(bytes(b ^ 0x5C for b in padded))

    def digest(self, message: bytes) -> bytes:
        inner = self._inner.copy()
        inner.update(message)
        outer = self._outer.copy()
        outer.update(inner.digest())
        return outer.digest()


def order_key(server_seed: bytes, client_seed: str, shoe_id: str) -> bytes:
    """The key ``K = HMAC(S, "baccarat-shoe-v1|" + shoe_id + "|" + client_seed)``.

    >>> import hmac
    >>> key = order_key(bytes(32), "c", "s")
    >>> key == hmac.new(bytes(32), b"baccarat-shoe-v1|s|c", "sha256").digest()
    True
    """
    message = f"{ALGORITHM}|{shoe_id}|{client_seed}".encode()
    return _Hmac(_check_seed(server_seed)).digest(message)


_BLOCK_INDEX = struct.Struct(">Q")


def stream_words(key: bytes, *, batch: int = 8) -> Iterator[int]:
    """The stream of ``K``: blocks ``HMAC(K, uint64(i))``, read as big-endian u32, without end.

    Blocks are computed ``batch`` at a time (a speed knob; the words do not depend on it).

    >>> import hmac, itertools
    >>> key = order_key(bytes(32), "c", "s")
    >>> first = hmac.new(key, bytes(8), "sha256").digest()
    >>> list(itertools.islice(stream_words(key), 8)) == list(struct.unpack(">8I", first))
    True
    """
    mac = _Hmac(key)
    block = 0
    while True:
        data = b"".join([mac.digest(_BLOCK_INDEX.pack(i)) for i in range(block, block + batch)])
        yield from struct.unpack(f">{_WORDS_PER_BLOCK * batch}I", data)
        block += batch


def index_limit(n: int, bits: int = 32) -> int:
    """The first word value rejected for a draw in ``[0, n)``: ``(2**bits // n) * n``.

    The scheme reads 32-bit words; ``bits`` exists so that tests can check the method
    exhaustively on small words.

    >>> index_limit(52), 2**32 - index_limit(52)
    (4294967248, 48)
    """
    if n < 1 or n > 1 << bits:
        raise ValueError(f"cannot draw an index in [0, {n}) from {bits}-bit words")
    return ((1 << bits) // n) * n


def unbiased_index(n: int, next_word: Callable[[], int], bits: int = 32) -> int:
    """An index in ``[0, n)``: read words until one is below ``index_limit(n)``, return it mod n.

    >>> words = iter([2**32 - 1, 2**32 - 5, 107])   # the first two are >= the limit for 52
    >>> unbiased_index(52, words.__next__), next(words, "all read")
    (3, 'all read')
    """
    limit = index_limit(n, bits)
    word = next_word()
    while word >= limit:
        word = next_word()
    return word % n


# Rejection limits for every draw of an 8-deck shoe, computed once.
_LIMITS = (0, *(index_limit(n) for n in range(1, 52 * 8 + 1)))


def fisher_yates(size: int, words: Iterable[int]) -> tuple[int, ...]:
    """Shuffle ``[0, size)`` from the top, ``j = index(i + 1)`` for ``i = size-1 … 1``.

    ``words`` is the u32 stream; this is ``unbiased_index`` inlined, because this loop is
    the whole cost of a shoe.

    >>> fisher_yates(3, [5, 7])      # i=2: j = 5 % 3 = 2, no swap; i=1: j = 7 % 2 = 1
    (0, 1, 2)
    >>> fisher_yates(3, [2**32 - 1, 4, 9])   # 2**32 - 1 is rejected for n=3; then j=1, j=1
    (0, 2, 1)
    """
    limits = _LIMITS if size < len(_LIMITS) else (0, *(index_limit(n) for n in range(1, size + 1)))
    deck = list(range(size))
    take = iter(words).__next__
    for i in range(size - 1, 0, -1):
        n = i + 1
        limit = limits[n]
        word = take()
        while word >= limit:
            word = take()
        j = word % n
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def derive_order(server_seed: bytes, client_seed: str, shoe_id: str, decks: int) -> tuple[int, ...]:
    """The card numbers of the shoe, position 0 dealt first (the card turned for the burn).

    >>> order = derive_order(bytes(32), "client", "shoe", 1)
    >>> len(order), sorted(order) == list(range(52))
    (52, True)
    """
    size = 52 * check_decks(decks)
    key = order_key(server_seed, client_seed, shoe_id)
    # Enough blocks in the first batch for every draw unless a word is rejected.
    batch = -(-(size - 1) // _WORDS_PER_BLOCK)
    return fisher_yates(size, stream_words(key, batch=batch))


def order_digest(order: Sequence[int]) -> str:
    """The digest ``hex(SHA256(uint16(c) for c in order))``, published with the reveal.

    >>> order_digest([0, 1]) == hashlib.sha256(bytes([0, 0, 0, 1])).hexdigest()
    True
    """
    return hashlib.sha256(struct.pack(f">{len(order)}H", *order)).hexdigest()


@dataclass(frozen=True)
class FairShoe:
    """The four inputs of a fair shoe, and everything derived from them.

    >>> fair = FairShoe(bytes(32), "client", "shoe", 8)
    >>> shoe = fair.shoe(ShoeProcedure(decks=8))
    >>> shoe.order == fair.cards, shoe.burned == fair.cards[: len(shoe.burned)]
    (True, True)
    >>> fair.shoe(ShoeProcedure(decks=6))
    Traceback (most recent call last):
    ...
    baccarat.fair.FairError: the procedure is for 6 decks, the fair shoe has 8
    """

    server_seed: bytes
    client_seed: str
    shoe_id: str
    decks: int

    def __post_init__(self) -> None:
        # A bytearray would make the shoe mutable and unhashable: keep an immutable copy.
        object.__setattr__(self, "server_seed", _check_seed(self.server_seed))
        if not isinstance(self.client_seed, str) or not isinstance(self.shoe_id, str):
            raise FairError("the client seed and the shoe id are strings")
        check_decks(self.decks)

    @cached_property
    def order(self) -> tuple[int, ...]:
        """Card numbers in deal order (``baccarat-shoe-v1`` numbering)."""
        return derive_order(self.server_seed, self.client_seed, self.shoe_id, self.decks)

    @cached_property
    def cards(self) -> tuple[Card, ...]:
        """The cards in deal order."""
        return tuple(Card.from_index(number) for number in self.order)

    @cached_property
    def commitment(self) -> str:
        """``hex(SHA256(server_seed))``."""
        return commitment(self.server_seed)

    @cached_property
    def digest(self) -> str:
        """The digest of the order."""
        return order_digest(self.order)

    def shoe(self, procedure: ShoeProcedure) -> Shoe:
        """A shoe dealing this order under ``procedure`` (burn, cut card, last coup)."""
        if procedure.decks != self.decks:
            raise FairError(
                f"the procedure is for {procedure.decks} decks, the fair shoe has {self.decks}"
            )
        return Shoe.from_procedure(self.cards, procedure)

    def __repr__(self) -> str:
        # Never print the secret seed by accident (logs, tracebacks): show its commitment.
        return (
            f"FairShoe(commitment={self.commitment!r}, client_seed={self.client_seed!r}, "
            f"shoe_id={self.shoe_id!r}, decks={self.decks})"
        )
