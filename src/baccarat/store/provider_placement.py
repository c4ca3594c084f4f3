"""The transactions of an operator's player's stake (provider mode): before and after the
wallet's debit. ``server.provider_bets`` runs them on either side of the call.

``prepare`` checks the session and the Idempotency-Key (a retry gets its first answer), then
dry-runs the placement in a savepoint rolled back, with the stake lent by ``wallet:{op}``:
every check is ``store.placement``'s own, and a rebet or double learns its stakes (the
previous round's). What it would accept is the debit, written ``pending``, its id derived
from the player and the key (``wallet_calls.debit_id``) so that a retry can never take the
stake twice. ``record_answer`` records the wallet's answer with all it causes
(``wallet_calls``): a yes confirms the debit, posts it and places the bets with the same
checks (the receipt's balance is the wallet's; if the window closed meanwhile, a credit of the
whole amount is queued instead), a definite no is ``wallet_refused``, no definite answer is
``wallet_unavailable`` with the debit's rollback queued.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import partial

from sqlalchemy import Connection, select

from baccarat.refusals import Refusal, RefusalCode
from baccarat.store.bet_reads import previous_bets
from baccarat.store.clock import db_now
from baccarat.store.idempotency import KEY_REUSED, recall, remember
from baccarat.store.ledger import Transaction, ensure_accounts, new_id, player_account, post
from baccarat.store.money import MONEY_LIMIT
from baccarat.store.operators import OperatorPlayer
from baccarat.store.placement import place_batch
from baccarat.store.rounds import get_round
from baccarat.store.schema import bets
from baccarat.store.sessions import confirm_sessions
from baccarat.store.shoe_rules import ShoeRules
from baccarat.store.wallet_calls import (
    WALLET_KIND,
    WalletCall,
    confirm_debit,
    debit_id,
    find_call,
    lose_debit,
    note_error,
    open_debit,
    refuse_debit,
    wallet_account,
)
from baccarat.table import BetOrder, BetReceipt, doubled
from baccarat.wallet.contract import Ok, Refused

__all__ = ["NO_ANSWER", "Gate", "Prepared", "prepare", "record_answer"]

_SESSION_ENDED = Refusal(RefusalCode.UNAUTHORIZED, "unknown or expired token")
_IN_FLIGHT = Refusal(
    RefusalCode.WALLET_UNAVAILABLE,
    "the first attempt of this request is still waiting for your casino's wallet: try again",
)
NO_ANSWER = Refusal(
    RefusalCode.WALLET_UNAVAILABLE,
    "your casino's wallet did not answer in time: nothing was placed, and anything it took "
    "is given back",
)


@dataclass(frozen=True, slots=True)
class Gate:
    """What the transactions check an order against: the session (its clock, idle timeout and
    touch interval) and the responsible-gaming policy's now (``None``: the database's)."""

    now_ms: int
    idle_ms: int
    touch_ms: int
    policy_now_ms: int | None = None


@dataclass(frozen=True, slots=True)
class Prepared:
    """A debit written ``pending``, and how long its round is still open for bets."""

    debit: WalletCall
    left_ms: int


def _live(connection: Connection, order: BetOrder, gate: Gate) -> bool:
    if order.session_hash is None:
        return True
    hashes = {order.session_hash}
    return bool(confirm_sessions(connection, hashes, gate.now_ms, gate.idle_ms, gate.touch_ms))


def _wallet_refusal(answer: str | None, fallback: str) -> Refusal:
    """The refusal a wallet's stored definite no gives the player."""
    try:
        data = json.loads(answer or "")
    except ValueError:
        data = None
    code = data.get("code") if isinstance(data, dict) else None
    message = data.get("message") if isinstance(data, dict) else None
    text = f"your casino's wallet refused the bet: {message or fallback}"
    return Refusal(RefusalCode.WALLET_REFUSED, text, kind=code if isinstance(code, str) else None)


def _answer_again(debit: WalletCall, order: BetOrder) -> Refusal:
    """The answer to a retry whose debit exists but left no receipt under its key."""
    if debit.round_id != order.round_id or debit.table_id != order.table_id:
        return KEY_REUSED
    if debit.state == "pending":
        return _IN_FLIGHT
    if debit.state == "refused":
        return _wallet_refusal(debit.answer, "no reason given")
    if debit.state == "confirmed" and debit.last_error:
        kept = json.loads(debit.last_error)
        return Refusal(RefusalCode(kept["code"]), kept["message"])
    return NO_ANSWER


def _asked(connection: Connection, order: BetOrder) -> int:
    """The stakes the order asks for in all (a rebet's or double's are the previous round's)."""
    if order.action == "place" or order.round_id is None:
        return sum(order.bets.values())
    previous = previous_bets(connection, order.table_id, order.player_id, order.round_id)
    return sum((previous if order.action == "rebet" else doubled(previous)).values())


