"""Bets in the ledger: accept a batch of requests in one transaction, undo, settle, void.

Accepting a bet moves its stake from the player to the table's stake account in the same
transaction that records the bet. Many requests are accepted in one database transaction
(group commit): one durable commit acknowledges them all. Each request is still all or
nothing: it is checked whole, against the state left by the requests before it in the
batch, before anything of it is written. A refused request writes nothing.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from sqlalchemy import Connection, and_, func, select, tuple_

from baccarat.coup import Coup
from baccarat.rulesets import RuleSet
from baccarat.settle import settle
from baccarat.store.audit_log import append_audit
from baccarat.store.clock import db_now
from baccarat.store.ledger import (
    Transaction,
    balances,
    house_account,
    player_account,
    post,
    stake_account,
)
from baccarat.store.responsible import BetGate
from baccarat.store.rounds import RoundRow, lock_rounds
from baccarat.store.schema import bet_outcomes, bets, idempotency_keys, rounds
from baccarat.table import BetError, Phase, Refusal, add_bets, check_bets, doubled

__all__ = [
    "Action",
    "BetOrder",
    "BetReceipt",
    "BetRefusal",
    "PlayerSettlement",
    "allocate",
    "open_stakes",
    "place_batch",
    "player_round_bets",
    "previous_bets",
    "round_has_bets",
    "settle_round",
    "void_round",
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


def open_stakes(
    connection: Connection, round_ids: Sequence[int], player_ids: Sequence[str]
) -> dict[tuple[int, str], dict[str, int]]:
    """Stakes per spot still in play (no outcome yet) for each (round, player) asked about."""
    query = (
        select(bets.c.round_id, bets.c.player_id, bets.c.spot, func.sum(bets.c.stake))
        .select_from(bets.outerjoin(bet_outcomes, bet_outcomes.c.bet_id == bets.c.id))
        .where(
            bets.c.round_id.in_(sorted(set(round_ids))),
            bets.c.player_id.in_(sorted(set(player_ids))),
            bet_outcomes.c.bet_id.is_(None),
        )
        .group_by(bets.c.round_id, bets.c.player_id, bets.c.spot)
    )
    found: dict[tuple[int, str], dict[str, int]] = defaultdict(dict)
    for round_id, player_id, spot, stake in connection.execute(query):
        found[(round_id, player_id)][spot] = int(stake)
    return found


def previous_bets(
    connection: Connection, table_id: str, player_id: str, before_round: int
) -> dict[str, int]:
    """The player's stakes per spot in their last earlier round at this table (undone excluded)."""
    kept = bets.outerjoin(bet_outcomes, bet_outcomes.c.bet_id == bets.c.id)
    not_undone = (bet_outcomes.c.kind.is_(None)) | (bet_outcomes.c.kind != "undone")
    last = connection.scalar(
        select(func.max(bets.c.round_id))
        .select_from(kept)
        .where(
            bets.c.player_id == player_id,
            bets.c.table_id == table_id,
            bets.c.round_id < before_round,
            not_undone,
        )
    )
    if last is None:
        return {}
    query = (
        select(bets.c.spot, func.sum(bets.c.stake))
        .select_from(kept)
        .where(bets.c.player_id == player_id, bets.c.round_id == last, not_undone)
        .group_by(bets.c.spot)
    )
    return {spot: int(stake) for spot, stake in connection.execute(query)}


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
        returned = _return_stakes(
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
    round's bets: the only writer of bets, the server's desk, keeps it.
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


def _open_bets(
    connection: Connection, round_id: int, player_id: str | None = None
) -> list[tuple[int, str, str, int]]:
    query = (
        select(bets.c.id, bets.c.player_id, bets.c.spot, bets.c.stake)
        .select_from(bets.outerjoin(bet_outcomes, bet_outcomes.c.bet_id == bets.c.id))
        .where(bets.c.round_id == round_id, bet_outcomes.c.bet_id.is_(None))
        .order_by(bets.c.id)
    )
    if player_id is not None:
        query = query.where(bets.c.player_id == player_id)
    return [(r.id, r.player_id, r.spot, int(r.stake)) for r in connection.execute(query)]


def _return_stakes(
    connection: Connection,
    row: RoundRow,
    kind: Literal["undone", "voided"],
    at: int,
    *,
    player_id: str | None = None,
) -> dict[str, int]:
    """Give every open stake of the round (or of one player) back; returns the amount per player."""
    open_bets = _open_bets(connection, row.id, player_id)
    per_player: dict[str, int] = defaultdict(int)
    for _bet, player, _spot, stake in open_bets:
        per_player[player] += stake
    transactions = {
        player: Transaction(
            "undo" if kind == "undone" else "void",
            [(stake_account(row.table_id), -amount), (player_account(player), amount)],
            row.id,
        )
        for player, amount in per_player.items()
    }
    post(connection, transactions.values(), at)
    if open_bets:
        connection.execute(
            bet_outcomes.insert(),
            [
                {
                    "bet_id": bet,
                    "round_id": row.id,
                    "kind": kind,
                    "event": None,
                    "result": None,
                    "returned": stake,
                    "txn_id": transactions[player].id,
                    "created_at": at,
                }
                for bet, player, _spot, stake in open_bets
            ],
        )
    return dict(per_player)


def allocate(total: int, stakes: Sequence[int]) -> list[int]:
    """Split ``total`` over bets in proportion to their stakes, rounding down, the rest to the last.

    A spot is settled on the player's whole stake there (one rounding per spot, as the
    rules page says); this spreads the result over the bets that made up that stake.

    >>> allocate(204, [50, 55]), allocate(0, [10, 20]), allocate(7, [5])
    ([97, 107], [0, 0], [7])
    """
    whole = sum(stakes)
    shares = [total * stake // whole for stake in stakes[:-1]]
    return [*shares, total - sum(shares)]


@dataclass(frozen=True, slots=True)
class PlayerSettlement:
    """One player's result on a round: per spot stake, event, result and return."""

    player_id: str
    spots: dict[str, dict[str, Any]]
    staked: int
    returned: int
    balance: int

    def to_json(self) -> dict[str, Any]:
        return {
            "wagers": [{"bet": bet, **spot} for bet, spot in self.spots.items()],
            "staked": self.staked,
            "returned": self.returned,
            "net": self.returned - self.staked,
            "balance": self.balance,
        }


def settle_round(
    connection: Connection, row: RoundRow, coup: Coup, ruleset: RuleSet, at: int
) -> dict[str, PlayerSettlement]:
    """Settle every open bet of a dealt round and mark it settled, in the caller's transaction.

    Losses go from the stake account to the house; returns go from the stake account
    (the stake) and the house (the winnings) to the player. A round that is not in the
    ``dealt`` phase any more is left alone (it was settled already).
    """
    current = lock_rounds(connection, [row.id]).get(row.id)
    if current is None or current.phase is not Phase.DEALT:
        return {}
    open_bets = _open_bets(connection, row.id)
    by_spot: dict[tuple[str, str], list[tuple[int, int]]] = defaultdict(list)
    for bet, player, spot, stake in open_bets:
        by_spot[(player, spot)].append((bet, stake))
    wagers: dict[str, dict[str, int]] = defaultdict(dict)
    for (player, spot), items in by_spot.items():
        wagers[player][spot] = sum(stake for _, stake in items)
    transactions: list[Transaction] = []
    outcome_rows: list[dict[str, Any]] = []
    spots: dict[str, dict[str, dict[str, Any]]] = {}
    totals: dict[str, tuple[int, int]] = {}
    for player, stakes in wagers.items():
        settlement = settle(stakes, coup, ruleset)
        staked, returned = settlement.staked, settlement.returned
        entries = [(stake_account(row.table_id), -staked)]
        if returned:
            entries.append((player_account(player), returned))
        if staked != returned:
            entries.append((house_account(row.table_id), staked - returned))
        transaction = Transaction("settle", entries, row.id)
        transactions.append(transaction)
        totals[player] = (staked, returned)
        spots[player] = {}
        for wager in settlement:
            items = by_spot[(player, wager.bet)]
            shares = allocate(wager.returned, [stake for _, stake in items])
            spots[player][wager.bet] = {
                "stake": wager.stake,
                "event": wager.event,
                "result": wager.result.value,
                "returned": wager.returned,
            }
            outcome_rows.extend(
                {
                    "bet_id": bet,
                    "round_id": row.id,
                    "kind": "settled",
                    "event": wager.event,
                    "result": wager.result.value,
                    "returned": share,
                    "txn_id": transaction.id,
                    "created_at": at,
                }
                for (bet, _), share in zip(items, shares, strict=True)
            )
    post(connection, transactions, at)
    if outcome_rows:
        connection.execute(bet_outcomes.insert(), outcome_rows)
    _finish(connection, row.id, Phase.SETTLED, at)
    after = balances(connection, [player_account(p) for p in wagers])
    return {
        player: PlayerSettlement(
            player, spots[player], *totals[player], after.get(player_account(player), 0)
        )
        for player in wagers
    }


def void_round(connection: Connection, row: RoundRow, reason: str, at: int) -> dict[str, int]:
    """Void an unfinished round and return every open stake; the amount returned per player."""
    current = lock_rounds(connection, [row.id]).get(row.id)
    if current is None or current.phase.final:
        return {}
    current.domain().void(reason)  # the state machine's own check
    returned = _return_stakes(connection, current, "voided", at)
    _finish(connection, row.id, Phase.VOIDED, at, reason)
    details = {"round": row.id, "table": row.table_id, "reason": reason, "returned": returned}
    append_audit(connection, at, "system:dealer", "round_void", details)
    return returned


def _finish(
    connection: Connection, round_id: int, phase: Phase, at: int, reason: str | None = None
) -> None:
    connection.execute(
        rounds.update()
        .where(rounds.c.id == round_id)
        .values(phase=phase.value, finished_at=at, void_reason=reason)
    )


def player_round_bets(
    connection: Connection, round_id: int, player_id: str
) -> list[dict[str, Any]]:
    """The player's bets on a round with their outcomes (``None`` while in play)."""
    query = (
        select(
            bets.c.id,
            bets.c.spot,
            bets.c.stake,
            bet_outcomes.c.kind,
            bet_outcomes.c.event,
            bet_outcomes.c.result,
            bet_outcomes.c.returned,
        )
        .select_from(bets.outerjoin(bet_outcomes, bet_outcomes.c.bet_id == bets.c.id))
        .where(and_(bets.c.round_id == round_id, bets.c.player_id == player_id))
        .order_by(bets.c.id)
    )
    return [
        {
            "id": r.id,
            "spot": r.spot,
            "stake": int(r.stake),
            "outcome": r.kind,
            "event": r.event,
            "result": r.result,
            "returned": None if r.returned is None else int(r.returned),
        }
        for r in connection.execute(query)
    ]


def round_has_bets(connection: Connection, round_id: int) -> bool:
    """Whether anyone bet on the round."""
    query = select(bets.c.id).where(bets.c.round_id == round_id).limit(1)
    return connection.scalar(query) is not None
