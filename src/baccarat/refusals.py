"""Why a request is refused: the one catalogue of refusal codes, and the refusal itself.

Every refusal of the game, of the bet path and of the responsible-gaming policy is a
``Refusal``: a stable ``RefusalCode`` (what the API puts in its error body; the server maps
each code to one HTTP status), a message for people and, for the policy's refusals, which
limit or until when. A refusal changes nothing: whoever refuses has written nothing.

>>> from datetime import UTC, datetime
>>> Refusal(RefusalCode.BETTING_CLOSED, "betting on round 7 is closed").to_json()
{'code': 'betting_closed', 'message': 'betting on round 7 is closed'}
>>> r = Refusal(RefusalCode.TIME_OUT, "time-out", until=datetime(2024, 6, 1, tzinfo=UTC))
>>> r.to_json()
{'code': 'time_out', 'message': 'time-out', 'until': '2024-06-01T00:00:00+00:00'}
>>> str(Refusal(RefusalCode.LIMIT_EXCEEDED, "loss limit (7 days) reached: 0.00 left of 1.00"))
'limit_exceeded: loss limit (7 days) reached: 0.00 left of 1.00'
>>> RefusalCode("no_previous_bets") is RefusalCode.NOTHING_TO_REPEAT
True
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum

__all__ = ["RESPONSIBLE_GAMING", "Refusal", "RefusalCode"]


class RefusalCode(StrEnum):
    """The stable codes of every refusal (the ``code`` of the API's error body)."""

    # A bet request checked against the table's rules and the balance (``table.betting``).
    EMPTY = "empty_bet"
    UNKNOWN_BET = "unknown_bet"
    NOT_OFFERED = "bet_not_offered"
    BAD_STAKE = "invalid_stake"
    BELOW_MINIMUM = "below_minimum"
    ABOVE_MAXIMUM = "above_maximum"
    INSUFFICIENT_FUNDS = "insufficient_funds"
    #: A rebet or double with no bets in an earlier round at the table.
    NOTHING_TO_REPEAT = "no_previous_bets"
    #: An undo of the last bet with no bet of the player's on the round.
    NOTHING_TO_UNDO = "nothing_to_undo"
    #: The round is not open for bets, or is not a round of this table.
    BETTING_CLOSED = "betting_closed"
    #: The request's Idempotency-Key came before with another request.
    KEY_REUSED = "idempotency_key_reused"
    #: The bettor's session ended before the bet was committed (the HTTP layer's code for a
    #: token nobody holds, so a client reads one code for both).
    SESSION_ENDED = "unauthorized"

    # The responsible-gaming policy (``baccarat.responsible``), on bets and deposits.
    LIMIT_EXCEEDED = "limit_exceeded"
    TIME_OUT = "time_out"
    SELF_EXCLUDED = "self_excluded"
    SESSION_LIMIT = "session_limit"
    REALITY_CHECK_DUE = "reality_check_due"

    # The cashier (``store.cashier``): the operator's bounds (``store.money``) and the balance.
    INVALID_AMOUNT = "invalid_amount"
    DEPOSIT_TOO_LARGE = "deposit_too_large"
    BALANCE_LIMIT = "balance_limit"
    INSUFFICIENT_BALANCE = "insufficient_balance"

    # Staff and what they set (the admin API, ``docs/admin.md``).
    #: A player's token on an admin route (staff log in on their own routes).
    STAFF_ONLY = "staff_only"
    #: A member of staff whose role does not allow the action.
    ROLE_FORBIDDEN = "role_forbidden"
    #: A round settled or voided already: it cannot be voided.
    ROUND_FINISHED = "round_finished"
    #: A round whose cards are drawn: it settles by them (its coup is part of the shoe record).
    ROUND_DEALT = "round_dealt"
    #: A login or an unlock of an account an operator locked or closed.
    ACCOUNT_LOCKED = "account_locked"
    ACCOUNT_CLOSED = "account_closed"
    #: A player's own limit above what the operator set for it.
    ABOVE_OPERATOR_LIMIT = "above_operator_limit"


#: The codes the responsible-gaming policy refuses with.
RESPONSIBLE_GAMING: frozenset[RefusalCode] = frozenset(
    {
        RefusalCode.LIMIT_EXCEEDED,
        RefusalCode.TIME_OUT,
        RefusalCode.SELF_EXCLUDED,
        RefusalCode.SESSION_LIMIT,
        RefusalCode.REALITY_CHECK_DUE,
    }
)


@dataclass(frozen=True, slots=True)
class Refusal:
    """A refused request. The optional fields say which limit, or until when.

    >>> Refusal(RefusalCode.NOTHING_TO_UNDO, "no bet to take back").code == "nothing_to_undo"
    True
    """

    code: RefusalCode
    message: str
    #: When the refusal stops applying by itself (a break's end), if it does.
    until: datetime | None = None
    #: For ``limit_exceeded``: the binding limit's kind and period, its amount and what is left.
    #: For the table's and the cashier's bounds, ``limit`` is the bound (minor units).
    kind: str | None = None
    period: str | None = None
    limit: int | None = None
    left: int | None = None
    #: For ``below_minimum`` / ``above_maximum``: the spot whose bound the bet breaks.
    spot: str | None = None

    def __str__(self) -> str:
        return f"{self.code.value}: {self.message}"

    def to_json(self) -> dict[str, object]:
        """The refusal as the API's error body: ``code``, ``message`` and the fields that are set.

        >>> Refusal(RefusalCode.LIMIT_EXCEEDED, "wager limit", kind="wager", left=0).to_json()
        {'code': 'limit_exceeded', 'message': 'wager limit', 'kind': 'wager', 'left': 0}
        """
        body: dict[str, object] = {"code": self.code.value, "message": self.message}
        if self.until is not None:
            body["until"] = self.until.isoformat()
        for name in ("kind", "period", "limit", "left", "spot"):
            value = getattr(self, name)
            if value is not None:
                body[name] = value
        return body

    def details(self) -> dict[str, object]:
        """The values of the refusal that are set (the API's ``details``): ``until`` in ISO 8601
        UTC with milliseconds and a ``Z``, money in minor units.

        >>> Refusal(RefusalCode.BELOW_MINIMUM, "too little", spot="tie", limit=100).details()
        {'limit': 100, 'spot': 'tie'}
        >>> Refusal(RefusalCode.TIME_OUT, "t", until=datetime(2024, 6, 1, tzinfo=UTC)).details()
        {'until': '2024-06-01T00:00:00.000Z'}
        """
        found: dict[str, object] = {}
        if self.until is not None:
            moment = self.until.astimezone(UTC)
            ms = moment.microsecond // 1000
            found["until"] = moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ms:03d}Z"
        for name in ("kind", "period", "limit", "left", "spot"):
            value = getattr(self, name)
            if value is not None:
                found[name] = value
        return found
