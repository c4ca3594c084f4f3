"""Properties of the fair order: a permutation, a function of its four inputs only, a real shoe."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baccarat.cards import Card
from baccarat.fair import (
    FairError,
    FairShoe,
    commitment,
    derive_order,
    new_server_seed,
    parse_server_seed,
    table_client_seed,
)
from baccarat.shoe import LastCoupRule, Shoe, ShoeError, ShoeProcedure

seeds = st.binary(min_size=32, max_size=32)
texts = st.text(max_size=30)
deck_counts = st.integers(1, 8)


@settings(max_examples=50, deadline=None)
@given(seeds, texts, texts, deck_counts)
def test_the_order_is_a_permutation(seed: bytes, client: str, shoe_id: str, decks: int) -> None:
    order = derive_order(seed, client, shoe_id, decks)
    assert sorted(order) == list(range(52 * decks))


@st.composite
def procedures(draw: st.DrawFn, decks: int) -> ShoeProcedure:
    return ShoeProcedure(
        decks=decks,
        burn=draw(st.booleans()),
        cut_card_from_end=draw(st.integers(0, 52 * decks)),
        last_coup=draw(st.sampled_from(list(LastCoupRule))),
    )


@settings(max_examples=40, deadline=None)
@given(seeds, texts, texts, st.data())
def test_a_fair_shoe_deals_exactly_like_any_shoe_over_its_cards(
    seed: bytes, client: str, shoe_id: str, data: st.DataObject
) -> None:
    decks = data.draw(deck_counts)
    procedure = data.draw(procedures(decks))
    fair = FairShoe(seed, client, shoe_id, decks)
    assert fair.cards == tuple(Card.from_index(c) for c in fair.order)
    fair_shoe = fair.shoe(procedure)
    plain = Shoe.from_procedure(fair.cards, procedure)
    assert fair_shoe.burned == plain.burned and fair_shoe.cut_position == plain.cut_position
    assert list(fair_shoe.coups()) == list(plain.coups())
    assert fair_shoe.position == plain.position and fair_shoe.finished


@settings(max_examples=30, deadline=None)
@given(seeds, texts, texts, deck_counts, st.sampled_from(["seed", "client", "shoe", "decks"]))
def test_each_input_changes_the_order(
    seed: bytes, client: str, shoe_id: str, decks: int, which: str
) -> None:
    base = derive_order(seed, client, shoe_id, decks)
    changed = {
        "seed": lambda: derive_order(bytes([seed[0] ^ 1]) + seed[1:], client, shoe_id, decks),
        "client": lambda: derive_order(seed, client + "x", shoe_id, decks),
        "shoe": lambda: derive_order(seed, client, shoe_id + "x", decks),
        "decks": lambda: derive_order(seed, client, shoe_id, decks % 8 + 1),
    }[which]()
    # Two distinct 52-card orders agreeing is a 1 in 52! event: this cannot fail by chance.
    assert changed != base


def test_the_order_depends_on_nothing_but_the_four_inputs() -> None:
    """Same inputs, same order: again in this process, and in fresh processes whose hash
    seeds differ (so no set or dict ordering can leak in)."""
    inputs = (bytes(range(32)).hex(), "client-é", "shoe|7", 8)
    expected = list(derive_order(bytes.fromhex(inputs[0]), *inputs[1:]))
    assert list(derive_order(bytes.fromhex(inputs[0]), *inputs[1:])) == expected
    script = (
        "import json, sys\n"
        "from baccarat.fair import derive_order\n"
        "s, c, i, d = json.loads(sys.argv[1])\n"
        "print(json.dumps(derive_order(bytes.fromhex(s), c, i, d)))\n"
    )
    for hash_seed in ("0", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-c", script, json.dumps(inputs)],
            capture_output=True,
            text=True,
            env=env,
            check=True,
            timeout=60,
        )
        assert json.loads(done.stdout) == expected


def test_commitment_is_sha256_of_the_seed() -> None:
    seed = new_server_seed()
    assert commitment(seed) == hashlib.sha256(seed).hexdigest()
    assert FairShoe(seed, "c", "s", 1).commitment == commitment(seed)


def test_new_server_seeds_are_32_fresh_bytes() -> None:
    drawn = {new_server_seed() for _ in range(100)}
    assert len(drawn) == 100 and {len(seed) for seed in drawn} == {32}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "64 hex digits (32 bytes), not 0 characters"),
        ("ab" * 31, "not 62 characters"),
        ("ab" * 33, "not 66 characters"),
        ("zz" * 32, "hexadecimal"),
        ("0x" + "ab" * 31, "hexadecimal"),
        ("é" * 64, "hexadecimal"),
    ],
)
def test_bad_server_seeds_are_refused_with_a_reason(text: str, message: str) -> None:
    with pytest.raises(FairError, match=re.escape(message)):
        parse_server_seed(text)


def test_server_seed_hex_reads_either_case() -> None:
    assert parse_server_seed("AB" * 32) == parse_server_seed("ab" * 32) == b"\xab" * 32


@pytest.mark.parametrize("seed", [b"", b"x" * 31, b"x" * 33])
def test_a_fair_shoe_needs_a_32_byte_seed(seed: bytes) -> None:
    with pytest.raises(FairError, match="32 bytes"):
        FairShoe(seed, "c", "s", 8)
    with pytest.raises(FairError, match="32 bytes"):
        derive_order(seed, "c", "s", 8)


@pytest.mark.parametrize("decks", [0, 9, -1])
def test_a_fair_shoe_holds_one_to_eight_decks(decks: int) -> None:
    with pytest.raises(ShoeError, match="1 to 8 decks"):
        FairShoe(bytes(32), "c", "s", decks)


def test_the_repr_never_shows_the_secret_seed() -> None:
    seed = bytes(range(32))
    text = repr(FairShoe(seed, "c", "s", 8))
    assert seed.hex() not in text and commitment(seed) in text


@given(st.dictionaries(texts, texts, max_size=6), texts)
def test_table_client_seed_ignores_the_order_players_joined(
    player_seeds: dict[str, str], shoe_id: str
) -> None:
    reversed_seeds = dict(reversed(list(player_seeds.items())))
    assert table_client_seed(shoe_id, player_seeds) == table_client_seed(shoe_id, reversed_seeds)
    joined = "|".join(sorted(f"{p}:{s}" for p, s in player_seeds.items()))
    expected = hashlib.sha256(f"{shoe_id}|{joined}".encode()).hexdigest()
    assert table_client_seed(shoe_id, player_seeds) == expected
