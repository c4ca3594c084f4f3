"""``WalletClient`` against the reference wallet in its own process: every class of outcome."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from reference_support import (
    OPERATOR,
    SECRET,
    ReferenceWallet,
    debit,
    fresh_player,
    one,
    rollback,
    run,
    wait_for,
)
from reference_support import credit as credit
from reference_support import shared_wallet as shared_wallet  # the fixtures this module uses
from reference_support import wallet as wallet

from baccarat.wallet.client import WalletClient, WalletEndpoint
from baccarat.wallet.contract import Ok, Outcome, Refused, Unknown


def test_balance_and_an_ok_debit_replayed(wallet: ReferenceWallet) -> None:
    player = fresh_player(wallet)
    seen = run(lambda client: client.balance(wallet.endpoint(), player, "USD"))
    assert isinstance(seen, Ok)
    assert (seen.balance, seen.wallet_transaction_id) == (10_000, None)
    body = debit(player, 2_500)
    first = one(wallet, "debit", body)
    assert isinstance(first, Ok)
    assert first.balance == 7_500
    assert first.wallet_transaction_id is not None
    again = one(wallet, "debit", body)
    assert again == first  # the same answer, word for word: same balance, same wallet id
    assert wallet.balance(player) == 7_500
    won = one(wallet, "credit", credit(player, body, 5_000))
    assert isinstance(won, Ok)
    assert won.balance == 12_500


def refused(outcome: Outcome) -> str:
    assert isinstance(outcome, Refused), outcome
    return outcome.code


def test_every_definite_code(wallet: ReferenceWallet) -> None:
    player = fresh_player(wallet, 1_000)
    blocked = fresh_player(wallet, 1_000, blocked=True)
    assert refused(one(wallet, "debit", debit(player, 1_001))) == "insufficient_funds"
    assert refused(one(wallet, "debit", debit(blocked, 1))) == "player_blocked"
    assert refused(one(wallet, "debit", debit("nobody", 1))) == "player_not_found"
    assert refused(one(wallet, "debit", debit(player, 1, currency="IDR"))) == "currency_mismatch"
    taken = debit(player, 100)
    assert isinstance(one(wallet, "debit", taken), Ok)
    conflict = {**taken, "amount": 101}
    assert refused(one(wallet, "debit", conflict)) == "transaction_conflict"
    ghost = debit(player, 5)
    assert refused(one(wallet, "credit", credit(player, ghost, 5))) == "reference_not_found"
    assert isinstance(one(wallet, "rollback", rollback(player, ghost)), Ok)  # the tombstone
    assert refused(one(wallet, "debit", ghost)) == "transaction_rolled_back"
    assert isinstance(one(wallet, "credit", credit(player, taken, 0)), Ok)
    assert refused(one(wallet, "rollback", rollback(player, taken))) == "bet_already_closed"
    assert refused(one(wallet, "debit", {**debit(player, 1), "extra": 1})) == "bad_request"
    # A request signed with another secret: the answer is signed with the wallet's (accepted
    # here as a previous secret, so the refusal can be read).
    wrong = WalletEndpoint(OPERATOR, wallet.url, b"x" * 32, 5.0, previous_secrets=(SECRET,))
    outcome = run(lambda client: client.call(wrong, "debit", debit(player, 1)))
    assert refused(outcome) == "invalid_signature"
    other = WalletEndpoint("someone-else", wallet.url, SECRET, 5.0)
    outcome = run(lambda client: client.call(other, "debit", debit(player, 1)))
    assert refused(outcome) == "invalid_signature"
    assert wallet.balance(player) == 900


def test_a_server_error_is_unknown_and_moves_nothing(wallet: ReferenceWallet) -> None:
    player = fresh_player(wallet)
    wallet.faults(error_rate=1.0)
    body = debit(player, 300)
    outcome = one(wallet, "debit", body)
    assert outcome == Unknown("HTTP 500")
    wallet.faults(error_rate=0.0)
    assert wallet.balance(player) == 10_000
    assert body["transaction_id"] not in {row["transaction_id"] for row in wallet.transactions()}


def test_a_dropped_answer_is_unknown_though_the_money_moved(wallet: ReferenceWallet) -> None:
    player = fresh_player(wallet)
    wallet.faults(drop_rate=1.0, calls=["debit"])
    body = debit(player, 300)
    outcome = one(wallet, "debit", body)
    assert isinstance(outcome, Unknown)
    assert "Error" in outcome.reason  # a transport error: the connection ended unanswered
    assert wallet.balance(player) == 9_700
    wallet.faults(drop_rate=0.0)
    replayed = one(wallet, "debit", body)
    assert isinstance(replayed, Ok)
    assert replayed.balance == 9_700
    # What the game server does with an unknown debit: roll it back, which refunds it.
    back = one(wallet, "rollback", rollback(player, body))
    assert isinstance(back, Ok)
    assert back.balance == 10_000


def test_a_timeout_is_unknown_and_the_rollback_wins_the_race(wallet: ReferenceWallet) -> None:
    """The debit hangs past the client's timeout; the rollback arrives first and leaves a
    tombstone; the debit, served late, is refused: the player's money never moves."""
    player = fresh_player(wallet)
    wallet.faults(timeout_rate=1.0, hang_ms=1_500, calls=["debit"])
    body = debit(player, 300)
    outcome = one(wallet, "debit", body, timeout_s=0.3)
    assert outcome == Unknown("no answer within 0.3 s")
    back = one(wallet, "rollback", rollback(player, body))
    assert isinstance(back, Ok)
    assert back.balance == 10_000

    def late_debit_refused() -> dict[str, Any] | None:
        rows = {row["transaction_id"]: row for row in wallet.transactions()}
        return rows.get(body["transaction_id"])

    row = wait_for(late_debit_refused, 10.0, "the hung debit to be served")
    assert (row["status"], row["code"]) == ("refused", "transaction_rolled_back")
    assert wallet.balance(player) == 10_000


