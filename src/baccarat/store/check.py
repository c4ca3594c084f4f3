"""``ledger check``: the invariants of the ledger and the bets, recomputed from the rows.

1. every ledger transaction has entries and they sum to zero;
2. all accounts together sum to zero;
3. every cached balance equals the sum of its account's entries;
4. no player's balance is negative;
5. every bet of a finished round has exactly one outcome (settled, voided or undone), and
   no bet of a round still in play has been settled;
6. each table's stake account holds exactly the stakes still in play;
7. every settlement pays what the shoe's rules pay on the round's cards;
8. demo money adds up on its own: the ``demo-bank`` account, the guests' accounts, their
   stakes in play and the house's result on their settled bets sum to zero, so no demo
   money came from or went to real money (a guest's deposit from ``world`` would show);
9. every money value is an integer within its bound (``baccarat.store.money``); the sums
   are exact whatever is stored, so a damaged database is reported, never a crash;
10. every round in play can still be finished by a dealer: it is its table's newest round, on
    its table's newest shoe (not ended), of a table still dealt; any other holds its stakes
    forever (``baccarat.store.check_stuck``);
11. provider mode: each operator's ``wallet:{op}`` holds minus its confirmed debits plus its
    credits, and an operator's player holds nothing of our own (``baccarat.store.check_wallets``).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from sqlalchemy import Connection, func, select

from baccarat.cards import parse_cards
from baccarat.coup import deal
from baccarat.rulesets import DEFAULT_CURRENCY, parse_ruleset
from baccarat.store.check_money import account_sums, bad_money, whole
from baccarat.store.check_stuck import stuck_rounds
from baccarat.store.check_wallets import wallet_problems
from baccarat.store.ledger import DEMO_BANK, UNCACHED, stake_account
from baccarat.store.schema import (
    accounts,
    bet_outcomes,
    bets,
    ledger_entries,
    ledger_transactions,
    players,
    rounds,
    shoes,
)
from baccarat.table import Phase

__all__ = ["LedgerReport", "check_ledger"]

_FINAL = [Phase.SETTLED.value, Phase.VOIDED.value]


@dataclass
class LedgerReport:
    """The figures of the ledger and every problem found (empty lists when all is well)."""

    transactions: int = 0
    entries: int = 0
    accounts: int = 0
    total: int = 0
    players: int = 0
    player_money: int = 0
    house: int = 0
    in_play: int = 0
    #: The demo part of ``players``, ``player_money``, ``in_play`` and ``house``, and what
    #: the ``demo-bank`` account gave (negative).
    demo_players: int = 0
    demo_money: int = 0
    demo_in_play: int = 0
    demo_house: int = 0
    demo_bank: int = 0
    bets: int = 0
    #: The money the tables count in (the latest shoe's rule set's; the default before any).
    currency: str = DEFAULT_CURRENCY
    outcomes: dict[str, int] = field(default_factory=dict)
    unbalanced: list[str] = field(default_factory=list)
    empty_transactions: list[str] = field(default_factory=list)
    stale_balances: list[str] = field(default_factory=list)
    negative_players: list[str] = field(default_factory=list)
    unsettled_bets: list[int] = field(default_factory=list)
    early_outcomes: list[int] = field(default_factory=list)
    stake_mismatches: list[str] = field(default_factory=list)
    wrong_payouts: list[str] = field(default_factory=list)
    mixed_demo: list[str] = field(default_factory=list)
    stuck_rounds: list[str] = field(default_factory=list)
    bad_money: list[str] = field(default_factory=list)
    wallet_mismatches: list[str] = field(default_factory=list)

    @property
    def problems(self) -> dict[str, list[str] | list[int]]:
        found: dict[str, list[str] | list[int]] = {
            "transactions that do not sum to zero": self.unbalanced,
            "transactions without entries": self.empty_transactions,
            "cached balances that differ from their entries": self.stale_balances,
            "players with a negative balance": self.negative_players,
            "bets of finished rounds without an outcome": self.unsettled_bets,
            "bets settled before their round was dealt": self.early_outcomes,
            "stake accounts that differ from the stakes in play": self.stake_mismatches,
            "settlements that differ from the rules": self.wrong_payouts,
            "demo money that does not add up on its own": self.mixed_demo,
            "rounds in play that no dealer will finish": self.stuck_rounds,
            "money values that are not integers within their bound": self.bad_money,
            "operators' wallets that differ from their calls": self.wallet_mismatches,
        }
        if self.total != 0:
            found["all accounts together do not sum to zero"] = [str(self.total)]
        return {name: items for name, items in found.items() if items}

    @property
    def ok(self) -> bool:
        return not self.problems


def check_ledger(connection: Connection) -> LedgerReport:
    """Check every invariant over the whole database (read-only)."""
    report = LedgerReport()
    c = connection
    report.transactions = c.scalar(select(func.count()).select_from(ledger_transactions)) or 0
    report.entries = c.scalar(select(func.count()).select_from(ledger_entries)) or 0
    report.accounts = c.scalar(select(func.count()).select_from(accounts)) or 0
    report.bad_money = bad_money(c)
    latest = c.scalar(select(shoes.c.ruleset_toml).order_by(shoes.c.started_at.desc()).limit(1))
    if latest is not None:
        report.currency = parse_ruleset(latest).currency
    sums = account_sums(c)
    report.total = sum(sums.values())

    per_txn = (
        select(ledger_entries.c.txn_id, func.sum(ledger_entries.c.amount).label("total"))
        .group_by(ledger_entries.c.txn_id)
        .having(func.sum(ledger_entries.c.amount) != 0)
    )
    report.unbalanced = [row.txn_id for row in c.execute(per_txn)]
    empty = (
        select(ledger_transactions.c.id)
        .select_from(
            ledger_transactions.outerjoin(
                ledger_entries, ledger_entries.c.txn_id == ledger_transactions.c.id
            )
        )
        .where(ledger_entries.c.id.is_(None))
    )
    report.empty_transactions = list(c.scalars(empty))

    per_account = select(accounts.c.id, accounts.c.kind, accounts.c.balance)
    stake_balances: dict[str, int] = {}
    for row in c.execute(per_account):
        money = sums.get(row.id, 0)
        # A source's balance is not cached: it stays 0 (baccarat.store.ledger.UNCACHED).
        cached = 0 if row.id in UNCACHED else money
        if row.balance != cached or whole(row.balance) != cached:
            report.stale_balances.append(f"{row.id}: cached {row.balance}, entries {money}")
        if row.kind in ("player", "demo"):
            report.players += 1
            report.player_money += money
            if row.kind == "demo":
                report.demo_players += 1
                report.demo_money += money
            if money < 0:
                report.negative_players.append(f"{row.id}: {money}")
        elif row.id == DEMO_BANK:
            report.demo_bank += money
        elif row.kind == "house":
            report.house += money
        elif row.kind == "stake":
            stake_balances[row.id] = money
            report.in_play += money

    report.bets = c.scalar(select(func.count()).select_from(bets)) or 0
    kinds = select(bet_outcomes.c.kind, func.count()).group_by(bet_outcomes.c.kind)
    report.outcomes = {kind: int(n) for kind, n in c.execute(kinds)}
    unsettled = (
        select(bets.c.id)
        .select_from(
            bets.join(rounds, rounds.c.id == bets.c.round_id).outerjoin(
                bet_outcomes, bet_outcomes.c.bet_id == bets.c.id
            )
        )
        .where(rounds.c.phase.in_(_FINAL), bet_outcomes.c.bet_id.is_(None))
    )
    report.unsettled_bets = list(c.scalars(unsettled))
    early = (
        select(bet_outcomes.c.bet_id)
        .select_from(bet_outcomes.join(rounds, rounds.c.id == bet_outcomes.c.round_id))
        .where(bet_outcomes.c.kind == "settled", rounds.c.phase != Phase.SETTLED.value)
    )
    report.early_outcomes = list(c.scalars(early))

    in_play = (
        select(bets.c.table_id, func.sum(bets.c.stake))
        .select_from(bets.outerjoin(bet_outcomes, bet_outcomes.c.bet_id == bets.c.id))
        .where(bet_outcomes.c.bet_id.is_(None))
        .group_by(bets.c.table_id)
    )
    staked = {stake_account(table): whole(total) for table, total in c.execute(in_play)}
    for account in sorted(set(stake_balances) | set(staked)):
        if stake_balances.get(account, 0) != staked.get(account, 0):
            report.stake_mismatches.append(
                f"{account}: holds {stake_balances.get(account, 0)}, "
                f"stakes in play {staked.get(account, 0)}"
            )
    report.wrong_payouts = _check_payouts(c)
    _check_demo(c, report)
    report.stuck_rounds = stuck_rounds(c)
    report.wallet_mismatches = wallet_problems(c, sums)
    return report


def _check_demo(c: Connection, report: LedgerReport) -> None:
    """Invariant 8: the demo figures, and whether demo money sums to zero on its own."""
    demo_bets = bets.join(players, players.c.id == bets.c.player_id).outerjoin(
        bet_outcomes, bet_outcomes.c.bet_id == bets.c.id
    )
    total = func.coalesce(func.sum(bets.c.stake), 0)
    report.demo_in_play = int(
        c.scalar(
            select(total)
            .select_from(demo_bets)
            .where(players.c.demo.is_(True), bet_outcomes.c.bet_id.is_(None))
        )
        or 0
    )
    kept = func.coalesce(func.sum(bets.c.stake - bet_outcomes.c.returned), 0)
    report.demo_house = int(
        c.scalar(
            select(kept)
            .select_from(demo_bets)
            .where(players.c.demo.is_(True), bet_outcomes.c.kind == "settled")
        )
        or 0
    )
    parts = (report.demo_bank, report.demo_money, report.demo_in_play, report.demo_house)
    if sum(parts) != 0:
        report.mixed_demo.append(
            f"demo-bank {parts[0]} + guests {parts[1]} + in play {parts[2]}"
            f" + house {parts[3]} = {sum(parts)}"
        )


def _check_payouts(c: Connection) -> list[str]:
    """Re-settle every settled spot (a player's whole stake on a bet) by the shoe's rules."""
    query = (
        select(
            bets.c.round_id,
            bets.c.player_id,
            bets.c.spot,
            func.sum(bets.c.stake).label("stake"),
            func.sum(bet_outcomes.c.returned).label("returned"),
        )
        .select_from(bets.join(bet_outcomes, bet_outcomes.c.bet_id == bets.c.id))
        .where(bet_outcomes.c.kind == "settled")
        .group_by(bets.c.round_id, bets.c.player_id, bets.c.spot)
    )
    spots: dict[int, list[tuple[str, str, int, int]]] = defaultdict(list)
    for row in c.execute(query):
        spots[row.round_id].append((row.player_id, row.spot, whole(row.stake), whole(row.returned)))
    if not spots:
        return []
    info = select(rounds.c.id, rounds.c.cards, shoes.c.ruleset_toml).select_from(
        rounds.join(shoes, shoes.c.id == rounds.c.shoe_id)
    )
    wrong: list[str] = []
    for round_id, cards, toml_text in c.execute(info.where(rounds.c.id.in_(list(spots)))):
        if cards is None:
            wrong.append(f"round {round_id}: settled without cards")
            continue
        coup = deal(parse_cards(cards))
        ruleset = parse_ruleset(toml_text)
        for player, spot, stake, returned in spots[round_id]:
            due = ruleset.bet(spot).payout(coup).returned(stake) if ruleset.offers(spot) else None
            if due != returned:
                wrong.append(
                    f"round {round_id}, player {player}, {spot}: paid {returned}, rules say {due}"
                )
    return wrong
