"""The crash tests' observer of the dealers' steps: it stops a dealer at one.

A dealer tells its observers each step of a round (``baccarat.live.observers``): ``open``
(the deadline reached, before the close), ``closing`` (closed, before the cards are drawn),
``dealing`` (cards stored, two revealed) and ``settling`` (inside the settlement transaction,
before its commit). A dealer has no observer unless ``baccarat serve`` installed this one: it
does so only when ``BACCARAT_TEST_PAUSE_AT`` names a step, and the service then adds it to
every dealer it starts. It stops the first round with bets to reach that step, writes
``baccarat-test-pause: <step> round <id>`` to stderr, and holds the dealer there for the test
to kill the process.

>>> observer() is None
True
>>> install_from_env({ENV_VAR: "sideways"})
Traceback (most recent call last):
...
ValueError: BACCARAT_TEST_PAUSE_AT must be one of open, closing, dealing, settling, not 'sideways'
>>> install_from_env({}) is None and observer() is None
True
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Mapping

from baccarat.live.observers import STEPS, Step, StepName

__all__ = [
    "ENV_VAR",
    "POINTS",
    "Checkpoint",
    "PauseAt",
    "install_from_env",
    "observer",
    "uninstall",
]

ENV_VAR = "BACCARAT_TEST_PAUSE_AT"
Checkpoint = StepName
POINTS: tuple[Checkpoint, ...] = STEPS
_HOLD_SECONDS = 3600.0


class PauseAt:
    """Stops a dealer once, at ``point`` of the first round with bets that reaches it (an
    observer of every dealer: ``baccarat.live.observers.Observer``)."""

    def __init__(self, point: Checkpoint) -> None:
        self.point = point
        self.done = False

    def wants(self, point: Checkpoint) -> bool:
        """Whether reaching ``point`` now would stop the dealer."""
        return point == self.point and not self.done

    def _announce(self, point: Checkpoint, round_id: int) -> None:
        self.done = True
        print(f"baccarat-test-pause: {point} round {round_id}", file=sys.stderr, flush=True)

    async def at(self, step: Step) -> None:
        """The dealer is at ``step``: hold it there if it is the point, with bets."""
        if step.has_bets and self.wants(step.name):
            await self.hold_async(step.name, step.round_id)

    def in_transaction(self, step: Step) -> None:
        """The dealer is at ``step`` inside a transaction: hold its thread there."""
        if step.has_bets and self.wants(step.name):
            self.hold(step.name, step.round_id)

    def hold(self, point: Checkpoint, round_id: int) -> None:
        """Stop this thread (used inside a database transaction)."""
        self._announce(point, round_id)
        time.sleep(_HOLD_SECONDS)

    async def hold_async(self, point: Checkpoint, round_id: int) -> None:
        """Stop the dealer's task."""
        self._announce(point, round_id)
        await asyncio.sleep(_HOLD_SECONDS)


_installed: PauseAt | None = None


def observer() -> PauseAt | None:
    """The observer of the dealers' checkpoints in this process, if one was installed."""
    return _installed


def install_from_env(environ: Mapping[str, str] = os.environ) -> PauseAt | None:
    """Install the observer if ``BACCARAT_TEST_PAUSE_AT`` names a point; a bad name is a
    ``ValueError`` (the command's one-line error)."""
    global _installed
    value = environ.get(ENV_VAR) or None
    if value is None:
        return None
    for point in POINTS:
        if value == point:
            _installed = PauseAt(point)
            return _installed
    raise ValueError(f"{ENV_VAR} must be one of {', '.join(POINTS)}, not {value!r}")


def uninstall() -> None:
    """Remove the observer: checkpoints are no longer heard."""
    global _installed
    _installed = None