def test_an_answer_with_a_bad_signature_is_unknown(wallet: ReferenceWallet) -> None:
    """The wallet takes a new secret (accepting the old one for calls) and signs its answer
    with it: a client that knows only the old one cannot trust the answer."""
    player = fresh_player(wallet)
    new = bytes.fromhex("a1" * 32)
    wallet.admin("PUT", "/admin/secret", {"secret": new.hex()})
    try:
        body = debit(player, 300)
        outcome = one(wallet, "debit", body)
        assert outcome == Unknown("the answer's signature is missing, wrong or stale")
        assert wallet.balance(player) == 9_700  # it did move: hence a rollback, not a refusal
        rotated = WalletEndpoint(OPERATOR, wallet.url, new, 5.0, previous_secrets=(SECRET,))
        assert isinstance(run(lambda client: client.call(rotated, "debit", body)), Ok)
    finally:
        wallet.admin("PUT", "/admin/secret", {"secret": SECRET.hex()})


def test_a_wallet_that_is_not_there_is_unknown() -> None:
    from serving import free_port

    endpoint = WalletEndpoint(OPERATOR, f"http://127.0.0.1:{free_port()}", SECRET, 2.0)
    outcome = run(lambda client: client.call(endpoint, "debit", debit("p", 1)))
    assert isinstance(outcome, Unknown)
    assert outcome.reason.startswith("ConnectError")
    bad_url = WalletEndpoint(OPERATOR, "not a url", SECRET, 2.0)
    assert isinstance(run(lambda client: client.balance(bad_url, "p", "USD")), Unknown)
    assert run(lambda client: client.call(endpoint, "credit", debit("p", 1), timeout_s=0)) == (
        Unknown("no time left to call the wallet")
    )


def test_two_identical_debits_at_once_move_once(wallet: ReferenceWallet) -> None:
    player = fresh_player(wallet)
    body = debit(player, 1_000)

    async def both(client: WalletClient) -> list[Outcome]:
        calls = [client.call(wallet.endpoint(), "debit", body) for _ in range(8)]
        return list(await asyncio.gather(*calls))

    outcomes = run(both)
    assert all(isinstance(outcome, Ok) for outcome in outcomes)
    assert len(set(outcomes)) == 1
    assert wallet.balance(player) == 9_000
    rows = [row for row in wallet.transactions() if row["transaction_id"] == body["transaction_id"]]
    assert len(rows) == 1


def test_a_bad_call_name_is_the_callers_bug(wallet: ReferenceWallet) -> None:
    with pytest.raises(ValueError, match="not a money call"):
        one(wallet, "balance", debit("p", 1))  # type: ignore[arg-type]
