"""What operators set for a table: whether new rounds open, and settings for the next shoe.

A table without a row is open with the settings it was started with. ``status`` is read by
the table's dealer before it opens each round: ``paused`` or ``closed`` and no round opens
(the round in play finishes first). ``pending`` holds a change (a rule set as TOML, with its
limits; timings and dealing mode) that the dealer applies when it starts the next shoe, moving
it into ``applied``, which a restarted dealer applies again. Each part is a JSON object::

    {"ruleset_toml": "...", "settings": {"betting_ms": 12000, "dealing": "face-down"}}

An operator's request to end the shoe in play early is ``pending`` too (``"new_shoe": true``),
so it holds across a restart or a failover; it is dropped, not applied, when the next shoe
starts.

>>> merge({"settings": {"betting_ms": 1}}, {"settings": {"reveal_ms": 2}, "ruleset_toml": "x"})
{'settings': {'betting_ms': 1, 'reveal_ms': 2}, 'ruleset_toml': 'x'}
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, select, update

from baccarat.store.schema import table_controls

__all__ = [
    "NEW_SHOE",
    "STATUSES",
    "TableControl",
    "get_control",
    "merge",
    "set_pending",
    "set_status",
    "take_pending",
]

#: Whether rounds open: ``open``; ``paused`` (a short stop) or ``closed`` (out of service).
STATUSES = ("open", "paused", "closed")
#: The key of ``pending`` that asks for a new shoe after the round in play.
NEW_SHOE = "new_shoe"


@dataclass(frozen=True, slots=True)
class TableControl:
    """A table's stored controls."""

    table_id: str
    status: str = "open"
    pending: dict[str, Any] | None = None
    applied: dict[str, Any] | None = None

    @property
    def new_shoe(self) -> bool:
        """Whether an operator asked for a new shoe after the round in play."""
        return bool(self.pending and self.pending.get(NEW_SHOE))


def _json(text: str | None) -> dict[str, Any] | None:
    if text is None:
        return None
    value: dict[str, Any] = json.loads(text)
    return value


def _text(value: dict[str, Any] | None) -> str | None:
    return None if value is None else json.dumps(value, sort_keys=True)


def merge(base: dict[str, Any] | None, change: dict[str, Any]) -> dict[str, Any]:
    """``change`` over ``base``: a later change of a setting wins, the others stay."""
    merged = dict(base or {})
    for key, value in change.items():
        if key == "settings":
            merged["settings"] = {**merged.get("settings", {}), **value}
        else:
            merged[key] = value
    return merged


def get_control(connection: Connection, table_id: str, *, lock: bool = False) -> TableControl:
    """The table's controls (open, nothing pending, for a table without a row)."""
    query = select(table_controls).where(table_controls.c.table_id == table_id)
    if lock and connection.dialect.name == "postgresql":
        query = query.with_for_update()
    row = connection.execute(query).first()
    if row is None:
        return TableControl(table_id)
    return TableControl(table_id, row.status, _json(row.pending), _json(row.applied))


def _save(connection: Connection, control: TableControl, at: int) -> None:
    values = {
        "status": control.status,
        "pending": _text(control.pending),
        "applied": _text(control.applied),
        "updated_at": at,
    }
    done = connection.execute(
        update(table_controls).where(table_controls.c.table_id == control.table_id).values(**values)
    ).rowcount
    if not done:
        connection.execute(table_controls.insert().values(table_id=control.table_id, **values))


def set_status(connection: Connection, table_id: str, status: str, at: int) -> TableControl:
    """Set whether rounds open; returns the controls as they were."""
    if status not in STATUSES:
        raise ValueError(f"a table status is one of {', '.join(STATUSES)}, not {status!r}")
    before = get_control(connection, table_id, lock=True)
    _save(connection, TableControl(table_id, status, before.pending, before.applied), at)
    return before


def set_pending(
    connection: Connection, table_id: str, change: dict[str, Any], at: int
) -> TableControl:
    """Add ``change`` to what waits for the next shoe; returns the controls after."""
    before = get_control(connection, table_id, lock=True)
    after = TableControl(table_id, before.status, merge(before.pending, change), before.applied)
    _save(connection, after, at)
    return after


def take_pending(connection: Connection, table_id: str, at: int) -> dict[str, Any] | None:
    """At a new shoe: move what was pending into what applies; returns what applies now
    (``None``: the table's own settings)."""
    before = get_control(connection, table_id, lock=True)
    if before.pending is None:
        return before.applied
    change = {key: value for key, value in before.pending.items() if key != NEW_SHOE}
    applied = merge(before.applied, change) if change else before.applied
    _save(connection, TableControl(table_id, before.status, None, applied), at)
    return applied