def prepare(
    connection: Connection,
    order: BetOrder,
    operator: OperatorPlayer,
    gate: Gate,
    rules: ShoeRules,
) -> Prepared | BetReceipt | Refusal:
    """Step 1 in the caller's transaction: the first answer of a retry, a refusal of the
    placement's, or the debit written ``pending``."""
    if not _live(connection, order, gate):
        return _SESSION_ENDED
    if order.key is not None:
        prior = recall(connection, order.player_id, order.key, order.request_hash)
        if isinstance(prior, Refusal):
            return prior
        if prior is not None:
            return BetReceipt.from_json(prior)
    call_id = new_id() if order.key is None else debit_id(order.player_id, order.key)
    existing = find_call(connection, call_id)
    if existing is not None:
        return _answer_again(existing, order)
    at = db_now(connection)
    wallet = wallet_account(operator.operator_id)
    ensure_accounts(connection, {wallet: WALLET_KIND}, at)
    savepoint = connection.begin_nested()
    try:
        asked = _asked(connection, order)
        if 0 < asked <= MONEY_LIMIT:
            entries = [(wallet, -asked), (player_account(order.player_id), asked)]
            post(connection, [Transaction("wallet_debit", entries, order.round_id)], at)
        [result] = place_batch(
            connection, [replace(order, key=None)], rules=rules, policy_now_ms=gate.policy_now_ms
        )
    finally:
        savepoint.rollback()
    if isinstance(result, Refusal):
        return result
    assert order.round_id is not None  # a round the placement accepted
    row = get_round(connection, order.round_id)
    assert row is not None
    # The wallet counts in the operator's currency: a stake in another one is not its money.
    played = rules.of(connection, {row.shoe_id})[row.shoe_id].currency
    if played != operator.currency:
        return Refusal(
            RefusalCode.NOT_OFFERED,
            f"this table plays in {played}; your casino's wallet holds {operator.currency}",
        )
    debit = open_debit(
        connection,
        call_id=call_id,
        operator_id=operator.operator_id,
        player_id=order.player_id,
        round_id=order.round_id,
        table_id=order.table_id,
        amount=sum(result.accepted.values()),
        currency=operator.currency,
        at=at,
    )
    return Prepared(debit, row.closes_at - at)


def _place(
    connection: Connection, order: BetOrder, debit: WalletCall, ok: Ok, gate: Gate, rules: ShoeRules
) -> tuple[str | None, BetReceipt | Refusal]:
    """The placement paid for by a confirmed debit: its bets' ledger transaction and receipt
    (the wallet's balance), or ``None`` and why nothing was placed."""
    if not _live(connection, order, gate):
        return None, _SESSION_ENDED
    [result] = place_batch(
        connection, [replace(order, key=None)], rules=rules, policy_now_ms=gate.policy_now_ms
    )
    if isinstance(result, Refusal):
        return None, result
    if sum(result.accepted.values()) != debit.amount:  # the previous round's bets changed
        return None, Refusal(RefusalCode.BETTING_CLOSED, "the bets changed while the wallet paid")
    txn_id = connection.scalar(
        select(bets.c.txn_id)
        .where(bets.c.round_id == debit.round_id, bets.c.player_id == debit.player_id)
        .order_by(bets.c.id.desc())
        .limit(1)
    )
    receipt = replace(result, balance=ok.balance)
    if order.key is not None:
        at = db_now(connection)
        answer = receipt.to_json()
        remember(connection, order.player_id, order.key, order.request_hash, answer, at)
    return txn_id, receipt


def record_answer(
    connection: Connection,
    order: BetOrder,
    debit: WalletCall,
    outcome: Ok | Refused | str,
    gate: Gate,
    rules: ShoeRules,
) -> BetReceipt | Refusal:
    """Step 3 in the caller's transaction: the wallet's yes (``Ok``), definite no
    (``Refused``) or no answer (why, as text)."""
    at = db_now(connection)
    if isinstance(outcome, Refused):
        refuse_debit(connection, debit.id, outcome.answer, at)
        return _wallet_refusal(outcome.answer, outcome.code)
    if isinstance(outcome, str):
        lose_debit(connection, debit, outcome, at)
        return NO_ANSWER
    place = partial(_place, order=order, debit=debit, ok=outcome, gate=gate, rules=rules)
    result = confirm_debit(connection, debit, outcome.answer, at, place)
    if result is None:  # swept as lost meanwhile: its rollback gives the money back
        return NO_ANSWER
    if isinstance(result, Refusal):  # kept for a retry of the same key
        note_error(
            connection, debit.id, json.dumps({"code": result.code, "message": result.message})
        )
    return result
