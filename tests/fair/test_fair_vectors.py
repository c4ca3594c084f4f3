"""The committed test vectors of ``baccarat-shoe-v1``, checked against a naive reference.

``naive_*`` below is a second implementation written from ``docs/fairness.md`` alone, as
plainly as possible (one ``hmac.new`` per block, a growing bytes buffer, a simple loop)
and sharing no code with ``baccarat.fair``. The vectors in ``vectors.json`` were produced
by it; the fast implementation must agree with both.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baccarat.cards import Card
from baccarat.fair import (
    FairShoe,
    commitment,
    derive_order,
    order_digest,
    order_key,
    table_client_seed,
)

HERE = Path(__file__).parent
VECTORS: dict[str, Any] = json.loads((HERE / "vectors.json").read_text(encoding="utf-8"))
FAIRNESS_DOC = HERE.parent.parent / "docs" / "fairness.md"

RANK_NAMES = "A23456789TJQK"
SUIT_NAMES = "cdhs"


# --- the naive reference, from the page ------------------------------------------------


def naive_key(server_seed: bytes, client_seed: str, shoe_id: str) -> bytes:
    message = ("baccarat-shoe-v1|" + shoe_id + "|" + client_seed).encode("utf-8")
    return hmac.new(server_seed, message, hashlib.sha256).digest()


class NaiveStream:
    """Blocks HMAC(K, uint64(i)) appended to a buffer, read 4 bytes at a time."""

    def __init__(self, key: bytes) -> None:
        self.key = key
        self.buffer = b""
        self.block = 0
        self.read = 0
        self.rejected: list[dict[str, int]] = []

    def next_u32(self) -> int:
        while len(self.buffer) < self.read + 4:
            message = self.block.to_bytes(8, "big")
            self.buffer += hmac.new(self.key, message, hashlib.sha256).digest()
            self.block += 1
        word = int.from_bytes(self.buffer[self.read : self.read + 4], "big")
        self.read += 4
        return word

    def index(self, n: int) -> int:
        limit = (2**32 // n) * n
        while True:
            u = self.next_u32()
            if u < limit:
                return u % n
            self.rejected.append({"n": n, "word": u, "limit": limit})


def naive_order(server_seed: bytes, client_seed: str, shoe_id: str, decks: int) -> list[int]:
    return naive_shuffle(server_seed, client_seed, shoe_id, decks)[0]


def naive_shuffle(
    server_seed: bytes, client_seed: str, shoe_id: str, decks: int
) -> tuple[list[int], NaiveStream]:
    stream = NaiveStream(naive_key(server_seed, client_seed, shoe_id))
    deck = list(range(52 * decks))
    i = 52 * decks - 1
    while i >= 1:
        j = stream.index(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
        i -= 1
    return deck, stream


def naive_digest(order: list[int]) -> str:
    data = b""
    for c in order:
        data += c.to_bytes(2, "big")
    return hashlib.sha256(data).hexdigest()


def naive_code(c: int) -> str:
    return RANK_NAMES[c % 13] + SUIT_NAMES[(c // 13) % 4]


def naive_table_client_seed(shoe_id: str, player_seeds: dict[str, str]) -> str:
    parts = []
    for player_id in player_seeds:
        parts.append(player_id + ":" + player_seeds[player_id])
    parts.sort()
    return hashlib.sha256((shoe_id + "|" + "|".join(parts)).encode("utf-8")).hexdigest()


def naive_vector(server_seed: bytes, client_seed: str, shoe_id: str, decks: int) -> dict[str, Any]:
    """Everything a vector records, computed by the naive reference."""
    order, stream = naive_shuffle(server_seed, client_seed, shoe_id, decks)
    key = naive_key(server_seed, client_seed, shoe_id)
    return {
        "commitment": hashlib.sha256(server_seed).hexdigest(),
        "key": key.hex(),
        "block_0": hmac.new(key, (0).to_bytes(8, "big"), hashlib.sha256).hexdigest(),
        "first_20_numbers": order[:20],
        "first_20": [naive_code(c) for c in order[:20]],
        "digest": naive_digest(order),
        "words_read": stream.read // 4,
        "rejections": stream.rejected,
    }


# --- the vectors ---------------------------------------------------------------------------

SHOE_VECTORS = VECTORS["shoes"]


def _inputs(vector: dict[str, Any]) -> tuple[bytes, str, str, int]:
    return (
        bytes.fromhex(vector["server_seed"]),
        vector["client_seed"],
        vector["shoe_id"],
        vector["decks"],
    )


def test_the_vectors_cover_one_and_eight_decks_and_a_rejection() -> None:
    assert {v["decks"] for v in SHOE_VECTORS} >= {1, 8}
    assert any(v["rejections"] for v in SHOE_VECTORS)
    assert all(len(v["first_20"]) == 20 for v in SHOE_VECTORS)


@pytest.mark.parametrize("vector", SHOE_VECTORS, ids=[v["name"] for v in SHOE_VECTORS])
def test_naive_reference_reproduces_the_vector(vector: dict[str, Any]) -> None:
    expected = {key: vector[key] for key in naive_vector(*_inputs(vector))}
    assert naive_vector(*_inputs(vector)) == expected


@pytest.mark.parametrize("vector", SHOE_VECTORS, ids=[v["name"] for v in SHOE_VECTORS])
def test_baccarat_fair_reproduces_the_vector(vector: dict[str, Any]) -> None:
    server_seed, client_seed, shoe_id, decks = _inputs(vector)
    fair = FairShoe(server_seed, client_seed, shoe_id, decks)
    assert fair.commitment == commitment(server_seed) == vector["commitment"]
    assert order_key(server_seed, client_seed, shoe_id).hex() == vector["key"]
    assert list(fair.order[:20]) == vector["first_20_numbers"]
    assert [card.code for card in fair.cards[:20]] == vector["first_20"]
    assert fair.digest == order_digest(fair.order) == vector["digest"]
    assert derive_order(*_inputs(vector)) == fair.order


def test_the_rejection_vector_really_rejects_a_word() -> None:
    vector = next(v for v in SHOE_VECTORS if v["rejections"])
    _, stream = naive_shuffle(*_inputs(vector))
    assert stream.rejected == vector["rejections"]
    (rejected,) = stream.rejected
    assert rejected["word"] >= rejected["limit"] == (2**32 // rejected["n"]) * rejected["n"]
    # One word more than the draws: the rejected one.
    assert vector["words_read"] == 52 * vector["decks"] - 1 + 1


@pytest.mark.parametrize("case", VECTORS["table_client_seeds"])
def test_table_client_seed_vectors(case: dict[str, Any]) -> None:
    seeds = case["player_seeds"]
    assert naive_table_client_seed(case["shoe_id"], seeds) == case["client_seed"]
    assert table_client_seed(case["shoe_id"], seeds) == case["client_seed"]


def test_card_numbering_matches_the_page() -> None:
    # rank c % 13 (0 = A ... 12 = K), suit (c // 13) % 4 (clubs, diamonds, hearts, spades)
    for c in range(52 * 8):
        assert Card.from_index(c).code == naive_code(c)


@settings(max_examples=60, deadline=None)
@given(
    server_seed=st.binary(min_size=32, max_size=32),
    client_seed=st.text(max_size=40),
    shoe_id=st.text(max_size=40),
    decks=st.integers(1, 8),
)
def test_fast_order_equals_naive_order(
    server_seed: bytes, client_seed: str, shoe_id: str, decks: int
) -> None:
    order = naive_order(server_seed, client_seed, shoe_id, decks)
    assert list(derive_order(server_seed, client_seed, shoe_id, decks)) == order
    assert order_digest(order) == naive_digest(order)


def test_docs_list_every_vector() -> None:
    text = FAIRNESS_DOC.read_text(encoding="utf-8")
    normalised = re.sub(r"\s+", " ", text)
    for vector in SHOE_VECTORS:
        for value in (vector["server_seed"], vector["commitment"], vector["digest"]):
            assert value in text, (vector["name"], value)
        assert " ".join(vector["first_20"]) in normalised, vector["name"]
    for case in VECTORS["table_client_seeds"]:
        assert case["client_seed"] in text


def test_the_docs_hand_check_code_reproduces_the_vectors() -> None:
    text = FAIRNESS_DOC.read_text(encoding="utf-8")
    section = text.split("## Checking a shoe by hand", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    namespace: dict[str, Any] = {}
    exec(compile(code, "docs/fairness.md", "exec"), namespace)
    for vector in SHOE_VECTORS:
        deck = namespace["order"](*_inputs(vector))
        assert deck[:20] == vector["first_20_numbers"]
        assert namespace["digest"](deck) == vector["digest"]
