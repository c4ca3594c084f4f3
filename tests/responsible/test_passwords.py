"""argon2id hashes (verify, salt, parameters, rehash, Unicode) and the password policy."""

from __future__ import annotations

import pytest
from argon2 import PasswordHasher, Type
from hypothesis import given, settings
from hypothesis import strategies as st

from baccarat.passwords import (
    HASHER,
    PasswordError,
    check_password,
    dummy_verify,
    hash_password,
    needs_rehash,
    password_problems,
    verify_password,
)

GOOD = "correct horse battery staple"
# A deliberately cheap hasher so that the Hypothesis property runs fast; the real parameters
# are checked on their own below.
CHEAP = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1, type=Type.ID)


def test_a_hash_verifies_its_password_and_nothing_else() -> None:
    stored = hash_password(GOOD)
    assert verify_password(stored, GOOD)
    for other in ("", GOOD + " ", GOOD.upper(), "correct horse battery stapl"):
        assert not verify_password(stored, other)


def test_each_hash_has_its_own_salt() -> None:
    first, second = hash_password(GOOD), hash_password(GOOD)
    assert first != second
    assert first.split("$")[4] != second.split("$")[4]  # the salt field differs
    assert verify_password(first, GOOD) and verify_password(second, GOOD)


def test_the_hash_is_argon2id_with_the_stated_parameters() -> None:
    kind, version, params, salt, digest = hash_password(GOOD).split("$")[1:]
    assert (kind, version, params) == ("argon2id", "v=19", "m=19456,t=2,p=1")
    # 16 salt bytes and 32 hash bytes, base64 without padding.
    assert (len(salt), len(digest)) == (22, 43)


def test_a_hash_made_with_other_parameters_needs_a_rehash() -> None:
    weak = hash_password(GOOD, hasher=CHEAP)
    assert verify_password(weak, GOOD)  # the parameters travel in the hash
    assert needs_rehash(weak)
    assert not needs_rehash(hash_password(GOOD))


def test_the_same_password_typed_two_ways_is_the_same_password() -> None:
    composed, decomposed = "Café au lait 1", "Cafe\u0301 au lait 1"
    assert composed != decomposed
    stored = hash_password(composed, hasher=CHEAP)
    assert verify_password(stored, decomposed, hasher=CHEAP)
    # Compatibility forms too: a full-width digit is the digit.
    assert verify_password(
        hash_password("pin ２０２４ code", hasher=CHEAP), "pin 2024 code", hasher=CHEAP
    )


def test_a_malformed_stored_hash_is_an_error_not_a_mismatch() -> None:
    for bad in ("", "plain text", "$2b$12$abcdefghijklmnopqrstuv"):
        with pytest.raises(PasswordError, match="not an argon2 hash"):
            verify_password(bad, GOOD)
        with pytest.raises(PasswordError, match="not an argon2 hash"):
            needs_rehash(bad)


def test_dummy_verify_always_fails() -> None:
    assert dummy_verify("a password nobody has") is False
    assert dummy_verify(GOOD, hasher=CHEAP) is False


@settings(max_examples=25, deadline=None)
@given(st.text(max_size=40), st.text(min_size=1, max_size=5))
def test_any_text_verifies_only_itself(password: str, suffix: str) -> None:
    stored = hash_password(password, hasher=CHEAP)
    assert verify_password(stored, password, hasher=CHEAP)
    assert not verify_password(stored, password + suffix + "!", hasher=CHEAP)


# --- the policy --------------------------------------------------------------------------------

# (password, username, the rules it breaks), each worked out by hand.
POLICY_CASES = [
    ("correct horse battery staple", None, set()),
    ("Tr0ub4dor&3x", None, set()),
    ("ZXCVBNMASDFG1", None, set()),
    ("short1", None, {"length"}),
    ("abcdefghijkl", None, {"classes"}),
    ("1234567890123", None, {"classes"}),
    ("ABCDEFGHIJKLMNOP", None, {"classes"}),
    ("aaaaaaaaaa", None, {"classes", "distinct"}),
    ("abababab12", None, {"distinct"}),
    ("Password123!", None, {"common"}),
    ("123baccarat!!", None, {"common"}),
    ("QWERTY2024", None, {"common"}),
    ("dragon slayer 9", None, set()),
    ("my name is alice 77", "Alice", {"username"}),
    ("my name is al 77", "al", set()),  # a username shorter than 3 is not looked for
    ("Abcdefghij" * 26, None, {"max"}),
]
MARKERS = {
    "length": "at least 10 characters",
    "max": "at most 256 characters",
    "classes": "at least two of",
    "distinct": "different characters",
    "common": "common word",
    "username": "contain the username",
}


@pytest.mark.parametrize(("password", "username", "broken"), POLICY_CASES)
def test_the_policy(password: str, username: str | None, broken: set[str]) -> None:
    problems = password_problems(password, username=username)
    found = {rule for rule, marker in MARKERS.items() if any(marker in p for p in problems)}
    assert found == broken
    assert len(problems) == len(broken)
    if broken:
        with pytest.raises(PasswordError) as refused:
            check_password(password, username=username)
        assert str(refused.value) == "; ".join(problems)
    else:
        check_password(password, username=username)


def test_length_is_counted_after_normalisation() -> None:
    # Nine characters once composed, though ten code points as typed.
    assert any("at least 10" in p for p in password_problems("Cafe\u0301Bar12"))
    assert password_problems("Cafe\u0301Bar123") == []


def test_the_real_hasher_is_the_default() -> None:
    assert HASHER.time_cost == 2
    assert HASHER.memory_cost == 19_456
    assert HASHER.parallelism == 1
    assert HASHER.type is Type.ID
