"""Tables no longer dealt: finish their rounds in play and retire them, at a server's start.

A server deals only the tables it was started with. A table it was not started with has no
dealer, so a round of it left in play by an earlier server (a crash, then a restart with fewer
tables) would hold its stakes forever. At start, in one transaction, each such round is
finished by the crash policy without a reveal (``baccarat.table.undealt_action``): settled on
its stored cards, or voided with every stake returned; both are audited. The table is then
marked retired (``game_tables.retired_at``), and a table the server deals is marked dealt
again. ``ledger check`` fails on any round in play of a retired table.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from sqlalchemy import Connection, select, update

from baccarat.rulesets import parse_ruleset
from baccarat.store.audit_log import append_audit
from baccarat.store.rounds import RoundRow, get_round
from baccarat.store.schema import game_tables, rounds, shoes
from baccarat.store.settlement import settle_round, void_round
from baccarat.table import UNDEALT_VOID_REASON, Phase, undealt_action

__all__ = ["UndealtRound", "finish_undealt_tables"]

_IN_PLAY = [phase.value for phase in Phase if not phase.final]


@dataclass(frozen=True, slots=True)
class UndealtRound:
    """A round of a table no longer dealt, as the start-up finished it."""

    round_id: int
    table_id: str
    phase: Phase
    #: What each player got back (a void's stakes, a settlement's returns).
    returned: dict[str, int]


def finish_undealt_tables(
    connection: Connection, dealt: Collection[str], at: int
) -> list[UndealtRound]:
    """Finish every round in play of a table not in ``dealt``; retire those tables."""
    query = (
        select(rounds.c.id)
        .where(rounds.c.phase.in_(_IN_PLAY), rounds.c.table_id.not_in(sorted(dealt)))
        .order_by(rounds.c.id)
    )
    finished = [_finish(connection, round_id, at) for round_id in connection.scalars(query)]
    connection.execute(
        update(game_tables)
        .where(game_tables.c.id.not_in(sorted(dealt)), game_tables.c.retired_at.is_(None))
        .values(retired_at=at)
    )
    connection.execute(
        update(game_tables)
        .where(game_tables.c.id.in_(sorted(dealt)), game_tables.c.retired_at.is_not(None))
        .values(retired_at=None)
    )
    return [round_ for round_ in finished if round_ is not None]


def _finish(connection: Connection, round_id: int, at: int) -> UndealtRound | None:
    row = get_round(connection, round_id, lock=True)
    assert row is not None
    action = undealt_action(row.phase, has_cards=row.cards is not None)
    if action == "void":
        voided = void_round(connection, row, UNDEALT_VOID_REASON, at)
        assert voided is not None  # an unfinished round, locked
        return UndealtRound(row.id, row.table_id, voided.change.row.phase, voided.returned)
    if action == "settle":
        return _settle(connection, row, at)
    return None


def _settle(connection: Connection, row: RoundRow, at: int) -> UndealtRound:
    query = select(shoes.c.ruleset_toml).where(shoes.c.id == row.shoe_id)
    toml_text: str = connection.execute(query).scalar_one()
    ruleset = parse_ruleset(toml_text)
    settled = settle_round(connection, row, row.state.coup, ruleset, at)
    assert settled is not None  # a dealt round, locked
    returned = {player: s.returned for player, s in settled.players.items()}
    details = {
        "round": row.id,
        "table": row.table_id,
        "reason": "the table is no longer dealt; settled on its stored cards",
        "returned": returned,
    }
    append_audit(connection, at, "system:dealer", "round_settle", details)
    return UndealtRound(row.id, row.table_id, settled.change.row.phase, returned)
