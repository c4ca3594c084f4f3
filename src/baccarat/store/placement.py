"""Placing bets in the ledger: a batch of requests in one transaction, undos included.

Accepting a bet moves its stake from the player to the table's stake account in the same
transaction that records the bet. Many requests are accepted in one database transaction
(group commit): one durable commit acknowledges them all. Each request is still all or
nothing: it is checked whole, against the state left by the requests before it in the
batch, before anything of it is written. A refused request writes nothing.

Every request of the bet path is an order of a batch (``baccarat.table.BetOrder``): place,
rebet, double, undo (all of a player's bets on the round) and undo_last (the last accepted
request, ``store.undo_last``), each with its Idempotency-Key checked and remembered here. An
undo of an operator's player queues the credit of what it gave back, in the same transaction
(``store.provider_settle``); their stakes are placed by ``server.provider_bets``, which calls
``place_batch`` once the operator's wallet has paid.

The database is the only authority on what a bet is checked against. Several processes write
bets at once (every node of a cluster, every worker of ``serve --workers N``, each with its own
bet queue), so a batch trusts nothing a process remembers: it locks the rounds (shared) and its
players' accounts (``FOR UPDATE`` on PostgreSQL, the write lock of ``BEGIN IMMEDIATE`` on
SQLite), and only then reads, in the same transaction, the balances, the stakes each player
already holds on each round, the responsible-gaming limits and activity, and the rule set
stored with each round's shoe (the one settlement pays by), at the limits the round opened
under (``rounds.limits``). A player's bets on a round are
written only under that player's account lock, so what the batch read stays true until it
commits, and a receipt's ``bets`` are what the database holds once it has.

The stakes held come from the writer's ``StakesCache`` where the player's account is still at
the version the writer last saw (read with the balance, under the lock), and from one grouped
query (``bet_reads.open_stakes``) for the rest: a player's stakes change only by a posting to
their account, and every posting moves its version. What the batch leaves is staged in the
cache, and kept by the caller once the transaction has committed. The rule sets are kept too
(``ShoeRules``, by shoe id): a shoe's rule set never changes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, select, tuple_

from baccarat.refusals import Refusal, RefusalCode
from baccarat.rulesets import RuleSet
from baccarat.store.bet_reads import open_stakes, previous_bets
from baccarat.store.clock import db_now
from baccarat.store.idempotency import KEY_REUSED
from baccarat.store.ledger import (
    Transaction,
    balance_versions,
    player_account,
    post,
    stake_account,
)
from baccarat.store.provider_settle import credit_resolved
from baccarat.store.responsible import BetGate
from baccarat.store.rounds import RoundRow, lock_rounds
from baccarat.store.schema import bets, idempotency_keys
from baccarat.store.settlement import return_stakes
from baccarat.store.shoe_rules import ShoeRules
from baccarat.store.stakes_cache import StakesCache
from baccarat.store.undo_last import undo_last
from baccarat.table import BetError, BetOrder, BetReceipt, add_bets, check_bets, doubled
from baccarat.table.limits import round_ruleset

__all__ = ["MAX_ROW_ID", "place_batch"]

#: The largest value of a 32-bit id column (``rounds.id``): an order naming a round past it
#: is refused before any query, so it can never fail the batch it is in.
MAX_ROW_ID = 2**31 - 1


def _fits(order: BetOrder) -> bool:
    """Whether the order may reach a query: its round id fits the column, or it names none."""
    return order.round_id is None or 1 <= order.round_id <= MAX_ROW_ID


def _not_this_table(round_id: int | None) -> Refusal:
    return Refusal(RefusalCode.BETTING_CLOSED, f"round {round_id} is not a round of this table")


class _Batch:
    """The running state of one batch: balances and stakes as the database held them under
    the batch's locks, and as the requests so far left them."""

    def __init__(
        self,
        connection: Connection,
        orders: Sequence[BetOrder],
        rules: ShoeRules,
        policy_now_ms: int | None,
        stakes: StakesCache,
    ) -> None:
        self.connection = connection
        self.stakes = stakes
        self.now = db_now(connection)
        # Shared: the bet batches of every node run side by side on one round; its close
        # and settlement wait for them, and they for it.
        self.rounds = lock_rounds(
            connection, [o.round_id for o in orders if o.round_id is not None], share=True
        )
        # Each player's lock: whoever else writes this player's bets waits for this commit,
        # so everything below is read after the last of theirs and holds until this one.
        players = sorted({o.player_id for o in orders})
        held = balance_versions(connection, [player_account(p) for p in players], lock=True)
        self.balance = {account: balance for account, (balance, _) in held.items()}
        #: Each account's version as this batch leaves it (``post`` moves it by one a call).
        self.version = {account: version for account, (_, version) in held.items()}
        #: Players whose version this batch cannot count (an undo posts on its own).
        self.uncounted: set[str] = set()
        # Responsible gaming: the players' limits, breaks and session, under the lock.
        policy_now = self.now if policy_now_ms is None else policy_now_ms
        self.gate = BetGate(connection, players, policy_now)
        pairs = {(o.round_id, o.player_id) for o in orders if o.round_id is not None}
        self.placed = stakes.valid(
            {
                pair: self.version[player_account(pair[1])]
                for pair in pairs
                if player_account(pair[1]) in self.version
            }
        )
        self.placed.update(open_stakes(connection, pairs - self.placed.keys()))
        self.pairs = pairs
        self.rulesets = rules.of(connection, {row.shoe_id for row in self.rounds.values()})
        #: Each round's rule set at its own limits, by round id (made once per batch).
        self.played: dict[int, RuleSet] = {}
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
        for account in {a for t in self.transactions for a, _ in t.entries}:
            if account in self.version:
                self.version[account] += 1
        if self.bet_rows:
            self.connection.execute(bets.insert(), self.bet_rows)
        if self.key_rows:
            self.connection.execute(idempotency_keys.insert(), self.key_rows)
        self.transactions, self.bet_rows, self.key_rows = [], [], []

    def run(self, order: BetOrder) -> BetReceipt | Refusal:
        # The key first: a retry gets its first answer even once the round has closed.
        if order.key is not None:
            prior = self.keys.get((order.player_id, order.key))
            if prior is not None:
                request_hash, response = prior
                if request_hash != order.request_hash:
                    return KEY_REUSED
                return BetReceipt.from_json(json.loads(response))
        if order.round_id is None:
            return Refusal(RefusalCode.BETTING_CLOSED, "no round is open for bets at this table")
        row = self.rounds.get(order.round_id)
        if row is None or row.table_id != order.table_id:
            return _not_this_table(order.round_id)
        if not row.state.accepts_bets(self.now):
            return Refusal(
                RefusalCode.BETTING_CLOSED, f"betting on round {order.round_id} is closed"
            )
        receipt: BetReceipt | Refusal
        if order.action == "undo":
            receipt = self._undo(order, row)
        elif order.action == "undo_last":
            receipt = self._undo_last(order, row)
        else:
            receipt = self._place(order, row, self._played(row))
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

    def _played(self, row: RoundRow) -> RuleSet:
        """The rule set of the round's shoe at the limits the round opened under (an
        operator's change waits for the next round: ``store.table_limits``)."""
        if row.limits is None:
            return self.rulesets[row.shoe_id]
        played = self.played.get(row.id)
        if played is None:
            played = self.played[row.id] = round_ruleset(self.rulesets[row.shoe_id], row.limits)
        return played

    def _place(self, order: BetOrder, row: RoundRow, ruleset: RuleSet) -> BetReceipt | Refusal:
        account = player_account(order.player_id)
        placed = self.placed.get((row.id, order.player_id), {})
        request: Mapping[str, int] = order.bets
        if order.action in ("rebet", "double"):
            previous = previous_bets(self.connection, order.table_id, order.player_id, row.id)
            if not previous:
                return Refusal(
                    RefusalCode.NOTHING_TO_REPEAT, "you had no bets in an earlier round here"
                )
            request = previous if order.action == "rebet" else doubled(previous)
        try:
            accepted = check_bets(
                ruleset, request, balance=self.balance.get(account, 0), placed=placed
            )
        except BetError as error:
            return error.refusal
        total = sum(accepted.values())
        policy = self.gate.refuse(order.player_id, total)
        if policy is not None:
            return policy
        transaction = Transaction(
            "bet", [(account, -total), (stake_account(order.table_id), total)], row.id
        )
        self.transactions.append(transaction)
        self.bet_rows.extend(
            {
                "round_id": row.id,
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
        self.placed[(row.id, order.player_id)] = now_placed
        return BetReceipt(row.id, order.action, accepted, now_placed, self.balance[account])

    def _undo(self, order: BetOrder, row: RoundRow) -> BetReceipt:
        self.flush()
        self.uncounted.add(order.player_id)
        returned = return_stakes(
            self.connection, row, "undone", self.now, player_id=order.player_id
        )
        amount = returned.get(order.player_id, 0)
        balance = self._returned(order.player_id, row, amount)
        self.placed[(row.id, order.player_id)] = {}
        return BetReceipt(row.id, "undo", {}, {}, balance, returned=amount)

    def _undo_last(self, order: BetOrder, row: RoundRow) -> BetReceipt | Refusal:
        # It reads the bets table: what the batch accepted before it must be written first.
        self.flush()
        self.uncounted.add(order.player_id)
        amount = undo_last(self.connection, order.table_id, row.id, order.player_id, self.now)
        if amount is None:
            return Refusal(
                RefusalCode.NOTHING_TO_UNDO, "you have no bet on this round to take back"
            )
        balance = self._returned(order.player_id, row, amount)
        pair = (row.id, order.player_id)
        left = open_stakes(self.connection, [pair]).get(pair, {})
        self.placed[pair] = dict(left)
        return BetReceipt(row.id, "undo", {}, dict(left), balance, returned=amount)

    def _returned(self, player_id: str, row: RoundRow, amount: int) -> int:
        """The player's balance after an undo gave ``amount`` back. An operator's player is paid
        back through their wallet (the credit is queued here, in the batch's transaction): their
        balance is the wallet's, as it will be once the credit lands."""
        account = player_account(player_id)
        credits = credit_resolved(
            self.connection, row.id, self.now, round_closed=False, player_id=player_id
        )
        self.balance[account] = (
            self.balance.get(account, 0) + amount - credits.amounts.get(player_id, 0)
        )
        return credits.balances.get(player_id, self.balance[account])

    def stage(self) -> None:
        """Tell the cache what each pair of the batch holds as the batch leaves it."""
        for pair in self.pairs:
            account = player_account(pair[1])
            if pair[1] in self.uncounted or account not in self.version:
                self.stakes.forget(pair)
            else:
                self.stakes.stage(pair, self.version[account], self.placed.get(pair, {}))


def place_batch(
    connection: Connection,
    orders: Sequence[BetOrder],
    *,
    rules: ShoeRules | None = None,
    stakes: StakesCache | None = None,
    policy_now_ms: int | None = None,
) -> list[BetReceipt | Refusal]:
    """Run every order, in order, in the caller's transaction; one result per order.

    Each bet is checked against the rule set stored with its round's shoe; ``rules`` keeps
    those already read (the caller's, one per database; without it they are read each time).
    ``stakes`` is the caller's memory of its players' stakes: the batch stages what it leaves,
    and the caller commits that once the transaction has (``StakesCache``).
    ``policy_now_ms`` is the responsible-gaming policy's now (default: the database's).
    """
    stakes = StakesCache() if stakes is None else stakes
    stakes.begin()
    if not orders:
        return []
    fit = [order for order in orders if _fits(order)]
    batch = _Batch(connection, fit, rules or ShoeRules(), policy_now_ms, stakes) if fit else None
    results = [
        batch.run(order) if batch is not None and _fits(order) else _not_this_table(order.round_id)
        for order in orders
    ]
    if batch is not None:
        batch.flush()
        batch.stage()
    return results
