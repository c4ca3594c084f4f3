"""Bounds on money: why no sum of legal operations can leave signed 64 bits.

Every stored amount is an integer of minor units. Three limits keep every sum exact:

* ``MONEY_LIMIT`` = 2**53 - 1 bounds every single movement (a ledger entry, a stake, a
  return): exact as a JSON number in every language, the page's JavaScript included.
* ``BALANCE_LIMIT`` = 2**62 bounds every stored balance. Adding one movement (at most 2**53)
  or one batch of them to a balance inside it stays below 2**63: the database computes the
  sum exactly and its CHECK refuses it, instead of SQLite turning it into a REAL or
  PostgreSQL failing with an overflow.
* ``MoneyBounds`` are the operator's limits at the edge: each deposit is at most
  ``max_deposit`` (default 10**9) and a deposit may not take a balance past ``max_balance``
  (default 10**12); both are at most ``MONEY_LIMIT``.

The argument, account by account (``baccarat.store.ledger``):

* A **player** gets money only from a deposit (refused past ``max_balance``), the demo
  credit (at most ``max_balance``), a stake given back (what the player had), or a win. A
  round's win is at most the player's stakes on it, each at most the table's maximum for the
  spot, times the best odds: for the built-in tables under 10**8. Reaching 2**53 from
  ``max_balance`` by winning takes more than 9 * 10**7 winning rounds at every spot's maximum;
  at one round every few seconds that is longer than a century of a single player winning
  every coup.
* A **stake** account holds only the stakes of its table's round in play (one at a time).
* A **house** account moves by a round's results. Its balance after ``R`` rounds with ``P``
  players is at most ``R * P * 10**8`` in size: 2**62 takes 4.6 * 10**10 player-rounds at
  every spot's maximum, all won (or all lost) by the same side.
* The **sources**, ``world`` (deposits in, withdrawals out) and ``demo-bank`` (the guests'
  demo credit), are the outside: each balance is minus what it gave. They are unbounded by
  design (players can be created without end), so their balances are **not cached**
  (``baccarat.store.ledger.UNCACHED``): ``accounts.balance`` stays 0 and nothing is ever
  added to it. No number of deposits or guests can pin them; ``ledger check`` adds their
  entries with Python's unbounded integers when the database cannot.

>>> bounds = MoneyBounds(max_deposit=1_000, max_balance=5_000)
>>> bounds.refuse_deposit(balance=4_500, amount=500) is None
True
>>> bounds.refuse_deposit(balance=4_500, amount=501).code.value
'balance_limit'
>>> bounds.refuse_deposit(balance=0, amount=1_001).code.value
'deposit_too_large'
>>> MoneyBounds(max_deposit=10, max_balance=5)
Traceback (most recent call last):
...
ValueError: max_balance (5) must be at least max_deposit (10)
"""

from __future__ import annotations

from dataclasses import dataclass

from baccarat.refusals import Refusal, RefusalCode

__all__ = [
    "BALANCE_LIMIT",
    "DEFAULT_MAX_BALANCE",
    "DEFAULT_MAX_DEPOSIT",
    "MONEY_LIMIT",
    "MoneyBounds",
    "money_check",
]

#: The largest single movement of money: 2**53 - 1, exact in JSON and JavaScript.
MONEY_LIMIT = 2**53 - 1
#: The largest balance the database stores: half of 2**63, so one more movement cannot overflow.
BALANCE_LIMIT = 2**62
DEFAULT_MAX_DEPOSIT = 10**9
DEFAULT_MAX_BALANCE = 10**12


def money_check(column: str, limit: int = MONEY_LIMIT) -> str:
    """The SQL of a CHECK keeping ``column`` an integer within ``±limit`` (SQLite and PostgreSQL).

    The range bounds every value; the cast refuses a SQLite REAL that is not a whole number
    (a whole REAL is stored as an integer by the column's affinity).

    >>> money_check("amount", 10)
    'amount BETWEEN -10 AND 10 AND amount = CAST(amount AS BIGINT)'
    """
    return f"{column} BETWEEN -{limit} AND {limit} AND {column} = CAST({column} AS BIGINT)"


@dataclass(frozen=True, slots=True)
class MoneyBounds:
    """The operator's bounds at the edge: per deposit and per balance, in minor units."""

    max_deposit: int = DEFAULT_MAX_DEPOSIT
    max_balance: int = DEFAULT_MAX_BALANCE

    def __post_init__(self) -> None:
        if not 1 <= self.max_deposit <= MONEY_LIMIT:
            raise ValueError(f"max_deposit must be 1 to {MONEY_LIMIT}, not {self.max_deposit}")
        if not 1 <= self.max_balance <= MONEY_LIMIT:
            raise ValueError(f"max_balance must be 1 to {MONEY_LIMIT}, not {self.max_balance}")
        if self.max_balance < self.max_deposit:
            raise ValueError(
                f"max_balance ({self.max_balance}) must be at least max_deposit "
                f"({self.max_deposit})"
            )

    def refuse_deposit(self, *, balance: int, amount: int) -> Refusal | None:
        """Why a deposit of ``amount`` onto ``balance`` is refused, or ``None``."""
        if amount > self.max_deposit:
            return Refusal(
                RefusalCode.DEPOSIT_TOO_LARGE,
                f"a deposit is at most {self.max_deposit}, not {amount}",
                limit=self.max_deposit,
            )
        if balance + amount > self.max_balance:
            room = max(0, self.max_balance - balance)
            return Refusal(
                RefusalCode.BALANCE_LIMIT,
                f"a balance is at most {self.max_balance}: you may deposit up to {room} more",
                limit=self.max_balance,
                left=room,
            )
        return None
