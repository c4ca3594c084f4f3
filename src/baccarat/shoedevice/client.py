"""``DeviceClient``: one card read pushed to the server, retried until the server answers.

The device's half of ``POST /api/studio/tables/{table}/cards`` (``docs/studio.md``). A read is
sent again with the same ``scan_id`` after a timeout, a lost connection or a server error (5xx,
408, 425, 429), waiting longer each time: the server answers a ``scan_id`` it has seen with its
first answer and changes nothing, so a retry can never deal a card twice. A refusal (any other
4xx) is the server's answer too, and is never retried: sending the same read again would only
be refused again.

>>> Backoff().delays(6)
[0.25, 0.5, 1.0, 2.0, 4.0, 5.0]
>>> check_url("http://studio.example:8000/")
'http://studio.example:8000'
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import Any, TypeVar
from urllib.parse import quote, urlsplit

import httpx

from baccarat.cards import Card, CardCodeError

__all__ = [
    "RETRIED",
    "Answer",
    "AnswerError",
    "Backoff",
    "DeviceClient",
    "RefusalError",
    "Retry",
    "StoppedError",
    "check_url",
    "refusal_of",
]

_T = TypeVar("_T")

#: The statuses after which the same read is sent again: the server did not decide on it.
RETRIED = frozenset({408, 425, 429})
#: The refusals after which nothing this device sends can be taken: its token, its table.
_FATAL = frozenset({401, 403, 404})


def check_url(url: str) -> str:
    """The server's base URL without a trailing slash, or ``ValueError``.

    >>> check_url("ftp://studio")
    Traceback (most recent call last):
    ...
    ValueError: the server's URL is http:// or https:// and a host, not 'ftp://studio'
    """
    try:
        parts = urlsplit(url)
        port_ok = parts.port is None or parts.port > 0
    except ValueError:
        port_ok = False
        parts = urlsplit("")
    if parts.scheme not in ("http", "https") or not parts.hostname or not port_ok:
        raise ValueError(f"the server's URL is http:// or https:// and a host, not {url!r}")
    if parts.query or parts.fragment:
        raise ValueError(f"the server's URL has no query or fragment, not {url!r}")
    return url.rstrip("/")


@dataclass(frozen=True, slots=True)
class Answer:
    """The server's answer to a read: where the card went and what is due next."""

    scan_id: str
    card: Card
    position: str
    round_id: int | None
    shoe_id: str | None
    seq: int
    repeat: bool
    next: str

    @classmethod
    def from_json(cls, data: Any) -> Answer:
        """The answer in a ``200``'s body, or ``AnswerError``.

        >>> Answer.from_json({"scan_id": "s:1", "card": "Ah", "position": "player_1",
        ...     "round_id": 3, "shoe_id": "x", "seq": 12, "repeat": False, "next": "banker_1"})
        ... # doctest: +NORMALIZE_WHITESPACE
        Answer(scan_id='s:1', card=Card.parse('Ah'), position='player_1', round_id=3,
               shoe_id='x', seq=12, repeat=False, next='banker_1')
        """
        if not isinstance(data, dict):
            raise AnswerError("the answer is not a JSON object")
        try:
            card = Card.parse(_field(data, "card", str))
        except CardCodeError as error:
            raise AnswerError(f"the answer's card: {error}") from error
        return cls(
            scan_id=_field(data, "scan_id", str),
            card=card,
            position=_field(data, "position", str),
            round_id=_field(data, "round_id", int, optional=True),
            shoe_id=_field(data, "shoe_id", str, optional=True),
            seq=_field(data, "seq", int),
            repeat=_field(data, "repeat", bool),
            next=_field(data, "next", str),
        )


def _field(data: dict[str, Any], name: str, kind: type[_T], *, optional: bool = False) -> _T:
    value = data.get(name)
    if value is None and optional:
        return value  # type: ignore[return-value]  # the caller's type says "or None"
    # bool is an int to isinstance: a true/false is not a number here.
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise AnswerError(f"the answer's {name!r} is not a {kind.__name__}: {value!r}")
    return value


class AnswerError(ValueError):
    """A ``2xx`` whose body is not the contract's answer (the read is sent again)."""


class RefusalError(Exception):
    """The server refused the read (``docs/studio.md``'s table): nothing was stored."""

    def __init__(self, status: int, code: str, detail: str) -> None:
        super().__init__(f"{status} {code}: {detail}")
        self.status = status
        self.code = code
        self.detail = detail

    @property
    def halted(self) -> bool:
        """The table is halted for a supervisor."""
        return self.status == 409 and self.code == "table_halted"

    @property
    def fatal(self) -> bool:
        """No later read can be taken either: the device's token or table is wrong."""
        return self.status in _FATAL


