"""The wire contract: signatures round-trip and break on any change; answers are classified."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from baccarat.wallet.contract import (
    DEFINITE_CODES,
    REPLAY_WINDOW_MS,
    Ok,
    Refused,
    Unknown,
    canonical,
    check_body,
    credit_body,
    debit_body,
    error_answer,
    ok_answer,
    read_answer,
    rollback_body,
    sign,
    signed_headers,
    verify,
)

secrets_ = st.binary(min_size=1, max_size=64)
timestamps = st.integers(min_value=0, max_value=10**13)
bodies = st.binary(max_size=200)


@given(secrets_, timestamps, bodies, st.integers(-REPLAY_WINDOW_MS, REPLAY_WINDOW_MS))
def test_a_signature_verifies_within_the_window(
    secret: bytes, timestamp: int, body: bytes, skew: int
) -> None:
    signature = sign(secret, timestamp, body)
    assert len(signature) == 64
    assert signature == signature.lower()
    assert verify([secret], timestamp, body, signature, now_ms=timestamp + skew)


@given(secrets_, timestamps, bodies, st.data())
def test_any_changed_byte_fails(
    secret: bytes, timestamp: int, body: bytes, data: st.DataObject
) -> None:
    signature = sign(secret, timestamp, body)
    changed = data.draw(bodies.filter(lambda other: other != body), label="other body")
    assert not verify([secret], timestamp, changed, signature, now_ms=timestamp)


@given(secrets_, timestamps, bodies, st.integers(min_value=1, max_value=10**6))
def test_a_changed_timestamp_fails(secret: bytes, timestamp: int, body: bytes, shift: int) -> None:
    signature = sign(secret, timestamp, body)
    for other in (timestamp + shift, timestamp - shift):
        assert not verify([secret], other, body, signature, now_ms=other)


@given(secrets_, secrets_, timestamps, bodies)
def test_another_secret_fails(secret: bytes, other: bytes, timestamp: int, body: bytes) -> None:
    signature = sign(secret, timestamp, body)
    assert verify([other, secret], timestamp, body, signature, now_ms=timestamp)
    if other != secret:
        assert not verify([other], timestamp, body, signature, now_ms=timestamp)
    assert not verify([], timestamp, body, signature, now_ms=timestamp)


@given(secrets_, timestamps, bodies, st.data())
def test_a_changed_signature_character_fails(
    secret: bytes, timestamp: int, body: bytes, data: st.DataObject
) -> None:
    signature = sign(secret, timestamp, body)
    at = data.draw(st.integers(0, 63), label="position")
    char = data.draw(st.sampled_from("0123456789abcdefABCDEF").filter(lambda c: c != signature[at]))
    changed = signature[:at] + char + signature[at + 1 :]
    assert not verify([secret], timestamp, body, changed, now_ms=timestamp)


def test_the_window_edges_are_exact() -> None:
    secret, at, body = b"s" * 32, 1_700_000_000_000, b"{}"
    signature = sign(secret, at, body)
    for now, accepted in [
        (at + REPLAY_WINDOW_MS, True),
        (at + REPLAY_WINDOW_MS + 1, False),
        (at - REPLAY_WINDOW_MS, True),
        (at - REPLAY_WINDOW_MS - 1, False),
    ]:
        assert verify([secret], at, body, signature, now_ms=now) is accepted, now
    assert verify([secret], at, body, signature, now_ms=at + 10, window_ms=10)
    assert not verify([secret], at, body, signature, now_ms=at + 11, window_ms=10)


@pytest.mark.parametrize("signature", ["", "zz" * 32, "ab", "é" * 64, "A" * 64])
def test_a_malformed_signature_is_false_not_an_error(signature: str) -> None:
    assert not verify([b"s"], 0, b"", signature, now_ms=0)


@given(
    st.dictionaries(
        st.text(max_size=8),
        st.one_of(st.integers(), st.text(max_size=8), st.booleans(), st.none()),
        max_size=6,
    )
)
def test_canonical_is_stable_json(body: dict[str, object]) -> None:
    raw = canonical(body)
    assert json.loads(raw) == body
    assert canonical(json.loads(raw)) == raw  # a receiver re-encoding it gets the same bytes
    assert (
        raw == json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    )


def _read(
    payload: object,
    *,
    status: int = 200,
    signer: bytes = b"s",
    at: int = 1_000,
    now: int = 1_000,
    transaction_id: str | None = None,
) -> object:
    raw = payload if isinstance(payload, bytes) else canonical(payload)  # type: ignore[arg-type]
    headers = signed_headers(None, signer, at, raw)
    return read_answer(status, raw, headers, [b"s"], now, transaction_id=transaction_id)


def test_ok_and_every_definite_code() -> None:
    ok = _read(ok_answer(700, "USD", "t-1", "w-9"), transaction_id="t-1")
    assert ok == Ok(700, "w-9", canonical(ok_answer(700, "USD", "t-1", "w-9")).decode())
    for code in sorted(DEFINITE_CODES):
        refused = _read(error_answer(code, "why"))
        assert isinstance(refused, Refused)
        assert (refused.code, refused.message) == (code, "why")


@pytest.mark.parametrize(
    ("kind", "payload", "options"),
    [
        ("5xx", ok_answer(1, "USD"), {"status": 500}),
        ("404", ok_answer(1, "USD"), {"status": 404}),
        ("other secret", ok_answer(1, "USD"), {"signer": b"other"}),
        ("stale", ok_answer(1, "USD"), {"now": 1_000 + REPLAY_WINDOW_MS + 1}),
        ("not json", b"<html>busy</html>", {}),
        ("not utf-8", b"\xff\xfe", {}),
        ("a list", [1, 2], {}),
        ("unknown code", error_answer("later", "x"), {}),
        ("no code", {"status": "error"}, {}),
        ("unknown status", {"status": "pending"}, {}),
        ("float balance", {"status": "ok", "balance": 1.5, "currency": "USD"}, {}),
        ("bool balance", {"status": "ok", "balance": True, "currency": "USD"}, {}),
        ("int wallet id", {"status": "ok", "balance": 1, "wallet_transaction_id": 5}, {}),
        ("other transaction", ok_answer(1, "USD", "t-2", "w"), {"transaction_id": "t-1"}),
    ],
)
def test_anything_else_is_unknown(kind: str, payload: object, options: dict[str, object]) -> None:
    assert isinstance(_read(payload, **options), Unknown), kind  # type: ignore[arg-type]


def test_an_unsigned_answer_is_unknown() -> None:
    raw = canonical(ok_answer(1, "USD"))
    assert isinstance(read_answer(200, raw, {}, [b"s"], 0), Unknown)
    headers = {"x-timestamp": "0", "x-signature": sign(b"s", 0, raw)}  # any case of the names
    assert isinstance(read_answer(200, raw, headers, [b"s"], 0), Ok)
    headers["x-timestamp"] = "-0"
    assert isinstance(read_answer(200, raw, headers, [b"s"], 0), Unknown)


def test_the_builders_make_valid_bodies() -> None:
    common = {"player_id": "p-1", "round_id": 12, "table_id": "standard", "currency": "IDR"}
    debit = debit_body(transaction_id="d" * 32, amount=5_000, **common)  # type: ignore[arg-type]
    credit = credit_body(
        transaction_id="c" * 32,
        reference_id="d" * 32,
        amount=0,
        round_closed=True,
        **common,  # type: ignore[arg-type]
    )
    rollback = rollback_body(transaction_id="r" * 32, reference_id="d" * 32, amount=5_000, **common)  # type: ignore[arg-type]
    for call, body in [("debit", debit), ("credit", credit), ("rollback", rollback)]:
        assert check_body(call, body) is None, call
        assert body["round_id"] == "12"


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"amount": 0}, "amount"),
        ({"amount": True}, "amount"),
        ({"amount": 2**53}, "amount"),
        ({"amount": 1.0}, "amount"),
        ({"currency": "usd"}, "currency"),
        ({"player_id": ""}, "player_id"),
        ({"player_id": "x" * 101}, "player_id"),
        ({"round_id": 12}, "round_id"),
        ({"transaction_id": "a\nb"}, "transaction_id"),
        ({"extra": 1}, "unknown field"),
    ],
)
def test_check_body_names_the_problem(change: dict[str, object], problem: str) -> None:
    body: dict[str, object] = {
        **debit_body(
            transaction_id="t", player_id="p", round_id=1, table_id="x", amount=1, currency="USD"
        ),
        **change,
    }
    why = check_body("debit", body)
    assert why is not None
    assert problem in why
    assert check_body("debit", [body]) == "the body is a JSON object"
    assert check_body("refund", body) == "unknown call 'refund'"
