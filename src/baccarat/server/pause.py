"""The dealer's checkpoints, and the test-only observer that stops it at one (crash tests).

The dealer reports four checkpoints of each round that has bets: ``open`` (the deadline
reached, before the close), ``closing`` (closed, before the cards are drawn), ``dealing``
(cards stored, two revealed) and ``settling`` (inside the settlement transaction, before its
commit). Nobody listens, and reporting costs one lookup, unless ``baccarat serve`` installed
the observer: it does so only when ``BACCARAT_TEST_PAUSE_AT`` names a point. The observer then
stops the first round with bets to reach that point, writes ``baccarat-test-pause: <point>
round <id>`` to stderr, and holds the dealer there for the test to kill the process.

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
from typing import Literal, get_args

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
Checkpoint = Literal["open", "closing", "dealing", "settling"]
POINTS: tuple[Checkpoint, ...] = get_args(Checkpoint)
_HOLD_SECONDS = 3600.0


class PauseAt:
    """Stops the dealer once, at ``point`` of the first round with bets that reaches it."""

    def __init__(self, point: Checkpoint) -> None:
        self.point = point
        self.done = False

    def wants(self, point: Checkpoint) -> bool:
        """Whether reaching ``point`` now would stop the dealer."""
        return point == self.point and not self.done

    def _announce(self, point: Checkpoint, round_id: int) -> None:
        self.done = True
        print(f"baccarat-test-pause: {point} round {round_id}", file=sys.stderr, flush=True)

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
