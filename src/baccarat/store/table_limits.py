"""The limits an operator sets for a table, stored until the next round opens.

A change is queued (``queue_limits``), never applied to the round in play: its bets were
placed under the limits it opened with. The dealer takes it when it opens the next round
(``take_limits``, in the opening's own transaction, so no bet can be open under it yet) and
stores every bet's limits with that round (``rounds.limits``); the bet path, a restarted
dealer and the round's views read them there. A table without a row plays its rule set's
own limits. Both parts are ``TableLimits.to_json`` objects.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass

from sqlalchemy import Connection, select, update

from baccarat.rulesets import RuleSet
from baccarat.store.schema import table_limits
from baccarat.table.limits import LimitsError, TableLimits, bet_limits, limits_text

__all__ = ["LimitsRow", "get_limits", "limits_for", "opening_limits", "queue_limits", "take_limits"]

log = logging.getLogger("baccarat.store")


@dataclass(frozen=True, slots=True)
class LimitsRow:
    """A table's limits: those of its newest round, and those waiting for the next."""

    table_id: str
    current: TableLimits | None = None
    pending: TableLimits | None = None


def _limits(text: str | None) -> TableLimits | None:
    return None if text is None else TableLimits.from_json(json.loads(text))


def _text(limits: TableLimits | None) -> str | None:
    return None if limits is None else json.dumps(limits.to_json(), sort_keys=True)


def get_limits(connection: Connection, table_id: str, *, lock: bool = False) -> LimitsRow:
    """The table's limits (nothing set, for a table without a row)."""
    query = select(table_limits).where(table_limits.c.table_id == table_id)
    if lock and connection.dialect.name == "postgresql":
        query = query.with_for_update()
    row = connection.execute(query).first()
    if row is None:
        return LimitsRow(table_id)
    return LimitsRow(table_id, _limits(row.current), _limits(row.pending))


def _save(connection: Connection, row: LimitsRow, at: int) -> None:
    values = {"current": _text(row.current), "pending": _text(row.pending), "updated_at": at}
    done = connection.execute(
        update(table_limits).where(table_limits.c.table_id == row.table_id).values(**values)
    ).rowcount
    if not done:
        connection.execute(table_limits.insert().values(table_id=row.table_id, **values))


def queue_limits(connection: Connection, table_id: str, limits: TableLimits, at: int) -> LimitsRow:
    """Queue ``limits`` for the table's next round (a later change replaces an earlier one
    still waiting); returns the row as it was."""
    before = get_limits(connection, table_id, lock=True)
    _save(connection, LimitsRow(table_id, before.current, limits), at)
    return before


def take_limits(connection: Connection, table_id: str, at: int) -> TableLimits | None:
    """At a round's opening: what waited applies from now; returns the limits the round opens
    under (``None``: the rule set's own)."""
    before = get_limits(connection, table_id, lock=True)
    if before.pending is None:
        return before.current
    _save(connection, LimitsRow(table_id, before.pending, None), at)
    return before.pending


def limits_for(ruleset: RuleSet, limits: TableLimits | None) -> str | None:
    """Every bet's limits under ``limits`` on a shoe of ``ruleset``, as a round keeps them;
    ``None`` for the rule set's own (none set, or limits this rule set cannot take: a new
    shoe's rule set may offer other bets than the one they were checked against)."""
    if limits is None:
        return None
    try:
        return limits_text(bet_limits(ruleset, limits))
    except LimitsError as error:
        log.warning("limits %s do not fit rule set %r (%s)", limits, ruleset.name, error)
        return None


def opening_limits(connection: Connection, table_id: str, ruleset: RuleSet, at: int) -> str | None:
    """In a round's opening transaction: take what waits (``take_limits``) and answer every
    bet's limits for the round, on a shoe of ``ruleset``."""
    return limits_for(ruleset, take_limits(connection, table_id, at))
