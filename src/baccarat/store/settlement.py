"""Settling and voiding rounds in the ledger: stakes to the house or back to the players.

Settlement pays each player's whole stake per spot (one rounding per spot) and spreads the
result over the bets that made it up (``allocate``). A void, and a player's undo, give open
stakes back (``return_stakes``). Each runs in the caller's transaction. An operator's player
is paid back through their wallet in the same transaction: settling and voiding queue the
credits of the debits they resolve (``store.provider_settle``), and so does the player's undo
(``store.placement``, the other caller of ``return_stakes``).

Whether a round may be settled or voided is the round's own rule (``baccarat.table.Round``):
a round it refuses is left alone (``None``), and the round it returns is the one stored.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from sqlalchemy import Connection

from baccarat.coup import Coup
from baccarat.rulesets import RuleSet
from baccarat.settle import settle
from baccarat.store.audit_log import append_audit
from baccarat.store.bet_reads import open_bets
from baccarat.store.ledger import (
    Transaction,
    balances,
    house_account,
    player_account,
    post,
    stake_account,
)
from baccarat.store.provider_settle import at_wallet, credit_resolved
from baccarat.store.rounds import RoundChange, RoundRow, lock_rounds, save_round
from baccarat.store.schema import bet_outcomes

__all__ = [
    "PlayerSettlement",
    "SettledRound",
    "VoidedRound",
    "allocate",
    "return_stakes",
    "settle_round",
    "void_round",
]


def return_stakes(
    connection: Connection,
    row: RoundRow,
    kind: Literal["undone", "voided"],
    at: int,
    *,
    player_id: str | None = None,
) -> dict[str, int]:
    """Give every open stake of the round (or of one player) back; returns the amount per player.

    The caller credits what came back to operators' players (``provider_settle``).
    """
    in_play = open_bets(connection, row.id, player_id)
    per_player: dict[str, int] = defaultdict(int)
    for _bet, player, _spot, stake in in_play:
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
    if in_play:
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
                for bet, player, _spot, stake in in_play
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
    #: The player's balance after the round; ``None`` for an operator's player, whose money is
    #: at the operator's wallet: its own answer to the credit is the one figure after the round.
    balance: int | None

    def to_json(self) -> dict[str, Any]:
        found = {
            "wagers": [{"bet": bet, **spot} for bet, spot in self.spots.items()],
            "staked": self.staked,
            "returned": self.returned,
            "net": self.returned - self.staked,
        }
        return found if self.balance is None else {**found, "balance": self.balance}


class SettledRound(NamedTuple):
    """A settled round (as stored, with its events) and each of its players' results."""

    change: RoundChange
    players: dict[str, PlayerSettlement]


class VoidedRound(NamedTuple):
    """A voided round (as stored, with its events) and what each player got back."""

    change: RoundChange
    returned: dict[str, int]


def settle_round(
    connection: Connection, row: RoundRow, coup: Coup, ruleset: RuleSet, at: int
) -> SettledRound | None:
    """Settle every open bet of a dealt round and mark it settled, in the caller's transaction.

    Losses go from the stake account to the house; returns go from the stake account
    (the stake) and the house (the winnings) to the player. A round the state machine does
    not let settle (settled already, or voided) is left alone: ``None``.
    """
    current = lock_rounds(connection, [row.id]).get(row.id)
    if current is None or not current.state.allows("settle"):
        return None
    if current.cards != coup.cards:
        raise ValueError(f"round {row.id}: the coup to settle is not the round's stored cards")
    settled = current.state.settle(at)
    in_play = open_bets(connection, row.id)
    by_spot: dict[tuple[str, str], list[tuple[int, int]]] = defaultdict(list)
    for bet, player, spot, stake in in_play:
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
    credit_resolved(connection, row.id, at, round_closed=True)
    change = RoundChange(save_round(connection, current, settled.round), settled.events)
    after = balances(connection, [player_account(p) for p in wagers])
    # An operator's player's page is told no figure of ours (their internal account is 0, an
    # estimate could be wrong): the wallet's answer to the credit follows (``balance``).
    elsewhere = at_wallet(connection, wagers)
    players = {
        player: PlayerSettlement(
            player,
            spots[player],
            *totals[player],
            None if player in elsewhere else after.get(player_account(player), 0),
        )
        for player in wagers
    }
    return SettledRound(change, players)


def void_round(
    connection: Connection,
    row: RoundRow,
    reason: str,
    at: int,
    *,
    actor: str = "system:dealer",
    audit: Mapping[str, Any] | None = None,
) -> VoidedRound | None:
    """Void an unfinished round and return every open stake, with the amount per player;
    audited as ``actor``'s (a member of staff's, with ``audit`` added to the details).

    A round the state machine does not let void (settled or voided already) is left alone:
    ``None``.
    """
    current = lock_rounds(connection, [row.id]).get(row.id)
    if current is None or not current.state.allows("void"):
        return None
    voided = current.state.void(reason, at)
    returned = return_stakes(connection, current, "voided", at)
    credit_resolved(connection, row.id, at, round_closed=True)
    change = RoundChange(save_round(connection, current, voided.round), voided.events)
    details = {"round": row.id, "table": row.table_id, "reason": reason, "returned": returned}
    append_audit(connection, at, actor, "round_void", {**(audit or {}), **details})
    return VoidedRound(change, returned)