def refusal_of(response: httpx.Response) -> RefusalError:
    """The refusal in an answer, whatever its body holds: the server's one error body
    (``{"error": {"code", "message"}}``), or ``{"detail", "code"}``.

    >>> body = {"error": {"code": "table_halted", "message": "halted for a supervisor"}}
    >>> str(refusal_of(httpx.Response(409, json=body)))
    '409 table_halted: halted for a supervisor'
    >>> str(refusal_of(httpx.Response(409, json={"detail": "no shoe", "code": "no_shoe"})))
    '409 no_shoe: no shoe'
    >>> str(refusal_of(httpx.Response(502, text="<html>Bad Gateway</html>")))
    '502 http_502: Bad Gateway'
    """
    try:
        body = response.json()
    except ValueError:
        body = None
    if not isinstance(body, dict):
        body = {}
    error = body.get("error")
    if isinstance(error, dict):
        code, detail = error.get("code"), error.get("message")
    else:
        code, detail = body.get("code"), body.get("detail")
    return RefusalError(
        response.status_code,
        code if isinstance(code, str) else f"http_{response.status_code}",
        detail if isinstance(detail, str) else (response.reason_phrase or "refused"),
    )


class StoppedError(Exception):
    """The push was given up before the server answered: the device was told to stop."""


@dataclass(frozen=True, slots=True)
class Backoff:
    """How long to wait before each retry: ``first``, times ``factor`` each time, at most ``cap``."""

    first: float = 0.25
    factor: float = 2.0
    cap: float = 5.0

    def delay(self, failures: int) -> float:
        """The wait after ``failures`` failed attempts (1 for the first)."""
        return min(self.cap, self.first * self.factor ** (failures - 1))

    def delays(self, count: int) -> list[float]:
        """The first ``count`` waits."""
        return [self.delay(n) for n in range(1, count + 1)]


@dataclass(frozen=True, slots=True)
class Retry:
    """A read about to be sent again: after ``failures`` failed attempts, in ``delay`` s."""

    scan_id: str
    failures: int
    delay: float
    why: str


def _never_stopped() -> Callable[[float], bool]:
    return threading.Event().wait


class DeviceClient:
    """A shoe device's connection to its table: ``push`` sends one read and returns its answer.

    ``wait(seconds)`` is the pause between retries, and says whether to give up instead (as
    ``threading.Event.wait`` does: a forwarder passes its stop event's); ``on_retry`` is told
    each retry before its wait.
    """

    def __init__(
        self,
        url: str,
        table: str,
        token: str,
        *,
        http: httpx.Client | None = None,
        timeout: float = 5.0,
        backoff: Backoff | None = None,
        wait: Callable[[float], bool] | None = None,
        on_retry: Callable[[Retry], None] | None = None,
    ) -> None:
        self.endpoint = f"{check_url(url)}/api/studio/tables/{quote(table, safe='')}/cards"
        self._headers = {"Authorization": f"Bearer {token}"}
        self._own = http is None
        self._http = http if http is not None else httpx.Client()
        self._timeout = timeout
        self._backoff = backoff or Backoff()
        self._wait = wait or _never_stopped()
        self._on_retry = on_retry

    def push(self, card: Card, scan_id: str) -> Answer:
        """Send ``card`` as the read ``scan_id`` until the server answers; ``RefusalError`` if it
        refuses, ``StoppedError`` if ``wait`` says to give up between attempts."""
        body = {"card": card.code, "scan_id": scan_id}
        failures = 0
        while True:
            why, after = self._attempt(body)
            if isinstance(why, Answer):
                return why
            failures += 1
            delay = max(self._backoff.delay(failures), min(after, 60.0))
            if self._on_retry is not None:
                self._on_retry(Retry(scan_id, failures, delay, why))
            if self._wait(delay):
                raise StoppedError(f"stopped before the server answered read {scan_id} ({card})")

    def _attempt(self, body: dict[str, str]) -> tuple[Answer | str, float]:
        """The answer, or why to try again and how long the server asked to be left (0)."""
        try:
            response = self._http.post(
                self.endpoint, json=body, headers=self._headers, timeout=self._timeout
            )
        except httpx.TimeoutException:
            return "no answer in time", 0.0
        except httpx.TransportError as error:
            return f"cannot reach the server ({type(error).__name__}: {error})", 0.0
        status = response.status_code
        if status >= 500 or status in RETRIED:
            return f"the server answered {status}", _retry_after(response)
        if not 200 <= status < 300:
            raise refusal_of(response)
        try:
            answer = Answer.from_json(response.json())
        except ValueError as error:  # AnswerError, or a body that is not JSON
            return f"a {status} that is not an answer ({error})", 0.0
        if answer.scan_id != body["scan_id"]:
            return f"an answer for another read ({answer.scan_id})", 0.0
        return answer, 0.0

    def close(self) -> None:
        """Close the HTTP client, if this one made it."""
        if self._own:
            self._http.close()

    def __enter__(self) -> DeviceClient:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


def _retry_after(response: httpx.Response) -> float:
    """The server's ``Retry-After`` in seconds, when it gives a number."""
    try:
        return max(0.0, float(response.headers.get("Retry-After", "0")))
    except ValueError:
        return 0.0
