"""Placing bets in the ledger: a batch of requests in one transaction, and undo of all of them.

Accepting a bet moves its stake from the player to the table's stake account in the same
transaction that records the bet. Many requests are accepted in one database transaction
(group commit): one durable commit acknowledges them all. Each request is still all or
nothing: it is checked whole, against the state left by the requests before it in the
batch, before anything of it is written. A refused request writes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from sqlalchemy import Connection, select, tuple_

from baccarat.rulesets import RuleSet
from baccarat.store.bet_reads import open_stakes, previous_bets
from baccarat.store.clock import db_now
from baccarat.store.ledger import Transaction, balances, player_account, post, stake_account
from baccarat.store.responsible import BetGate
from baccarat.store.rounds import RoundRow, lock_rounds
from baccarat.store.schema import bets, idempotency_keys
from baccarat.store.settlement import return_stakes
from baccarat.table import BetError, Refusal, add_bets, check_bets, doubled

__all__ = [
    "CLOSED",
    "KEY_REUSED",
    "MAX_ROW_ID",
    "Action",
    "BetOrder",
    "BetReceipt",
    "BetRefusal",
    "place_batch",
]

Action = Literal["place", "rebet", "double", "undo"]


@dataclass(frozen=True, slots=True)
class BetOrder:
    """One request of one player on one round."""

    player_id: str
    table_id: str
    round_id: int
    action: Action
    bets: Mapping[str, int] = field(default_factory=dict)
    #: The Idempotency-Key and a hash of the request it came with.
    key: str | None = None
    request_hash: str = ""
    #: The hash of the bearer token's session, checked live in the batch's transaction.
    session_hash: str | None = None


@dataclass(frozen=True, slots=True)
class BetReceipt:
    """An accepted request: what it added (or, for undo, returned) and where the player stands."""

    round_id: int
    action: Action
    accepted: dict[str, int]
    bets: dict[str, int]
    balance: int
    returned: int = 0
    replayed: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "round_id": self.round_id,
            "action": self.action,
            "accepted": self.accepted,
            "bets": self.bets,
            "balance": self.balance,
            "returned": self.returned,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> BetReceipt:
        return cls(
            round_id=data["round_id"],
            action=data["action"],
            accepted=dict(data["accepted"]),
            bets=dict(data["bets"]),
            balance=data["balance"],
            returned=data["returned"],
            replayed=True,
        )


@dataclass(frozen=True, slots=True)
class BetRefusal:
    """A refused request, which left no trace: a stable code and a message."""

    code: str
    message: str


CLOSED = "betting_closed"
KEY_REUSED = "idempotency_key_reused"
#: The largest value of a 32-bit id column (``rounds.id``): an order naming a round past it
#: is refused before any query, so it can never fail the batch it is in.
MAX_ROW_ID = 2**31 - 1


class _Batch:
    """The running state of one batch: balances and stakes as the requests so far left them."""

    def __init__(
        self,
        connection: Connection,
        orders: Sequence[BetOrder],
        known: Mapping[tuple[int, str], Mapping[str, int]],
    ) -> None:
        self.connection = connection
        self.now = db_now(connection)
        self.rounds = lock_rounds(connection, [o.round_id for o in orders])
        players = sorted({o.player_id for o in orders})
        self.balance = balances(connection, [player_account(p) for p in players], lock=True)
        # Responsible gaming: the players' limits, breaks and session, under the lock.
        self.gate = BetGate(connection, players)
        pairs = {(o.round_id, o.player_id) for o in orders}
        self.placed: dict[tuple[int, str], dict[str, int]] = {
            pair: dict(known[pair]) for pair in pairs if pair in known
        }
        missing = [pair for pair in pairs if pair not in known]
        if missing:
            found = open_stakes(connection, [r for r, _ in missing], [p for _, p in missing])
            for pair in missing:
                self.placed[pair] = found.get(pair, {})
        keyed = [(o.player_id, o.key) for o in orders if o.key is not None]
        self.keys: dict[tuple[str, str], tuple[str, str]] = {}
        if keyed:
            query = select(
                idempotency_keys.c.player_id,
                idempotency_keys.c.key,
                idempotency_keys.c.request_hash,
                idempotency_keys.c.response,
            ).where(tuple_(idempotency_keys.c.player_id, idempotency_keys.c.key).in_(keyed))
            for row in connection.execute(query):
                self.keys[(row.player_id, row.key)] = (row.request_hash, row.response)
        self.transactions: list[Transaction] = []
        self.bet_rows: list[dict[str, Any]] = []
        self.key_rows: list[dict[str, Any]] = []

    def flush(self) -> None:
        """Write what the batch has accepted so far (before a step that reads the bets table)."""
        post(self.connection, self.transactions, self.now)
        if self.bet_rows:
            self.connection.execute(bets.insert(), self.bet_rows)
        if self.key_rows:
            self.connection.execute(idempotency_keys.insert(), self.key_rows)
        self.transactions, self.bet_rows, self.key_rows = [], [], []

    def run(self, order: BetOrder, rulesets: Mapping[str, RuleSet]) -> BetReceipt | BetRefusal:
        if order.key is not None:
            prior = self.keys.get((order.player_id, order.key))
            if prior is not None:
                request_hash, response = prior
                if request_hash != order.request_hash:
                    return BetRefusal(
                        KEY_REUSED,
                        "this Idempotency-Key was already used with a different request",
                    )
                return BetReceipt.from_json(json.loads(response))
        row = self.rounds.get(order.round_id)
        if row is None or row.table_id != order.table_id:
            return BetRefusal(CLOSED, f"round {order.round_id} is not a round of this table")
        if not row.domain().accepts_bets(self.now):
            return BetRefusal(CLOSED, f"betting on round {order.round_id} is closed")
        if order.action == "undo":
            receipt: BetReceipt | BetRefusal = self._undo(order, row)
        else:
            receipt = self._place(order, rulesets[order.table_id])
        if isinstance(receipt, BetReceipt) and order.key is not None:
            text = json.dumps(receipt.to_json(), sort_keys=True)
            self.keys[(order.player_id, order.key)] = (order.request_hash, text)
            self.key_rows.append(
                {
                    "player_id": order.player_id,
                    "key": order.key,
                    "request_hash": order.request_hash,
                    "response": text,
                    "created_at": self.now,
                }
            )
        return receipt

    def _place(self, order: BetOrder, ruleset: RuleSet) -> BetReceipt | BetRefusal:
        account = player_account(order.player_id)
        placed = self.placed.get((order.round_id, order.player_id), {})
        request: Mapping[str, int] = order.bets
        if order.action in ("rebet", "double"):
            previous = previous_bets(
                self.connection, order.table_id, order.player_id, order.round_id
            )
            if not previous:
                return BetRefusal(
                    Refusal.NOTHING_TO_REPEAT.value, "you had no bets in an earlier round here"
                )
            request = previous if order.action == "rebet" else doubled(previous)
        try:
            accepted = check_bets(
                ruleset, request, balance=self.balance.get(account, 0), placed=placed
            )
        except BetError as error:
            return BetRefusal(error.code.value, error.message)
        total = sum(accepted.values())
        policy = self.gate.refuse(order.player_id, total)
        if policy is not None:
            return BetRefusal(policy.code.value, policy.message)
        transaction = Transaction(
            "bet", [(account, -total), (stake_account(order.table_id), total)], order.round_id
        )
        self.transactions.append(transaction)
        self.bet_rows.extend(
            {
                "round_id": order.round_id,
                "table_id": order.table_id,
                "player_id": order.player_id,
                "spot": spot,
                "stake": stake,
                "txn_id": transaction.id,
                "created_at": self.now,
            }
            for spot, stake in accepted.items()
        )
        self.balance[account] = self.balance.get(account, 0) - total
        now_placed = add_bets(placed, accepted)
        self.placed[(order.round_id, order.player_id)] = now_placed
        return BetReceipt(order.round_id, order.action, accepted, now_placed, self.balance[account])

    def _undo(self, order: BetOrder, row: RoundRow) -> BetReceipt:
        self.flush()
        account = player_account(order.player_id)
        returned = return_stakes(
            self.connection, row, "undone", self.now, player_id=order.player_id
        )
        amount = returned.get(order.player_id, 0)
        self.balance[account] = self.balance.get(account, 0) + amount
        self.placed[(order.round_id, order.player_id)] = {}
        return BetReceipt(order.round_id, "undo", {}, {}, self.balance[account], returned=amount)


def place_batch(
    connection: Connection,
    orders: Sequence[BetOrder],
    rulesets: Mapping[str, RuleSet],
    known: Mapping[tuple[int, str], Mapping[str, int]] | None = None,
) -> list[BetReceipt | BetRefusal]:
    """Run every order, in order, in the caller's transaction; one result per order.

    ``known`` may give a player's open stakes per spot on a round, as the receipts of
    earlier committed batches left them (``BetReceipt.bets``), to spare re-summing the
    round's bets: the only writer of bets, the server's bet queue, keeps it.
    """
    if not orders:
        return []
    fit = [order for order in orders if 1 <= order.round_id <= MAX_ROW_ID]
    batch = _Batch(connection, fit, known or {}) if fit else None
    results = [
        batch.run(order, rulesets)
        if batch is not None and 1 <= order.round_id <= MAX_ROW_ID
        else BetRefusal(CLOSED, f"round {order.round_id} is not a round of this table")
        for order in orders
    ]
    if batch is not None:
        batch.flush()
    return results
