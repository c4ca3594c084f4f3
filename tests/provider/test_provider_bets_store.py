"""The provider bet path's transactions and the credits that end each debit, on SQLite and
PostgreSQL, with the wallet's answers scripted (no wallet process: ``test_provider_bets_wallet``
has one).

Every debit ends in exactly one credit (its bets' return, 0 for a loss) or one rollback (its
answer unknown), in the transaction that decided it; the player's internal account is 0
between rounds; ``wallet:{op}`` is minus the confirmed debits plus the credits; the ledger
check stays clean.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from provider_bets_support import (
    BANKER_WINS,
    PLAYER_WINS,
    Casino,
    casino_fixture,
    db_url_fixture,
    ok,
    refused,
)
from sqlalchemy.exc import IntegrityError

from baccarat.refusals import Refusal, RefusalCode
from baccarat.store import db_now
from baccarat.store.provider_placement import Prepared
from baccarat.store.wallet_calls import queue_credit, queue_rollback, sweep_pending
from baccarat.table import BetReceipt

__all__ = ["casino_fixture", "db_url_fixture"]


def _receipt(result: object) -> BetReceipt:
    assert isinstance(result, BetReceipt), result
    return result


def _refusal(result: object, code: RefusalCode) -> Refusal:
    assert isinstance(result, Refusal), result
    assert result.code is code, result
    return result


def test_a_won_bet_is_credited_exactly_its_payout(casino: Casino) -> None:
    casino.operator("op-a")
    seat = casino.seat("op-a", "alice")
    round_id = casino.open_round()
    order = casino.order(seat, round_id, {"player": 1_000, "tie": 100})
    receipt = _receipt(casino.bet(order, seat, ok(8_900)))
    assert receipt.accepted == {"player": 1_000, "tie": 100}
    assert receipt.balance == 8_900  # the wallet's balance, not the internal account's
    [debit] = casino.calls(kind="debit")
    assert (debit.state, debit.amount, debit.bet_txn_id is not None) == ("confirmed", 1_100, True)
    assert casino.internal(seat) == 0  # all of it is staked
    assert casino.wallet_account("op-a") == -1_100

    settled = casino.settle(round_id, PLAYER_WINS)
    [credit] = casino.calls(kind="credit")
    assert credit.reference_id == debit.id and credit.state == "queued"
    assert credit.amount == 2_000  # the player side paid 1:1, the tie lost
    assert credit.round_closed is True
    assert casino.internal(seat) == 0
    assert casino.wallet_account("op-a") == -1_100 + 2_000
    # The player's page is told no balance of ours (the internal account's 0, or a guess):
    # the wallet's own answer to the credit follows.
    mine = settled.players[seat.player_id]
    assert mine.balance is None and "balance" not in mine.to_json()
    assert mine.to_json()["net"] == 2_000 - 1_100
    casino.check()


def test_a_lost_bet_is_credited_zero_and_posts_nothing(casino: Casino) -> None:
    casino.operator("op-a")
    seat = casino.seat("op-a", "alice")
    round_id = casino.open_round()
    _receipt(casino.bet(casino.order(seat, round_id, {"player": 500}), seat, ok(500)))
    casino.settle(round_id, BANKER_WINS)
    [credit] = casino.calls(kind="credit")
    assert (credit.amount, credit.state, credit.round_closed) == (0, "queued", True)
    assert casino.wallet_account("op-a") == -500
    assert casino.internal(seat) == 0
    casino.check()


def test_every_debit_of_a_round_gets_its_own_credit(casino: Casino) -> None:
    """Two requests, two debits: each is credited what its own bets returned."""
    casino.operator("op-a")
    seat = casino.seat("op-a", "alice")
    round_id = casino.open_round()
    _receipt(casino.bet(casino.order(seat, round_id, {"player": 1_000}), seat, ok(9_000)))
    _receipt(casino.bet(casino.order(seat, round_id, {"banker": 400}), seat, ok(8_600)))
    debits = casino.calls(kind="debit")
    casino.settle(round_id, BANKER_WINS)
    credits = {call.reference_id: call.amount for call in casino.calls(kind="credit")}
    assert credits == {debits[0].id: 0, debits[1].id: 400 + 380}  # banker pays 0.95
    casino.check()


def test_a_void_credits_every_stake_back(casino: Casino) -> None:
    casino.operator("op-a")
    seat = casino.seat("op-a", "alice")
    round_id = casino.open_round()
    _receipt(casino.bet(casino.order(seat, round_id, {"player": 700}), seat, ok(300)))
    casino.void(round_id)
    [credit] = casino.calls(kind="credit")
    assert (credit.amount, credit.round_closed) == (700, True)
    assert casino.wallet_account("op-a") == 0
    assert casino.internal(seat) == 0
    casino.check()


def test_an_undo_credits_the_stakes_back_with_the_round_still_open(casino: Casino) -> None:
    casino.operator("op-a")
    seat = casino.seat("op-a", "alice")
    round_id = casino.open_round()
    _receipt(casino.bet(casino.order(seat, round_id, {"player": 700}), seat, ok(300)))
    _receipt(casino.bet(casino.order(seat, round_id, {"tie": 100}), seat, ok(200)))
    undone = _receipt(casino.undo(seat, round_id))
    assert undone.returned == 800
    assert undone.balance == 200 + 800  # the wallet's, once the credits land
    credits = casino.calls(kind="credit")
    assert sorted(c.amount for c in credits) == [100, 700]
    assert {c.round_closed for c in credits} == {False}
    assert casino.internal(seat) == 0
    assert casino.wallet_account("op-a") == 0
    casino.settle(round_id)  # nothing left to credit
    assert len(casino.calls(kind="credit")) == 2
    casino.check()


def test_an_undo_of_the_last_bet_credits_only_its_debit(casino: Casino) -> None:
    casino.operator("op-a")
    seat = casino.seat("op-a", "alice")
    round_id = casino.open_round()
    _receipt(casino.bet(casino.order(seat, round_id, {"player": 700}), seat, ok(300)))
    _receipt(casino.bet(casino.order(seat, round_id, {"tie": 100}), seat, ok(200)))
    first, second = casino.calls(kind="debit")
    undone = _receipt(casino.undo(seat, round_id, last=True))
    assert (undone.returned, undone.bets, undone.balance) == (100, {"player": 700}, 300)
    [credit] = casino.calls(kind="credit")
    assert (credit.reference_id, credit.amount, credit.round_closed) == (second.id, 100, False)
    casino.settle(round_id, PLAYER_WINS)
    credits = {c.reference_id: c.amount for c in casino.calls(kind="credit")}
    assert credits == {second.id: 100, first.id: 1_400}
    casino.check()


def test_an_ordinary_player_beside_an_operator_player_is_untouched(casino: Casino) -> None:
    from baccarat.store.placement import place_batch
    from baccarat.store.players import create_player, new_token

    casino.operator("op-a")
    seat = casino.seat("op-a", "alice")
    with casino.database.write() as c:
        guest = create_player(c, new_token(), 5_000, db_now(c), demo=True)
    round_id = casino.open_round()
    _receipt(casino.bet(casino.order(seat, round_id, {"player": 100}), seat, ok(900)))
    order = casino.order(seat, round_id, {"player": 300})
    with casino.database.write() as c:
        [placed] = place_batch(c, [replace(order, player_id=guest, session_hash=None)])
    _receipt(placed)
    casino.settle(round_id, PLAYER_WINS)
    assert [c.amount for c in casino.calls(kind="credit")] == [200]
    assert casino.balance(f"player:{guest}") == 5_000 + 300
    casino.check()


def test_a_refused_debit_places_nothing_and_is_answered_again(casino: Casino) -> None:
    casino.operator("op-a")
    seat = casino.seat("op-a", "alice")
    round_id = casino.open_round()
    order = casino.order(seat, round_id, {"player": 700}, key="k-1")
    refusal = _refusal(
        casino.bet(order, seat, refused("insufficient_funds")), RefusalCode.WALLET_REFUSED
    )
    assert refusal.kind == "insufficient_funds"
    [debit] = casino.calls()
    assert debit.state == "refused"
    again = _refusal(casino.prepare(order, seat), RefusalCode.WALLET_REFUSED)
    assert again.kind == "insufficient_funds"
    assert casino.count() == 1
    assert casino.wallet_account("op-a") == 0
    casino.check()


def test_an_unknown_debit_queues_exactly_one_rollback(casino: Casino) -> None:
    casino.operator("op-a")
    seat = casino.seat("op-a", "alice")
    round_id = casino.open_round()
    order = casino.order(seat, round_id, {"player": 700}, key="k-1")
    _refusal(casino.bet(order, seat, "HTTP 500"), RefusalCode.WALLET_UNAVAILABLE)
    [debit] = casino.calls(kind="debit")
    [rollback] = casino.calls(kind="rollback")
    assert debit.state == "unknown" and debit.last_error == "HTTP 500"
    assert (rollback.reference_id, rollback.amount, rollback.state) == (debit.id, 700, "queued")
    # A retry of the same key sends nothing: the debit is rolled back already.
    _refusal(casino.prepare(order, seat), RefusalCode.WALLET_UNAVAILABLE)
    # The unique reference makes a second end of the debit impossible.
    for end in (queue_rollback, lambda c, d, at: queue_credit(c, d, 0, round_closed=True, at=at)):
        with pytest.raises(IntegrityError), casino.database.write() as c:
            end(c, debit, db_now(c))
    assert casino.count() == 2
    assert casino.wallet_account("op-a") == 0 and casino.internal(seat) == 0
    casino.check()


def test_a_yes_after_the_window_closed_credits_the_whole_debit_back(casino: Casino) -> None:
    casino.operator("op-a")
    seat = casino.seat("op-a", "alice")
    round_id = casino.open_round()
    order = casino.order(seat, round_id, {"player": 700}, key="k-1")
    prepared = casino.prepare(order, seat)
    assert isinstance(prepared, Prepared) and prepared.left_ms > 50_000
    casino.close_round(round_id)
    _refusal(casino.answer(order, prepared.debit, ok(300)), RefusalCode.BETTING_CLOSED)
    [debit] = casino.calls(kind="debit")
    [credit] = casino.calls(kind="credit")
    assert debit.state == "confirmed" and debit.bet_txn_id is None
    assert (credit.amount, credit.round_closed) == (700, True)
    assert casino.wallet_account("op-a") == 0 and casino.internal(seat) == 0
    # The retry of its key gets the same refusal, and debits nothing more.
    _refusal(casino.prepare(order, seat), RefusalCode.BETTING_CLOSED)
    assert casino.count() == 2
    casino.settle(round_id)
    casino.check()


def test_a_retry_gets_the_first_receipt_and_a_retry_in_flight_debits_nothing(
    casino: Casino,
) -> None:
    casino.operator("op-a")
    seat = casino.seat("op-a", "alice")
    round_id = casino.open_round()
    order = casino.order(seat, round_id, {"player": 700}, key="k-1")
    prepared = casino.prepare(order, seat)
    assert isinstance(prepared, Prepared)
    _refusal(casino.prepare(order, seat), RefusalCode.WALLET_UNAVAILABLE)  # still in flight
    first = _receipt(casino.answer(order, prepared.debit, ok(300, prepared.debit.id)))
    again = _receipt(casino.prepare(order, seat))
    assert again.replayed and again.to_json() == first.to_json()
    other = casino.order(seat, round_id, {"player": 800}, key="k-1")
    _refusal(casino.prepare(other, seat), RefusalCode.KEY_REUSED)
    assert len(casino.calls(kind="debit")) == 1


def test_a_refused_placement_takes_no_debit(casino: Casino) -> None:
    casino.operator("op-a")
    seat = casino.seat("op-a", "alice")
    round_id = casino.open_round()
    _refusal(
        casino.prepare(casino.order(seat, round_id, {"player": 10**9}), seat),
        RefusalCode.ABOVE_MAXIMUM,
    )
    _refusal(
        casino.prepare(casino.order(seat, round_id, action="rebet"), seat),
        RefusalCode.NOTHING_TO_REPEAT,
    )
    assert casino.count() == 0 and casino.wallet_account("op-a") == 0


def test_a_stake_in_another_currency_than_the_wallets_takes_no_debit(casino: Casino) -> None:
    casino.operator("op-a")
    seat = casino.seat("op-a", "alice")
    rupiah = replace(seat, operator=seat.operator._replace(currency="IDR"))
    round_id = casino.open_round()
    refusal = _refusal(
        casino.prepare(casino.order(rupiah, round_id, {"player": 1_000}), rupiah),
        RefusalCode.NOT_OFFERED,
    )
    assert "USD" in refusal.message and "IDR" in refusal.message
    assert casino.count() == 0 and casino.wallet_account("op-a") == 0


def test_a_rebet_and_a_double_debit_the_previous_rounds_stakes(casino: Casino) -> None:
    casino.operator("op-a")
    seat = casino.seat("op-a", "alice")
    first = casino.open_round()
    _receipt(casino.bet(casino.order(seat, first, {"player": 300, "tie": 100}), seat, ok(600)))
    casino.settle(first, BANKER_WINS)
    second = casino.open_round()
    rebet = _receipt(casino.bet(casino.order(seat, second, action="rebet"), seat, ok(200)))
    assert rebet.accepted == {"player": 300, "tie": 100} and rebet.balance == 200
    casino.settle(second, BANKER_WINS)
    third = casino.open_round()
    double = casino.prepare(casino.order(seat, third, action="double"), seat)
    assert isinstance(double, Prepared) and double.debit.amount == 800
    assert [d.amount for d in casino.calls(kind="debit")] == [400, 400, 800]


def test_a_pending_debit_left_by_a_crash_is_swept_into_a_rollback(casino: Casino) -> None:
    casino.operator("op-a", timeout_ms=2_000)
    seat = casino.seat("op-a", "alice")
    round_id = casino.open_round()
    order = casino.order(seat, round_id, {"player": 700})
    prepared = casino.prepare(order, seat)
    assert isinstance(prepared, Prepared)
    created = prepared.debit.created_at
    with casino.database.write() as c:  # not yet past the timeout and the grace
        assert sweep_pending(c, created + 2_000 + 999, grace_ms=1_000) == []
    with casino.database.write() as c:
        assert sweep_pending(c, created + 2_000 + 1_000, grace_ms=1_000) == [prepared.debit.id]
    with casino.database.write() as c:
        assert sweep_pending(c, created + 10**9) == []  # swept once
    assert casino.call(prepared.debit.id).state == "unknown"
    [rollback] = casino.calls(kind="rollback")
    assert rollback.reference_id == prepared.debit.id
    # The wallet's yes arriving after the sweep places nothing: the rollback gives it back.
    _refusal(casino.answer(order, prepared.debit, ok(300)), RefusalCode.WALLET_UNAVAILABLE)
    assert casino.call(prepared.debit.id).state == "unknown"
    assert casino.wallet_account("op-a") == 0 and casino.internal(seat) == 0
    casino.check()


def test_the_ledger_check_finds_a_wallet_that_differs_from_its_calls(casino: Casino) -> None:
    from sqlalchemy import update

    from baccarat.store import check_ledger
    from baccarat.store.ledger import WORLD, Transaction, player_account, post
    from baccarat.store.schema import wallet_transactions

    casino.operator("op-a")
    seat = casino.seat("op-a", "alice")
    round_id = casino.open_round()
    _receipt(casino.bet(casino.order(seat, round_id, {"player": 700}), seat, ok(300)))
    casino.settle(round_id, PLAYER_WINS)
    casino.check()
    [credit] = casino.calls(kind="credit")
    with casino.database.write() as c:  # a credit row whose amount the ledger never moved
        c.execute(
            update(wallet_transactions)
            .where(wallet_transactions.c.id == credit.id)
            .values(amount=credit.amount + 1)
        )
        post(c, [Transaction("deposit", [(WORLD, -5), (player_account(seat.player_id), 5)])], 0)
    with casino.database.read() as c:
        problems = check_ledger(c).wallet_mismatches
    assert problems == [
        "wallet:op-a: holds 700, its calls say 701",
        f"player:{seat.player_id}: an operator's player holds 5 of our own",
    ]
