"""``WalletClient``: the game server's calls to operators' seamless wallets (``docs/wallet.md``).

One pooled ``httpx.AsyncClient`` for every operator, and at most ``per_operator`` calls in
flight to any one operator (an ``asyncio.Semaphore`` each), so a slow wallet holds only its own
operator's slots. Every call is signed with the operator's secret, and its answer is read by
``contract.read_answer``: ``Ok``, ``Refused`` (definite) or ``Unknown``. A wallet's trouble (a
timeout, a refused connection, a dropped answer, a 5xx, garbage, a bad signature) is never
raised: it is ``Unknown``, and the caller decides (a debit is rolled back, a credit or rollback
is sent again). The timeout covers the whole call, the wait for a slot included.

>>> endpoint = WalletEndpoint("op", "https://wallet.example/api/", b"s" * 32, 2.0)
>>> endpoint
WalletEndpoint(operator_id='op', url='https://wallet.example/api/', timeout_s=2.0)
>>> call_url(endpoint, "debit")
'https://wallet.example/api/debit'
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import httpx

from baccarat.wallet.contract import (
    MONEY_CALLS,
    Call,
    MoneyCall,
    Outcome,
    Unknown,
    balance_body,
    canonical,
    read_answer,
    signed_headers,
)

__all__ = ["MAX_ANSWER_BYTES", "WalletClient", "WalletEndpoint", "call_url", "wall_ms"]

#: An answer longer than this is not the contract's (and is not read into memory whole).
MAX_ANSWER_BYTES = 64 * 1024


def wall_ms() -> int:
    """The wall clock in milliseconds since the Unix epoch."""
    return time.time_ns() // 1_000_000


@dataclass(frozen=True)
class WalletEndpoint:
    """Where and how to call one operator's wallet. ``previous_secrets``: answers signed with
    these are accepted too (a secret being rotated); calls are signed with ``secret`` only."""

    operator_id: str
    url: str
    secret: bytes = field(repr=False)
    timeout_s: float
    previous_secrets: tuple[bytes, ...] = field(default=(), repr=False)


def call_url(endpoint: WalletEndpoint, call: Call) -> str:
    """``POST {wallet_url}/{call}``, whether or not the URL ends with a slash."""
    return f"{endpoint.url.rstrip('/')}/{call}"


class WalletClient:
    """Signed calls to operators' wallets; one per process, closed with ``aclose``."""

    def __init__(
        self,
        *,
        per_operator: int = 64,
        clock_ms: Callable[[], int] = wall_ms,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        """``transport``: httpx's (a test's ``MockTransport``); the network by default."""
        if per_operator < 1:
            raise ValueError("per_operator is at least 1")
        self._per_operator = per_operator
        self._clock_ms = clock_ms
        self._slots: dict[str, asyncio.Semaphore] = {}
        self._busy: dict[str, int] = {}
        # No total limit on the pool: the per-operator semaphores bound it, and one operator's
        # slow calls must not use up connections that another operator's calls need. The
        # environment's proxies are not read: the wallet URL is the one the operator gave.
        self._http = httpx.AsyncClient(
            transport=transport,
            limits=httpx.Limits(max_connections=None, max_keepalive_connections=32),
            follow_redirects=False,
            trust_env=False,
        )

    def in_flight(self, operator_id: str) -> int:
        """The calls to ``operator_id`` holding a slot now."""
        return self._busy.get(operator_id, 0)

    async def balance(self, endpoint: WalletEndpoint, player_id: str, currency: str) -> Outcome:
        """The player's balance at the wallet (``Ok.balance``)."""
        body = balance_body(player_id=player_id, currency=currency)
        return await self._send(endpoint, "balance", body, endpoint.timeout_s)

    async def call(
        self,
        endpoint: WalletEndpoint,
        call: MoneyCall,
        body: Mapping[str, object],
        *,
        timeout_s: float | None = None,
    ) -> Outcome:
        """Send a debit, credit or rollback; ``timeout_s`` (default: the endpoint's) bounds the
        whole call. An ``Ok`` echoes the body's ``transaction_id``, else it is ``Unknown``."""
        if call not in MONEY_CALLS:
            raise ValueError(f"not a money call: {call!r}")
        timeout = endpoint.timeout_s if timeout_s is None else timeout_s
        return await self._send(endpoint, call, body, timeout)

    async def aclose(self) -> None:
        await self._http.aclose()

    async def _send(
        self, endpoint: WalletEndpoint, call: Call, body: Mapping[str, object], timeout_s: float
    ) -> Outcome:
        raw = canonical(body)  # a body that is not JSON is the caller's bug: it raises
        transaction_id = body.get("transaction_id")
        expected = transaction_id if isinstance(transaction_id, str) else None
        if timeout_s <= 0:
            return Unknown("no time left to call the wallet")
        slots = self._slots.setdefault(endpoint.operator_id, asyncio.Semaphore(self._per_operator))
        try:
            async with asyncio.timeout(timeout_s), slots:
                operator = endpoint.operator_id
                self._busy[operator] = self._busy.get(operator, 0) + 1
                try:
                    status, answer, headers = await self._post(endpoint, call, raw, timeout_s)
                finally:
                    self._busy[operator] -= 1
        except TimeoutError:
            return Unknown(f"no answer within {timeout_s:g} s")
        except _TooLargeError:
            return Unknown(f"the answer is longer than {MAX_ANSWER_BYTES} bytes")
        except (httpx.HTTPError, httpx.InvalidURL, OSError, ValueError) as error:
            # Refused or reset connections, a dropped answer, TLS, a malformed URL or answer.
            return Unknown(f"{type(error).__name__}: {_first_line(error)}")
        secrets = (endpoint.secret, *endpoint.previous_secrets)
        now = self._clock_ms()
        return read_answer(status, answer, headers, secrets, now, transaction_id=expected)

    async def _post(
        self, endpoint: WalletEndpoint, call: Call, raw: bytes, timeout_s: float
    ) -> tuple[int, bytes, httpx.Headers]:
        # Signed when sent, after the wait for a slot: the timestamp is the sending's.
        headers = signed_headers(endpoint.operator_id, endpoint.secret, self._clock_ms(), raw)
        request = self._http.build_request(
            "POST",
            call_url(endpoint, call),
            content=raw,
            headers=headers,
            timeout=httpx.Timeout(timeout_s),
        )
        response = await self._http.send(request, stream=True)
        try:
            chunks: list[bytes] = []
            size = 0
            async for chunk in response.aiter_bytes():
                size += len(chunk)
                if size > MAX_ANSWER_BYTES:
                    raise _TooLargeError
                chunks.append(chunk)
        finally:
            await response.aclose()
        return response.status_code, b"".join(chunks), response.headers


class _TooLargeError(Exception):
    pass


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0][:200] if text else "no detail"
