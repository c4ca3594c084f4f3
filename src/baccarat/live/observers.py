"""Observers of the dealer's steps: awaited where the dealer is, as it gets there.

Subscribers (``baccarat.live.events``) hear what happened and never hold the dealer; an
observer is told the dealer *is* at a step of a round and is awaited before the dealer goes
on. The steps are ``open`` (the deadline reached, before the close), ``closing`` (closed,
before the first card is drawn), ``dealing`` (two cards turned) and ``settling`` (inside the
settlement's transaction, before its commit: ``in_transaction`` runs on the writer thread).
The crash tests install one that stops the dealer at a step (``baccarat.server.pause``);
nothing else needs to, and with no observer a step costs a loop over an empty list.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol, get_args

__all__ = ["STEPS", "Observer", "Step", "StepName"]

StepName = Literal["open", "closing", "dealing", "settling"]
STEPS: tuple[StepName, ...] = get_args(StepName)


@dataclass(frozen=True, slots=True)
class Step:
    """The dealer of ``table_id`` is at step ``name`` of round ``round_id``."""

    name: StepName
    table_id: str
    round_id: int
    #: Whether players have stakes on the round.
    has_bets: bool


class Observer(Protocol):
    """Told each step; the dealer waits for it."""

    async def at(self, step: Step) -> None: ...

    def in_transaction(self, step: Step) -> None: ...
