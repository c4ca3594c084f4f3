"""The integrity monitor's alerts as stored: appended as raised, read back per table.

The monitor itself (``baccarat.integrity.monitor``) lives in memory; what it raised is kept
here, so the back office and an audit find every alert after a restart.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import Connection, select

from baccarat.store.schema import integrity_alerts

__all__ = ["add_alerts", "alerts_of"]


def add_alerts(connection: Connection, alerts: Iterable[Mapping[str, Any]]) -> int:
    """Append alerts (``Alert.to_json()`` dicts) in the caller's transaction; how many."""
    rows = [
        {
            "table_id": alert["table"],
            "kind": alert["kind"],
            "key": alert["key"],
            "scope": alert["scope"],
            "subject": alert["subject"],
            "round_id": alert["round"],
            "shoe_id": alert["shoe"],
            "raised_at": alert["at_ms"],
            "z": float(alert["z"]),
            "p_value": float(alert["p_value"]),
            "alpha": float(alert["alpha"]),
            "detail": json.dumps(alert["detail"], sort_keys=True, separators=(",", ":")),
        }
        for alert in alerts
    ]
    if rows:
        connection.execute(integrity_alerts.insert(), rows)
    return len(rows)


def alerts_of(connection: Connection, table_id: str, limit: int = 200) -> list[dict[str, Any]]:
    """A table's alerts, the latest first (at most ``limit``)."""
    query = (
        select(integrity_alerts)
        .where(integrity_alerts.c.table_id == table_id)
        .order_by(integrity_alerts.c.raised_at.desc(), integrity_alerts.c.id.desc())
        .limit(limit)
    )
    result = []
    for row in connection.execute(query).mappings():
        item = dict(row)
        item["detail"] = json.loads(item["detail"])
        result.append(item)
    return result
