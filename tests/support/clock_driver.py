"""Driving a server's virtual clock from a test: settle, advance, step, and the table's round.

``ClockDriver`` needs three things of the class it is mixed into: ``get(path)`` (a 2xx answer
as JSON), ``post_clock(ms)`` (``POST /api/test/clock``; the clock's state after it) and
``sleepers`` (how many sleeps a table at rest holds: one per dealer). ``ServerProcess`` drives
a server in its own process over HTTP; the accounts tests' ``Service`` drives an app run
in-process by ``TestClient`` (as a loopback caller, which the clock's route requires).

After each move the test waits, in real time and generously, for every dealer to be asleep
again before it looks: what it then reads stays so until its next move.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["ADVANCE_S", "SETTLE_S", "ClientClock", "ClockDriver", "wait_until"]

T = TypeVar("T")

#: Real seconds a test waits for the dealers to sleep again after a move of the virtual
#: clock, and for a condition it steps the clock towards: generous, for a loaded machine.
SETTLE_S = 60.0
ADVANCE_S = 120.0
#: The most of a window ``open_round`` wants still to run (virtual milliseconds).
MIN_LEFT_MS = 10_000


def wait_until(check: Callable[[], T | None], timeout: float, what: str, step: float = 0.02) -> T:
    """Poll ``check`` until it returns something other than ``None``/``False``."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value is not None and value is not False:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        time.sleep(step)


class ClockDriver:
    """Moves a virtual clock and waits for the dealers to rest after each move."""

    sleepers: int

    def get(self, path: str) -> Any:
        raise NotImplementedError

    def post_clock(self, ms: int) -> dict[str, Any]:
        raise NotImplementedError

    def clock_state(self) -> dict[str, Any]:
        """The virtual clock: ``now_ms``, ``sleeping`` (sleeps waiting) and ``next_ms``."""
        state: dict[str, Any] = self.get("/api/test/clock")
        return state

    def settle(self, timeout: float = SETTLE_S) -> dict[str, Any]:
        """Wait (real time) until every dealer sleeps on the virtual clock; its state."""
        return wait_until(
            lambda: (state := self.clock_state())["sleeping"] >= self.sleepers and state,
            timeout,
            f"{self.sleepers} dealer(s) to wait on the virtual clock",
        )

    def advance(self, ms: int, *, settle: bool = True) -> int:
        """Move the virtual clock ``ms`` ahead (the sleeps it passes wake, earliest first),
        then wait for the dealers to be asleep again; the new time."""
        now: int = self.post_clock(ms)["now_ms"]
        if settle:
            self.settle()
        return now

    def step(self) -> int:
        """Move the virtual clock to the next deadline a dealer waits for (one step of one
        table: a card, a result's end), or, when every table takes bets, to the first
        window's close; the new time."""
        state = self.settle()
        now, target = state["now_ms"], state["next_ms"]
        rounds = [view["round"] for view in self.get("/api/tables")]
        if rounds and all(state and state["phase"] == "open" for state in rounds):
            # Until its close a window's dealer wakes only to show the stakes (every half
            # second): a step goes straight to the close.
            target = min(state["closes_at_ms"] for state in rounds)
        return self.advance(max(1, target - now))

    def close_bets(self, table_id: str = "standard") -> int:
        """Move the virtual clock to the close of ``table_id``'s open window (the dealer
        closes it there); the new time."""
        view = self.get(f"/api/tables/{table_id}")
        state = view["round"]
        assert state and state["phase"] == "open", f"no window open at {table_id}: {state}"
        return self.advance(max(0, state["closes_at_ms"] - self.clock_state()["now_ms"]))

    def advance_until(
        self, check: Callable[[], T | None], what: str, timeout: float = ADVANCE_S
    ) -> T:
        """Step the virtual clock until ``check`` returns something other than ``None`` or
        ``False`` (looked at only while the dealers sleep); that value."""
        deadline = time.monotonic() + timeout
        while True:
            self.settle()
            value = check()
            if value is not None and value is not False:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out after {timeout}s stepping the clock to {what}")
            self.step()

    def open_round(self, table_id: str = "standard", after: int = 0) -> dict[str, Any]:
        """Step until ``table_id`` has a round open for bets with an id above ``after`` and
        at least half its window (ten seconds at most) still to run, so that the test's own
        small moves stay inside it whatever moves came before; the table's view."""
        deadline = time.monotonic() + ADVANCE_S
        while True:
            self.settle()
            view: dict[str, Any] = self.get(f"/api/tables/{table_id}")
            state = view["round"]
            enough = min(MIN_LEFT_MS, view["settings"]["betting_ms"] // 2)
            if (
                state
                and state["phase"] == "open"
                and state["id"] > after
                and state["closes_at_ms"] - view["now"] >= enough
            ):
                return view
            if time.monotonic() > deadline:
                raise AssertionError(f"no round of {table_id} opened after {after}")
            if state and state["phase"] == "open":
                self.close_bets(table_id)  # a round before the one wanted: on to its close
            else:
                self.step()

    def play_rounds(self, count: int, table_id: str = "standard", stride_ms: int = 120_000) -> int:
        """Deal ``count`` rounds at every table in long strides of the clock (each stride wakes
        every dealer once, whatever its wait), until ``table_id`` opens the round ``count``
        after the one it has now; that round's id. Far cheaper than ``step`` when several
        tables deal and nobody looks between the cards."""
        state = self.get(f"/api/tables/{table_id}")["round"]
        target = (state["id"] if state else 0) + count
        deadline = time.monotonic() + ADVANCE_S
        while True:
            state = self.get(f"/api/tables/{table_id}")["round"]
            if state and state["phase"] == "open" and state["id"] >= target:
                return int(state["id"])
            if time.monotonic() > deadline:
                raise AssertionError(f"{table_id} did not reach round {target}")
            self.advance(stride_ms)


class ClientClock(ClockDriver):
    """The virtual clock of an app run in-process, driven through its ``TestClient`` (made
    with ``client=("127.0.0.1", ...)``: the clock's route answers only loopback callers)."""

    def __init__(self, client: Any, sleepers: int = 1) -> None:
        self.client = client
        self.sleepers = sleepers

    def get(self, path: str) -> Any:
        response = self.client.get(path)
        response.raise_for_status()
        return response.json()

    def post_clock(self, ms: int) -> dict[str, Any]:
        response = self.client.post("/api/test/clock", json={"advance_ms": ms})
        response.raise_for_status()
        state: dict[str, Any] = response.json()
        return state
