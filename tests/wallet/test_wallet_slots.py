"""``WalletClient`` on a scripted transport: a slow wallet holds only its own operator's slots,
every answer is signed and checked, and no transport trouble escapes as an exception."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest

from baccarat.wallet.client import MAX_ANSWER_BYTES, WalletClient, WalletEndpoint
from baccarat.wallet.contract import (
    Ok,
    Unknown,
    canonical,
    debit_body,
    ok_answer,
    signed_headers,
    verify,
)

SECRET = b"\x01" * 32
NOW = 1_718_000_000_000


def _endpoint(operator: str) -> WalletEndpoint:
    return WalletEndpoint(operator, f"http://{operator}.wallet/api/", SECRET, 30.0)


def _body(tid: str) -> dict[str, object]:
    return dict(
        debit_body(
            transaction_id=tid, player_id="p", round_id=1, table_id="t", amount=5, currency="USD"
        )
    )


def _answer(request: httpx.Request) -> httpx.Response:
    tid = json.loads(request.content).get("transaction_id")
    raw = canonical(ok_answer(95, "USD", tid, None if tid is None else f"w-{tid}"))
    return httpx.Response(200, content=raw, headers=signed_headers(None, SECRET, NOW, raw))


def test_a_slow_operator_holds_only_its_own_slots() -> None:
    async def main() -> None:
        release = asyncio.Event()
        seen: list[httpx.Request] = []

        async def handler(request: httpx.Request) -> httpx.Response:
            seen.append(request)
            if request.url.host == "slow.wallet":
                await release.wait()
            return _answer(request)

        client = WalletClient(
            per_operator=2, clock_ms=lambda: NOW, transport=httpx.MockTransport(handler)
        )
        slow = [
            asyncio.create_task(client.call(_endpoint("slow"), "debit", _body(f"s{n}")))
            for n in range(5)
        ]
        for _ in range(20):
            await asyncio.sleep(0)
        assert client.in_flight("slow") == 2  # two sent, three waiting for a slot
        assert sum(r.url.host == "slow.wallet" for r in seen) == 2
        fast = await client.call(_endpoint("fast"), "debit", _body("f1"))
        assert isinstance(fast, Ok)  # not behind the slow operator's calls
        release.set()
        done = await asyncio.gather(*slow)
        assert [o.wallet_transaction_id for o in done if isinstance(o, Ok)] == [
            f"w-s{n}" for n in range(5)
        ]
        assert client.in_flight("slow") == 0
        await client.aclose()

    asyncio.run(main())


def test_every_request_is_signed_as_the_contract_says() -> None:
    requests: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        requests.append(request)
        return _answer(request)

    async def main() -> None:
        client = WalletClient(clock_ms=lambda: NOW, transport=httpx.MockTransport(handler))
        assert isinstance(await client.call(_endpoint("op"), "debit", _body("t1")), Ok)
        assert isinstance(await client.balance(_endpoint("op"), "p", "USD"), Ok)
        await client.aclose()

    asyncio.run(main())
    debit, balance = requests
    assert (str(debit.url), str(balance.url)) == (
        "http://op.wallet/api/debit",
        "http://op.wallet/api/balance",
    )
    for request in requests:
        assert request.method == "POST"
        assert request.headers["X-Operator-Id"] == "op"
        assert request.headers["X-Timestamp"] == str(NOW)
        assert request.headers["Content-Type"] == "application/json"
        assert canonical(json.loads(request.content)) == request.content
        assert verify([SECRET], NOW, request.content, request.headers["X-Signature"], NOW)


@pytest.mark.parametrize(
    ("trouble", "reason"),
    [
        (httpx.ReadError("reset"), "ReadError: reset"),
        (httpx.RemoteProtocolError("closed"), "RemoteProtocolError: closed"),
        (ConnectionResetError("by peer"), "ConnectionResetError: by peer"),
        (httpx.ReadTimeout("slow"), "ReadTimeout: slow"),
    ],
)
def test_transport_trouble_is_unknown(trouble: Exception, reason: str) -> None:
    def handler(_request: httpx.Request) -> httpx.Response:
        raise trouble

    async def main() -> object:
        client = WalletClient(clock_ms=lambda: NOW, transport=httpx.MockTransport(handler))
        try:
            return await client.call(_endpoint("op"), "credit", _body("t1"))
        finally:
            await client.aclose()

    assert asyncio.run(main()) == Unknown(reason)


def test_a_huge_or_misdirected_answer_is_unknown() -> None:
    def huge(_request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=b" " * (MAX_ANSWER_BYTES + 1))

    def other_id(request: httpx.Request) -> httpx.Response:
        raw = canonical(ok_answer(95, "USD", "someone-else", "w"))
        return httpx.Response(200, content=raw, headers=signed_headers(None, SECRET, NOW, raw))

    async def send(handler: object) -> object:
        client = WalletClient(clock_ms=lambda: NOW, transport=httpx.MockTransport(handler))  # type: ignore[arg-type]
        try:
            return await client.call(_endpoint("op"), "debit", _body("t1"))
        finally:
            await client.aclose()

    assert asyncio.run(send(huge)) == Unknown(f"the answer is longer than {MAX_ANSWER_BYTES} bytes")
    assert asyncio.run(send(other_id)) == Unknown("the answer is for another transaction")


def test_the_secret_is_not_in_the_endpoints_repr() -> None:
    endpoint = WalletEndpoint("op", "http://w", bytes.fromhex("ab" * 32), 1.0, (b"\xcd" * 32,))
    assert "ab" * 4 not in repr(endpoint)
    assert "\\xcd" not in repr(endpoint)
    with pytest.raises(ValueError, match="per_operator"):
        WalletClient(per_operator=0)
