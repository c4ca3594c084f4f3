"""The trouble the reference wallet makes on purpose, so the game server's side can be tested.

Each wallet call draws, from one seeded ``random.Random``, what happens to it:

- ``latency_ms``: a fixed delay before anything else.
- ``error_rate``: an HTTP 500 answered BEFORE any money moves.
- ``timeout_rate``: it sleeps ``hang_ms`` (past any client's timeout), then moves the money
  as asked (or refuses), then closes the connection without an answer.
- ``drop_rate``: it moves the money, commits, then closes the connection without an answer.

>>> plan = FaultPlan(Faults(error_rate=1.0), seed=1)
>>> plan.draw("debit")
Fate(latency_s=0.0, error=True, timeout=False, hang_s=30.0, drop=False)
>>> FaultPlan(Faults(drop_rate=1.0, calls=frozenset({"credit"})), seed=1).draw("debit").drop
False
"""

from __future__ import annotations

import dataclasses
import random
import threading
from dataclasses import dataclass, field

__all__ = ["DEFAULT_HANG_MS", "Fate", "FaultPlan", "Faults", "check_faults"]

#: How long a "timeout" hangs: longer than any wallet timeout a game server should use.
DEFAULT_HANG_MS = 30_000
_ALL_CALLS = frozenset({"balance", "debit", "credit", "rollback"})


@dataclass(frozen=True)
class Faults:
    """Rates are probabilities in [0, 1]; ``calls``: the calls they apply to."""

    latency_ms: int = 0
    timeout_rate: float = 0.0
    error_rate: float = 0.0
    drop_rate: float = 0.0
    hang_ms: int = DEFAULT_HANG_MS
    calls: frozenset[str] = field(default=_ALL_CALLS)


def check_faults(faults: Faults) -> str | None:
    """Why ``faults`` cannot be used, or None.

    >>> check_faults(Faults(error_rate=1.5))
    'error_rate is a probability from 0 to 1'
    >>> check_faults(Faults(latency_ms=-1))
    'latency_ms is from 0 to 3600000 (an hour)'
    """
    for name in ("timeout_rate", "error_rate", "drop_rate"):
        if not 0.0 <= getattr(faults, name) <= 1.0:
            return f"{name} is a probability from 0 to 1"
    for name in ("latency_ms", "hang_ms"):
        if not 0 <= getattr(faults, name) <= 3_600_000:
            return f"{name} is from 0 to 3600000 (an hour)"
    unknown = faults.calls - _ALL_CALLS
    if unknown:
        return "unknown call " + ", ".join(sorted(unknown))
    return None


@dataclass(frozen=True)
class Fate:
    """What happens to one call."""

    latency_s: float
    error: bool
    #: Hang ``hang_s``, answer on the merits, then close the connection without the answer.
    timeout: bool
    hang_s: float
    drop: bool


class FaultPlan:
    """The faults in force and the seeded draws; ``update`` changes them while running."""

    def __init__(self, faults: Faults, seed: int | None = None) -> None:
        self._lock = threading.Lock()
        self._faults = faults
        self._rng = random.Random(seed)

    @property
    def faults(self) -> Faults:
        return self._faults

    def update(self, seed: int | None = None, **changes: object) -> Faults:
        """Change some faults (and re-seed, when ``seed`` is given); ``ValueError`` if bad."""
        with self._lock:
            faults = dataclasses.replace(self._faults, **changes)  # type: ignore[arg-type]
            problem = check_faults(faults)
            if problem is not None:
                raise ValueError(problem)
            self._faults = faults
            if seed is not None:
                self._rng = random.Random(seed)
            return faults

    def draw(self, call: str) -> Fate:
        with self._lock:
            faults, rng = self._faults, self._rng
            if call not in faults.calls:
                return Fate(0.0, False, False, 0.0, False)
            # Three draws every time, so one fault's rate does not shift another's sequence.
            error, hang, drop = rng.random(), rng.random(), rng.random()
            return Fate(
                latency_s=faults.latency_ms / 1000,
                error=error < faults.error_rate,
                timeout=hang < faults.timeout_rate,
                hang_s=faults.hang_ms / 1000,
                drop=drop < faults.drop_rate,
            )
