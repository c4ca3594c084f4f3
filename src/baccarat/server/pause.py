"""A test-only hook that stops the dealer at a chosen point so a test can kill the process there.

``BACCARAT_TEST_PAUSE_AT`` names the point: ``open`` (the deadline reached, before the
close), ``closing`` (closed, before the cards are drawn), ``dealing`` (cards stored, two
revealed) or ``settling`` (inside the settlement transaction, before its commit). The
dealer stops at that point in the first round that has bets, writes a line
``baccarat-test-pause: <point> round <id>`` to stderr, and sleeps. Unset, it does nothing.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time

__all__ = ["ENV_VAR", "POINTS", "PauseHook"]

ENV_VAR = "BACCARAT_TEST_PAUSE_AT"
POINTS = ("open", "closing", "dealing", "settling")
_HOLD_SECONDS = 3600.0


class PauseHook:
    """Where to stop, and whether it has stopped already."""

    def __init__(self, point: str | None = None) -> None:
        if point is not None and point not in POINTS:
            raise ValueError(f"{ENV_VAR} must be one of {', '.join(POINTS)}, not {point!r}")
        self.point = point
        self.done = False

    @classmethod
    def from_env(cls) -> PauseHook:
        return cls(os.environ.get(ENV_VAR) or None)

    def armed(self, point: str) -> bool:
        return self.point == point and not self.done

    def _announce(self, point: str, round_id: int) -> None:
        self.done = True
        print(f"baccarat-test-pause: {point} round {round_id}", file=sys.stderr, flush=True)

    def hold(self, point: str, round_id: int) -> None:
        """Stop this thread (used inside a database transaction)."""
        self._announce(point, round_id)
        time.sleep(_HOLD_SECONDS)

    async def hold_async(self, point: str, round_id: int) -> None:
        """Stop the dealer's task."""
        self._announce(point, round_id)
        await asyncio.sleep(_HOLD_SECONDS)
