"""One table event as every node receives it: the message, and the table's state after it.

The dealer's live table makes a ``Broadcast`` per event (and one without an event when its
state changed silently, such as the cards being stored). One node hands it straight to its
table mirror; a cluster sends it through Redis to the mirror of every node. It carries all
a mirror needs to serve a newcomer without asking the dealer: the public snapshot and the
rule set in play. A player's own part of a ``settled`` or ``round_void`` travels beside the
public event and is joined to it only in that player's copy, on the node they are connected to.

>>> b = Broadcast("ez", 7, '{"type":"card"}', {"type": "card"}, {}, {"seq": 7}, "name = 'ez'")
>>> Broadcast.list_from_json(Broadcast.list_to_json([b])) == [b]
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

__all__ = ["Broadcast"]


@dataclass(frozen=True, slots=True)
class Broadcast:
    """Event ``seq`` of table ``table_id`` (``text`` ``None``: only its state changed)."""

    table_id: str
    seq: int
    #: The public message, serialized once for every client.
    text: str | None
    #: The public message's fields, to which a player's own part is added (``None`` when no
    #: player has one).
    event: dict[str, Any] | None
    #: Each player's own part (their results, what came back), by player id.
    own: dict[str, dict[str, Any]]
    #: The table as a newcomer's snapshot shows it, after this event.
    snapshot: dict[str, Any]
    #: The rule set in play (its TOML text), for the bets taken on any node.
    ruleset_toml: str

    @staticmethod
    def list_to_json(broadcasts: list[Broadcast]) -> str:
        """Several broadcasts, in order, as one JSON text (one Redis Stream entry).

        >>> b = Broadcast("ez", 7, None, None, {}, {"seq": 7}, "")
        >>> Broadcast.list_from_json(Broadcast.list_to_json([b, b])) == [b, b]
        True
        """
        return json.dumps([b._fields() for b in broadcasts], separators=(",", ":"))

    @classmethod
    def list_from_json(cls, text: str | bytes) -> list[Broadcast]:
        """The broadcasts of ``list_to_json``, or the one broadcast of an entry a node of an
        earlier version wrote (a single object) while the cluster is being upgraded.

        >>> b = Broadcast("ez", 7, None, None, {}, {"seq": 7}, "")
        >>> Broadcast.list_from_json(Broadcast.list_to_json([b])[1:-1]) == [b]  # one object
        True
        """
        data = json.loads(text)
        return [cls._of(item) for item in data] if isinstance(data, list) else [cls._of(data)]

    def _fields(self) -> dict[str, Any]:
        return {
            "table_id": self.table_id,
            "seq": self.seq,
            "text": self.text,
            "event": self.event,
            "own": self.own,
            "snapshot": self.snapshot,
            "ruleset": self.ruleset_toml,
        }

    @classmethod
    def _of(cls, data: dict[str, Any]) -> Broadcast:
        return cls(
            data["table_id"],
            int(data["seq"]),
            data["text"],
            data["event"],
            data["own"],
            data["snapshot"],
            data["ruleset"],
        )
