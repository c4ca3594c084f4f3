"""Why the responsible-gaming policy refuses a bet or a deposit: a stable code and a message.

The code is what the API puts in its error body (and maps to an HTTP 4xx status); the
message is for the player and says what to do or how long to wait. A refusal changes
nothing: every check in this package is a pure function of its arguments.

>>> from datetime import UTC, datetime
>>> r = Refusal(RefusalCode.TIME_OUT, "time-out", until=datetime(2024, 6, 1, tzinfo=UTC))
>>> r.to_json()
{'code': 'time_out', 'message': 'time-out', 'until': '2024-06-01T00:00:00+00:00'}
>>> str(Refusal(RefusalCode.LIMIT_EXCEEDED, "loss limit (7 days) reached: 0.00 left of 1.00"))
'limit_exceeded: loss limit (7 days) reached: 0.00 left of 1.00'
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

__all__ = ["Refusal", "RefusalCode"]


class RefusalCode(StrEnum):
    """The stable codes of a refused bet or deposit."""

    LIMIT_EXCEEDED = "limit_exceeded"
    TIME_OUT = "time_out"
    SELF_EXCLUDED = "self_excluded"
    SESSION_LIMIT = "session_limit"
    REALITY_CHECK_DUE = "reality_check_due"


@dataclass(frozen=True, slots=True)
class Refusal:
    """A refused bet or deposit. The optional fields say which limit, or until when."""

    code: RefusalCode
    message: str
    #: When the refusal stops applying by itself (a break's end), if it does.
    until: datetime | None = None
    #: For ``limit_exceeded``: the binding limit's kind and period, its amount and what is left.
    kind: str | None = None
    period: str | None = None
    limit: int | None = None
    left: int | None = None

    def __str__(self) -> str:
        return f"{self.code.value}: {self.message}"

    def to_json(self) -> dict[str, object]:
        """The refusal as the API's error body: ``code``, ``message`` and the fields that are set."""
        body: dict[str, object] = {"code": self.code.value, "message": self.message}
        if self.until is not None:
            body["until"] = self.until.isoformat()
        for name in ("kind", "period", "limit", "left"):
            value = getattr(self, name)
            if value is not None:
                body[name] = value
        return body
