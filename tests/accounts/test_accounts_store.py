"""The store side: a void is audited in its own transaction; the bet gate refuses in a batch."""

from __future__ import annotations

from accounts_support import clock_at, db_url_fixture  # noqa: F401
from sqlalchemy import func, select

from baccarat.refusals import Refusal
from baccarat.responsible import NO_LIMITS, LimitKind, Period, request_change
from baccarat.responsible.instants import from_epoch_ms
from baccarat.rulesets import load_ruleset
from baccarat.store import Database, upgrade
from baccarat.store.audit_log import audit_rows, verify_audit_log
from baccarat.store.clock import db_now
from baccarat.store.placement import place_batch
from baccarat.store.players import create_player, new_token
from baccarat.store.responsible import Controls, save_controls
from baccarat.store.rounds import get_round, open_round
from baccarat.store.schema import bets, ledger_entries
from baccarat.store.seal import SeedVault
from baccarat.store.settlement import void_round
from baccarat.store.shoes import register_table, start_shoe
from baccarat.table import BetOrder, BetReceipt


def _table(database: Database) -> int:
    with database.write() as c:
        now = db_now(c)
        register_table(c, "standard", "standard", {}, now)
        start_shoe(
            c,
            shoe_id="s1",
            table_id="standard",
            decks=8,
            ruleset_toml=load_ruleset("standard").to_toml(),
            server_seed=b"\0" * 32,
            commitment="0" * 64,
            at=now,
            vault=SeedVault.ephemeral(),
        )
        row = open_round(c, table_id="standard", shoe_id="s1", number=1, betting_ms=60_000).row
        return row.id


def test_a_void_is_audited_with_what_it_returned(db_url: str) -> None:
    database = Database(db_url)
    try:
        upgrade(database)
        round_id = _table(database)
        with database.write() as c:
            player = create_player(c, new_token(), 10_000, db_now(c))
        order = BetOrder(player, "standard", round_id, "place", {"player": 2_500})
        with database.write() as c:
            [receipt] = place_batch(c, [order])
        assert isinstance(receipt, BetReceipt)
        with database.write() as c:
            row = get_round(c, round_id)
            assert row is not None
            void_round(c, row, "restarted before the cards were drawn", db_now(c))
        with database.read() as c:
            [record] = audit_rows(c)
            assert verify_audit_log(c) == []
        assert record["action"] == "round_void" and record["actor"] == "system:dealer"
        assert f'"{player}":2500' in record["details"]
    finally:
        database.dispose()


def test_the_bet_gate_counts_earlier_requests_of_the_same_batch(db_url: str) -> None:
    database = Database(db_url)
    try:
        upgrade(database)
        round_id = _table(database)
        clock = clock_at(db_now_ms(database))
        with database.write() as c:
            at = db_now(c)
            player = create_player(c, new_token(), 100_000, at)
            limits, _ = request_change(
                NO_LIMITS, LimitKind.WAGER, Period.DAY, 3_000, from_epoch_ms(at)
            )
            save_controls(c, player, Controls(limits=limits), at)
        orders = [
            BetOrder(player, "standard", round_id, "place", {"player": stake})
            for stake in (1_000, 1_500, 600, 500)
        ]
        with database.write() as c:
            entries = int(c.scalar(select(func.count()).select_from(ledger_entries)) or 0)
            results = place_batch(c, orders, policy_now_ms=clock())
        accepted = [isinstance(r, BetReceipt) for r in results]
        assert accepted == [True, True, False, True]
        refusal = results[2]
        assert isinstance(refusal, Refusal) and refusal.code == "limit_exceeded"
        assert refusal.message == "wager limit (24 hours) reached: 5.00 left of 30.00"
        with database.read() as c:
            assert c.scalar(select(func.sum(bets.c.stake))) == 3_000
            # Two entries per accepted request, none for the refused one.
            assert c.scalar(select(func.count()).select_from(ledger_entries)) == entries + 6
    finally:
        database.dispose()


def db_now_ms(database: Database) -> int:
    with database.read() as c:
        return db_now(c)
