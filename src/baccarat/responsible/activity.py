"""A player's recent money activity, and its sums over rolling windows.

The limits are checked against what the player did in a window of time ending at ``now``.
An event counts in a window of length ``L`` when ``now - L < at``: an event exactly
``L`` old has just left the window; an event dated after ``now`` (a clock stepped back)
still counts, so it cannot hide from a limit.

- **Wagered**: the sum of the stakes accepted in the window, settled or not.
- **Net loss** (worst case): for every bet accepted in the window, its stake minus what it
  returned (stake included); a bet not yet settled counts as lost entirely. Winnings
  offset losses, so the net loss is negative after a winning spell. A bet belongs to the
  moment it was accepted, so its result falls in the same window as its stake.
- **Deposited**: the sum of the deposits in the window (withdrawals do not reduce it).

A voided or undone bet took no risk: the caller leaves it out of ``wagers``.

>>> from datetime import UTC, datetime, timedelta
>>> now = datetime(2024, 6, 1, 12, tzinfo=UTC)
>>> activity = Activity(
...     wagers=(
...         Wager(now - timedelta(hours=30), stake=1000, returned=0),     # lost, 30 h ago
...         Wager(now - timedelta(hours=2), stake=500, returned=1000),    # won 500
...         Wager(now - timedelta(minutes=1), stake=200),                 # not settled yet
...     ),
...     deposits=(Deposit(now - timedelta(days=3), 5000),),
... )
>>> day, week = timedelta(hours=24), timedelta(days=7)
>>> activity.wagered(now, day), activity.net_loss(now, day), activity.net_loss(now, week)
(700, -300, 700)
>>> activity.deposited(now, day), activity.deposited(now, week)
(0, 5000)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from baccarat.responsible.instants import require_aware

__all__ = ["NO_ACTIVITY", "Activity", "Deposit", "Totals", "Wager"]


def _check_amount(value: object, what: str, *, positive: bool) -> None:
    low = 1 if positive else 0
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        kind = "a positive" if positive else "a non-negative"
        raise ValueError(f"{what} must be {kind} integer of minor units, not {value!r}")


@dataclass(frozen=True, slots=True)
class Wager:
    """One accepted stake: when, how much, and what it returned once settled (``None`` before)."""

    at: datetime
    stake: int
    #: Paid back to the player, stake included (0 for a lost bet); ``None`` while unsettled.
    returned: int | None = None

    def __post_init__(self) -> None:
        require_aware(self.at, "a wager's time")
        _check_amount(self.stake, "a stake", positive=True)
        if self.returned is not None:
            _check_amount(self.returned, "a returned amount", positive=False)

    @property
    def settled(self) -> bool:
        return self.returned is not None

    @property
    def worst_loss(self) -> int:
        """What this bet has cost or may still cost: the stake minus the return (0 if open)."""
        return self.stake - (self.returned or 0)

    def settle(self, returned: int) -> Wager:
        """The same wager once paid ``returned`` (stake included)."""
        return replace(self, returned=returned)


@dataclass(frozen=True, slots=True)
class Deposit:
    """Money the player moved in through the cashier."""

    at: datetime
    amount: int

    def __post_init__(self) -> None:
        require_aware(self.at, "a deposit's time")
        _check_amount(self.amount, "a deposit", positive=True)


def _within(at: datetime, now: datetime, length: timedelta) -> bool:
    return now - length < at


@dataclass(frozen=True, slots=True)
class Totals:
    """The three sums of one window."""

    wagered: int = 0
    net_loss: int = 0
    deposited: int = 0


@dataclass(frozen=True, slots=True)
class Activity:
    """The wagers and deposits of one player (at least the last 30 days of them)."""

    wagers: tuple[Wager, ...] = ()
    deposits: tuple[Deposit, ...] = ()

    def __post_init__(self) -> None:
        # Accept any iterable from the caller but hold tuples, so the value stays immutable.
        object.__setattr__(self, "wagers", tuple(self.wagers))
        object.__setattr__(self, "deposits", tuple(self.deposits))

    def wagered(self, now: datetime, length: timedelta) -> int:
        """The stakes accepted in the window of ``length`` ending at ``now``."""
        require_aware(now)
        return sum(w.stake for w in self.wagers if _within(w.at, now, length))

    def net_loss(self, now: datetime, length: timedelta) -> int:
        """The worst-case net loss of the bets accepted in the window (negative: a net win)."""
        require_aware(now)
        return sum(w.worst_loss for w in self.wagers if _within(w.at, now, length))

    def deposited(self, now: datetime, length: timedelta) -> int:
        """The deposits made in the window of ``length`` ending at ``now``."""
        require_aware(now)
        return sum(d.amount for d in self.deposits if _within(d.at, now, length))

    def totals(self, now: datetime, lengths: Iterable[timedelta]) -> dict[timedelta, Totals]:
        """The sums of every window of ``lengths`` ending at ``now``, in one pass.

        >>> from datetime import UTC, datetime
        >>> t = datetime(2024, 1, 1, tzinfo=UTC)
        >>> day = timedelta(days=1)
        >>> Activity((Wager(t - 2 * day, 100, 0), Wager(t, 50, 80))).totals(t, [day, 7 * day])[day]
        Totals(wagered=50, net_loss=-30, deposited=0)
        """
        require_aware(now)
        starts = {length: now - length for length in lengths}
        wagered = dict.fromkeys(starts, 0)
        lost = dict.fromkeys(starts, 0)
        deposited = dict.fromkeys(starts, 0)
        for w in self.wagers:
            for length, start in starts.items():
                if start < w.at:
                    wagered[length] += w.stake
                    lost[length] += w.worst_loss
        for d in self.deposits:
            for length, start in starts.items():
                if start < d.at:
                    deposited[length] += d.amount
        return {
            length: Totals(wagered[length], lost[length], deposited[length]) for length in starts
        }

    def net_result(self, since: datetime) -> int:
        """What the settled bets accepted from ``since`` on have won (positive) or lost.

        >>> from datetime import UTC, datetime
        >>> t = datetime(2024, 1, 1, tzinfo=UTC)
        >>> Activity((Wager(t, 100, 0), Wager(t, 100, 250), Wager(t, 100))).net_result(t)
        50
        """
        require_aware(since, "since")
        return sum(
            w.returned - w.stake for w in self.wagers if w.returned is not None and w.at >= since
        )

    def open_wagers(self) -> tuple[Wager, ...]:
        """The wagers not settled yet."""
        return tuple(w for w in self.wagers if not w.settled)

    def with_wagers(self, wagers: Iterable[Wager]) -> Activity:
        """This activity with ``wagers`` added."""
        return replace(self, wagers=(*self.wagers, *wagers))


NO_ACTIVITY = Activity()
