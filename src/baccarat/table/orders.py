"""What a player asks of the bet path, and what an accepted request answers.

A ``BetOrder`` is one request of one player on one round: place bets, repeat the previous
round's bets (``rebet``, ``double``), take back every bet (``undo``) or only the last
accepted request (``undo_last``). A ``BetReceipt`` is an accepted request: what it added or
gave back, and where the player stands. A refused request is a ``baccarat.refusals.Refusal``.

>>> order = BetOrder("p1", "standard", 7, "place", {"player": 1_000}, key="k1")
>>> order.action, dict(order.bets)
('place', {'player': 1000})
>>> receipt = BetReceipt(7, "place", {"player": 1_000}, {"player": 1_000}, balance=9_000)
>>> receipt.to_json()
{'round_id': 7, 'action': 'place', 'accepted': {'player': 1000}, 'bets': {'player': 1000}, \
'balance': 9000, 'returned': 0}
>>> BetReceipt.from_json(receipt.to_json()).replayed
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["Action", "BetOrder", "BetReceipt"]

#: What a request asks: ``undo`` takes back every bet of the player's on the round,
#: ``undo_last`` only the last accepted request (its receipt's action is ``undo``).
Action = Literal["place", "rebet", "double", "undo", "undo_last"]


@dataclass(frozen=True, slots=True)
class BetOrder:
    """One request of one player on one round.

    ``round_id`` is ``None`` for an undo of the open round sent while none was open: it is
    refused (``betting_closed``) unless its Idempotency-Key replays an earlier answer.
    """

    player_id: str
    table_id: str
    round_id: int | None
    action: Action
    bets: Mapping[str, int] = field(default_factory=dict)
    #: The Idempotency-Key and a hash of the request it came with.
    key: str | None = None
    request_hash: str = ""
    #: The hash of the bearer token's session, checked live in the batch's transaction.
    session_hash: str | None = None


@dataclass(frozen=True, slots=True)
class BetReceipt:
    """An accepted request: what it added (or, for undo, returned) and where the player stands.

    ``replayed`` says the answer is the one remembered under the request's Idempotency-Key.
    """

    round_id: int
    action: Action
    accepted: dict[str, int]
    bets: dict[str, int]
    balance: int
    returned: int = 0
    replayed: bool = False

    def to_json(self) -> dict[str, Any]:
        """The API's answer (``replayed`` is not part of it)."""
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
        """A remembered answer, replayed."""
        return cls(
            round_id=data["round_id"],
            action=data["action"],
            accepted=dict(data["accepted"]),
            bets=dict(data["bets"]),
            balance=data["balance"],
            returned=data["returned"],
            replayed=True,
        )
