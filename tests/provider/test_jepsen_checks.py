"""The Jepsen checker itself: a small sound history passes, and each way money can go wrong
(lost, doubled, paid wrong, left in flight, acknowledged but not placed) is caught.

The Jepsen tests pass only if ``jepsen_checks.problems`` finds nothing, so a checker that finds
nothing whatever happened would pass them too: here it is shown the books of one player after
three bets (one won and credited, one whose answer was lost and was rolled back, one refused by
the wallet), whole and then broken one way at a time.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from jepsen_checks import GameBooks, problems
from jepsen_support import OPERATOR, Attempt, Seat

from baccarat.store.ledger import player_account
from baccarat.store.wallet_calls import debit_id, wallet_account

PLAYER, EXTERNAL = "p1", "ana"
SEAT = Seat(EXTERNAL, PLAYER, "token", 10_000)
WON, LOST, REFUSED = (debit_id(PLAYER, key) for key in ("k-won", "k-lost", "k-refused"))
#: A natural 9 for Player against 5: the Player bet of 1,000 returns 2,000.
CARDS = "9s 2h Kd 3c"

World = tuple[GameBooks, list[dict[str, Any]], dict[str, int], list[Attempt]]


def _call(call_id: str, kind: str, amount: int, state: str, **more: Any) -> dict[str, Any]:
    row = {"id": call_id, "kind": kind, "amount": amount, "state": state, "player_id": PLAYER}
    row.update(reference_id=None, bet_txn_id=None, round_id=1, last_error=None, answer=None)
    return {**row, **more}


def _record(tid: str, kind: str, amount: int, moved: int, **more: Any) -> dict[str, Any]:
    row = {"transaction_id": tid, "kind": kind, "amount": amount, "moved": moved}
    row.update(status="ok", code=None, player_id=EXTERNAL, reference_id=None, tombstone=False)
    return {**row, "answer": {}, **more}


def _attempt(key: str, status: int, body: dict[str, Any]) -> Attempt:
    return Attempt(EXTERNAL, PLAYER, "place", 1, key, {"player": 1_000}, status, body)


def world() -> World:
    calls = [
        _call(WON, "debit", 1_000, "confirmed", bet_txn_id="t1", answer='{"balance":9000}'),
        _call("c1", "credit", 2_000, "done", reference_id=WON),
        _call(LOST, "debit", 500, "unknown"),
        _call("r1", "rollback", 500, "done", reference_id=LOST),
        _call(REFUSED, "debit", 700, "refused"),
    ]
    game = GameBooks(
        calls={call["id"]: call for call in calls},
        bets={"t1": [("player", 1_000, "settled", 2_000)]},
        rounds={1: ("settled", CARDS)},
        accounts={wallet_account(OPERATOR): 1_000, player_account(PLAYER): 0},
        ledger=[],
    )
    rows = [
        _record(WON, "debit", 1_000, -1_000),
        _record("c1", "credit", 2_000, 2_000, reference_id=WON),
        _record(LOST, "debit", 500, -500),  # taken, its answer dropped
        _record("r1", "rollback", 500, 500, reference_id=LOST),
        _record(REFUSED, "debit", 700, 0, status="refused", code="insufficient_funds"),
    ]
    receipt = {"accepted": {"player": 1_000}, "bets": {"player": 1_000}, "balance": 9_000}
    refusal = {"error": {"code": "wallet_refused"}}
    history = [
        _attempt("k-won", 200, receipt),
        _attempt("k-won", 200, receipt),  # sent again: the same answer
        _attempt("k-lost", 503, {"error": {"code": "wallet_unavailable"}}),
        _attempt("k-refused", 402, refusal),
    ]
    return game, rows, {EXTERNAL: 11_000}, history


def _found(mutate: Callable[[World], None]) -> list[str]:
    broken = copy.deepcopy(world())
    mutate(broken)
    game, rows, finals, history = broken
    return problems(game, rows, [SEAT], finals, history)


def test_a_sound_history_has_no_problem() -> None:
    game, rows, finals, history = world()
    assert problems(game, rows, [SEAT], finals, history) == []


def _credited_twice(w: World) -> None:
    w[1].append(_record("c2", "credit", 2_000, 2_000, reference_id=WON))
    w[2][EXTERNAL] += 2_000


def _refunded_and_credited(w: World) -> None:
    w[1].append(_record("r9", "rollback", 1_000, 1_000, reference_id=WON))


def _credit_short(w: World) -> None:
    w[0].calls["c1"]["amount"] = 1_999


def _balance_off(w: World) -> None:
    w[2][EXTERNAL] -= 1


def _left_pending(w: World) -> None:
    w[0].calls[LOST]["state"] = "pending"


def _rollback_not_sent(w: World) -> None:
    w[0].calls["r1"]["state"] = "queued"
    w[1].pop(3)
    w[2][EXTERNAL] -= 500


def _refund_lost(w: World) -> None:
    w[1].pop(3)
    w[2][EXTERNAL] -= 500


def _debit_after_tombstone(w: World) -> None:
    w[1][3]["tombstone"] = True


def _acknowledged_not_placed(w: World) -> None:
    w[0].calls[WON].update(bet_txn_id=None)


def _unavailable_but_placed(w: World) -> None:
    w[0].calls[LOST]["bet_txn_id"] = "t9"


def _answered_differently(w: World) -> None:
    w[3][1].body = {"accepted": {"player": 1_000}, "bets": {}, "balance": 8_000}


def _receipt_not_the_wallets_balance(w: World) -> None:
    for attempt in w[3][:2]:
        assert attempt.body is not None
        attempt.body["balance"] = 9_100


def _a_call_the_game_never_made(w: World) -> None:
    w[1].append(_record("stray", "credit", 50, 50, reference_id=WON))
    w[2][EXTERNAL] += 50


def _confirmed_but_refused_by_the_wallet(w: World) -> None:
    w[1][0].update(status="refused", code="insufficient_funds", moved=0)
    w[2][EXTERNAL] += 1_000


def _server_error(w: World) -> None:
    w[3].append(_attempt("k-new", 500, {"error": {"code": "internal"}}))


def _wallet_account_off(w: World) -> None:
    w[0].accounts[wallet_account(OPERATOR)] += 1


def _player_holds_money(w: World) -> None:
    w[0].accounts[player_account(PLAYER)] = 5


def _ledger_check_fails(w: World) -> None:
    w[0].ledger.append("ledger check: unbalanced")


@pytest.mark.parametrize(
    ("mutate", "says"),
    [
        (_credited_twice, f"debit {WON} taken, ended 2 times"),
        (_refunded_and_credited, f"debit {WON} taken, ended 2 times"),
        (_credit_short, f"debit {WON} owed 2000"),
        (_balance_off, "the wallet holds 10999"),
        (_left_pending, f"debit {LOST} left pending"),
        (_rollback_not_sent, "rollback r1 left queued"),
        (_refund_lost, f"debit {LOST} taken, ended 0 times"),
        (_debit_after_tombstone, f"debit {LOST} after its tombstone"),
        (_acknowledged_not_placed, "bet k-won answered 200"),
        (_unavailable_but_placed, "client: 503 wallet_unavailable, placed"),
        (_answered_differently, "key k-won answered"),
        (_receipt_not_the_wallets_balance, "client: receipt"),
        (_a_call_the_game_never_made, "stray, which the game never wrote"),
        (_confirmed_but_refused_by_the_wallet, f"debit {WON} confirmed, the wallet has"),
        (_server_error, "answered 500"),
        (_wallet_account_off, f"{wallet_account(OPERATOR)} holds 1001"),
        (_player_holds_money, "own account holds 5"),
        (_ledger_check_fails, "ledger check: unbalanced"),
    ],
)
def test_each_way_of_losing_or_doubling_money_is_caught(
    mutate: Callable[[World], None], says: str
) -> None:
    found = _found(mutate)
    assert any(says in line for line in found), found
