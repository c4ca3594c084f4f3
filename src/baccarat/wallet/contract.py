"""The seamless-wallet wire contract: signatures, bodies and the three outcomes (``docs/wallet.md``).

Pure: no clock, no network. Both sides use it: the game server signs its calls and reads the
wallet's answers; the reference wallet (``baccarat.wallet.reference``) checks the calls and
signs its answers. A signature is the lowercase hex HMAC-SHA256 of ``f"{timestamp}."`` followed
by the body's bytes, under the operator's shared secret:

>>> body = canonical({"player_id": "p-1", "currency": "USD"})
>>> body
b'{"currency":"USD","player_id":"p-1"}'
>>> signature = sign(b"k" * 32, 1_700_000_000_000, body)
>>> verify([b"k" * 32], 1_700_000_000_000, body, signature, now_ms=1_700_000_300_000)
True
>>> verify([b"k" * 32], 1_700_000_000_000, body, signature, now_ms=1_700_000_300_001)
False

An answer is ``Ok``, ``Refused`` (a definite no: nothing moved) or ``Unknown`` (the wallet may or
may not have moved the money: a debit's rollback follows, a credit or rollback is sent again).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from baccarat.wallet.bodies import (
    MAX_AMOUNT,
    BalanceBody,
    CreditBody,
    DebitBody,
    RollbackBody,
    balance_body,
    check_body,
    credit_body,
    debit_body,
    rollback_body,
)

__all__ = [
    "CALLS",
    "DEFINITE_CODES",
    "HEADER_OPERATOR",
    "HEADER_SIGNATURE",
    "HEADER_TIMESTAMP",
    "MAX_AMOUNT",
    "MONEY_CALLS",
    "REPLAY_WINDOW_MS",
    "BalanceBody",
    "Call",
    "CreditBody",
    "DebitBody",
    "MoneyCall",
    "Ok",
    "Outcome",
    "Refused",
    "RollbackBody",
    "Unknown",
    "balance_body",
    "canonical",
    "check_body",
    "credit_body",
    "debit_body",
    "error_answer",
    "header",
    "ok_answer",
    "parse_timestamp",
    "read_answer",
    "rollback_body",
    "sign",
    "signed_headers",
    "verify",
]

Call = Literal["balance", "debit", "credit", "rollback"]
MoneyCall = Literal["debit", "credit", "rollback"]
CALLS: tuple[Call, ...] = ("balance", "debit", "credit", "rollback")
MONEY_CALLS: tuple[MoneyCall, ...] = ("debit", "credit", "rollback")

HEADER_OPERATOR = "X-Operator-Id"
HEADER_TIMESTAMP = "X-Timestamp"
HEADER_SIGNATURE = "X-Signature"
#: A timestamp further than this from the receiver's clock is refused (either direction).
REPLAY_WINDOW_MS = 300_000

#: The wallet's definite refusals: nothing moved, and sending the same call again changes
#: nothing. Any other answer (a timeout, a 5xx, garbage, an unknown code) is ``Unknown``.
DEFINITE_CODES = frozenset(
    {
        "insufficient_funds",
        "player_blocked",
        "player_not_found",
        "currency_mismatch",
        "transaction_conflict",
        "reference_not_found",
        "transaction_rolled_back",
        "bet_already_closed",
        "invalid_signature",
        "bad_request",
    }
)

_SIGNATURE = re.compile(r"[0-9a-f]{64}")
_TIMESTAMP = re.compile(r"[0-9]{1,15}")


@dataclass(frozen=True)
class Ok:
    """The wallet did it: its balance after the call, its own id of the movement, its answer."""

    balance: int
    wallet_transaction_id: str | None
    answer: str


@dataclass(frozen=True)
class Refused:
    """A definite no (one of ``DEFINITE_CODES``): nothing moved."""

    code: str
    message: str
    answer: str


@dataclass(frozen=True)
class Unknown:
    """No definite answer: the wallet may or may not have moved the money."""

    reason: str


Outcome = Ok | Refused | Unknown


def canonical(body: Mapping[str, object]) -> bytes:
    """The one byte form of a body: sorted keys, no spaces, UTF-8.

    >>> canonical({"b": 1, "a": "é"})
    b'{"a":"\\xc3\\xa9","b":1}'
    """
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def sign(secret: bytes, timestamp_ms: int, body: bytes) -> str:
    """Lowercase hex HMAC-SHA256 of ``f"{timestamp_ms}."`` and ``body`` under ``secret``.

    >>> sign(b"secret", 0, b"") == hmac.new(b"secret", b"0.", hashlib.sha256).hexdigest()
    True
    """
    message = f"{timestamp_ms}.".encode() + body
    return hmac.new(secret, message, hashlib.sha256).hexdigest()


def verify(
    secrets: Sequence[bytes],
    timestamp_ms: int,
    body: bytes,
    signature: str,
    now_ms: int,
    window_ms: int = REPLAY_WINDOW_MS,
) -> bool:
    """Whether ``signature`` signs ``body`` at ``timestamp_ms`` under any of ``secrets``, and
    ``timestamp_ms`` is within ``window_ms`` of ``now_ms`` (the edge included).

    >>> verify([b"old", b"new"], 5, b"x", sign(b"new", 5, b"x"), now_ms=5)
    True
    >>> verify([b"old"], 5, b"x", "not-hex", now_ms=5)
    False
    """
    if abs(now_ms - timestamp_ms) > window_ms or not _SIGNATURE.fullmatch(signature):
        return False
    # Every secret is tried, so the time taken does not tell which one matched.
    matched = [hmac.compare_digest(sign(s, timestamp_ms, body), signature) for s in secrets]
    return any(matched)


def parse_timestamp(text: str | None) -> int | None:
    """An ``X-Timestamp`` header's milliseconds, or None unless it is plain decimal digits.

    >>> parse_timestamp("1700000000000"), parse_timestamp("-5"), parse_timestamp(" 1"), parse_timestamp(None)
    (1700000000000, None, None, None)
    """
    if text is None or not _TIMESTAMP.fullmatch(text):
        return None
    return int(text)


def header(headers: Mapping[str, str], name: str) -> str | None:
    """A header's value whatever the case of its name (HTTP names are case-insensitive).

    >>> header({"x-signature": "ab"}, "X-Signature"), header({}, "X-Signature")
    ('ab', None)
    """
    value = headers.get(name)
    if value is not None:
        return value
    wanted = name.lower()
    return next((v for k, v in headers.items() if k.lower() == wanted), None)


def signed_headers(
    operator_id: str | None, secret: bytes, timestamp_ms: int, body: bytes
) -> dict[str, str]:
    """The headers of a signed request (``operator_id`` given) or answer (None).

    >>> signed_headers("op", b"s", 7, b"{}")["X-Timestamp"]
    '7'
    """
    headers = {
        "Content-Type": "application/json",
        HEADER_TIMESTAMP: str(timestamp_ms),
        HEADER_SIGNATURE: sign(secret, timestamp_ms, body),
    }
    if operator_id is not None:
        headers[HEADER_OPERATOR] = operator_id
    return headers


def ok_answer(
    balance: int,
    currency: str,
    transaction_id: str | None = None,
    wallet_transaction_id: str | None = None,
) -> dict[str, object]:
    """The body of a successful answer (``balance``'s has no transaction ids).

    >>> ok_answer(10, "USD")
    {'status': 'ok', 'balance': 10, 'currency': 'USD'}
    """
    answer: dict[str, object] = {"status": "ok", "balance": balance, "currency": currency}
    if transaction_id is not None:
        answer["transaction_id"] = transaction_id
        answer["wallet_transaction_id"] = wallet_transaction_id
    return answer


def error_answer(code: str, message: str) -> dict[str, object]:
    """The body of a definite refusal.

    >>> error_answer("insufficient_funds", "balance 5, debit 10")["code"]
    'insufficient_funds'
    """
    return {"status": "error", "code": code, "message": message}


def read_answer(
    status: int,
    body: bytes,
    headers: Mapping[str, str],
    secrets: Sequence[bytes],
    now_ms: int,
    *,
    transaction_id: str | None = None,
    window_ms: int = REPLAY_WINDOW_MS,
) -> Outcome:
    """Classify a wallet's answer. Only a signed HTTP 200 JSON answer of the contract's shape is
    ``Ok`` or ``Refused``; everything else is ``Unknown``. ``transaction_id``: the call's, which
    an ``Ok`` must echo.

    >>> def answer(payload: dict[str, object]) -> Outcome:
    ...     raw = canonical(payload)
    ...     return read_answer(200, raw, signed_headers(None, b"s", 9, raw), [b"s"], 9)
    >>> answer(ok_answer(500, "USD"))
    Ok(balance=500, wallet_transaction_id=None, answer='{"balance":500,"currency":"USD","status":"ok"}')
    >>> answer(error_answer("insufficient_funds", "no")).code
    'insufficient_funds'
    >>> answer(error_answer("try_later", "busy"))
    Unknown(reason="unknown error code 'try_later'")
    >>> read_answer(503, b"", {}, [b"s"], 9)
    Unknown(reason='HTTP 503')
    """
    if status != 200:
        return Unknown(f"HTTP {status}")
    timestamp = parse_timestamp(header(headers, HEADER_TIMESTAMP))
    signature = header(headers, HEADER_SIGNATURE) or ""
    if timestamp is None or not verify(secrets, timestamp, body, signature, now_ms, window_ms):
        return Unknown("the answer's signature is missing, wrong or stale")
    try:
        text = body.decode()
        data = json.loads(text)
    except ValueError:  # UnicodeDecodeError and JSONDecodeError both are
        return Unknown("the answer is not JSON")
    if not isinstance(data, dict):
        return Unknown("the answer is not a JSON object")
    if data.get("status") == "error":
        code, message = data.get("code"), data.get("message", "")
        if not isinstance(code, str) or code not in DEFINITE_CODES:
            return Unknown(f"unknown error code {code!r}")
        return Refused(code, message if isinstance(message, str) else str(message), text)
    if data.get("status") != "ok":
        return Unknown(f"unknown status {data.get('status')!r}")
    balance = data.get("balance")
    if not isinstance(balance, int) or isinstance(balance, bool):
        return Unknown("the answer's balance is not an integer")
    wallet_id = data.get("wallet_transaction_id")
    if wallet_id is not None and not isinstance(wallet_id, str):
        return Unknown("the answer's wallet_transaction_id is not a string")
    if transaction_id is not None and data.get("transaction_id") != transaction_id:
        return Unknown("the answer is for another transaction")
    return Ok(balance, wallet_id, text)
