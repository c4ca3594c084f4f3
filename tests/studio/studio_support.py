"""A small studio server for the device's tests: the contract of ``docs/studio.md``, in a thread.

``FakeStudio`` is a real HTTP server (the standard library's, on a free port of 127.0.0.1) with
one studio table. It is not the product's server: it is the contract the device is built
against, kept small enough to read, and it records every request so a test can say what the
device sent. The table applies the real tableau (``coup.due_slot``) and the real burn
(``shoe.burn_count``), so the card positions it answers are the ones a real table would.

- ``POST /api/studio/tables/{table}/cards`` (a device token): the answer or a refusal; a
  ``scan_id`` read before is answered again (``repeat``), one read before with another card,
  a card after the coup is complete, or a ninth copy of a card halts the table.
- ``POST /api/admin/login``, ``GET /api/studio/tables/{table}`` (``next``), ``POST …/shoe``,
  ``POST …/misscan`` and ``…/misscan/confirm`` (a supervisor's token) for the robot.

A test module that wants the fixtures (``studio``: one running, with a dealer and a
supervisor; ``token_file``) names this module in its ``pytest_plugins``: a plain module rather
than a ``conftest.py``, which ``mypy`` would see as a second module named ``conftest``.

Betting and results take a number of console reads (``betting_polls``, ``result_polls``): the
robot's clock is a test's, so the table moves when it is looked at. Faults are set per
``scan_id``: ``"500"`` (answer 500, store nothing), ``"timeout"`` (store, then answer too
late), ``"429"`` (rate limited, ``Retry-After: 1``), ``"halt"`` (an impossible read), ``"other"``
(store, and answer about another read).

PYTEST_DONT_REWRITE (test modules import this before pytest loads it as a plugin).
"""

from __future__ import annotations

import contextlib
import json
import re
import secrets
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from baccarat.cards import Card, CardCodeError
from baccarat.coup import due_slot
from baccarat.shoe import burn_count

__all__ = [
    "DEALER",
    "DEVICE_TOKEN",
    "PASSWORD",
    "SUPERVISOR",
    "TABLE",
    "Attempt",
    "FakeStudio",
    "Placed",
    "running_studio",
    "studio",
    "token_file",
]

TABLE = "standard-studio"
DEVICE_TOKEN = "device-token-of-standard-studio"
DEALER, SUPERVISOR, PASSWORD = "dana", "sam", "Dealer pass 7"
SHOE_CARDS = 416
_SCAN_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")
_PATH = re.compile(r"/api/studio/tables/(?P<table>[^/]+)(?P<rest>/.*)?")


@dataclass
class Attempt:
    """One ``POST …/cards`` as it arrived, and the status it got."""

    scan_id: str
    card: str
    status: int
    state: str  # the table's ``next`` when it arrived


@dataclass
class Placed:
    """A card the table took: by the shoe (``read``) or entered by hand (``hand``)."""

    card: Card
    position: str
    how: str
    scan_id: str | None
    shoe: int


@dataclass
class _Staff:
    password: str
    role: str


@dataclass
class FakeStudio:
    """The table's state and what every request did; ``url`` once running."""

    betting_polls: int = 2
    result_polls: int = 1
    #: End each shoe after this many cards at the end of a coup (default: the cut card).
    end_after: int | None = None
    answer_delay: float = 1.0
    next: str = "shoe_change"
    halted: bool = False
    url: str = ""
    staff: dict[str, _Staff] = field(default_factory=dict)
    faults: dict[str, list[str]] = field(default_factory=dict)
    attempts: list[Attempt] = field(default_factory=list)
    placed: list[Placed] = field(default_factory=list)
    coups: list[list[Card]] = field(default_factory=list)
    shoe_bodies: list[Any] = field(default_factory=list)
    logins: list[str] = field(default_factory=list)
    console_reads: int = 0
    misscans: list[tuple[str, Any]] = field(default_factory=list)
    confirms: list[tuple[str, Any]] = field(default_factory=list)
    lock: threading.RLock = field(default_factory=threading.RLock)
    _tokens: dict[str, str] = field(default_factory=dict)
    _answers: dict[str, dict[str, Any]] = field(default_factory=dict)
    _coup: list[Card] = field(default_factory=list)
    _counts: Counter[Card] = field(default_factory=Counter)
    _burn: list[Card] = field(default_factory=list)
    _polls: int = 0
    _pending: Card | None = None
    _resume: str = ""
    _before_halt: str = ""
    shoes: int = 0
    seq: int = 0
    cut_card: int = 14
    #: Called (under the lock) after each console read is answered: another person's move.
    after_console: Callable[[FakeStudio], None] | None = None

    # --- what tests set up -------------------------------------------------------------------

    def add_staff(self, username: str, password: str, role: str) -> None:
        self.staff[username] = _Staff(password, role)

    def start_foreign_shoe(self) -> None:
        """A shoe in play that someone else started (its burn due)."""
        with self.lock:
            self._new_shoe({"shuffled_by": "someone"})

    def end_shoe(self) -> None:
        with self.lock:
            self.next = "shoe_change"

    def halt(self) -> None:
        with self.lock:
            if not self.halted:
                self.halted, self._before_halt, self.next = True, self.next, "halted"

    def clear_halt(self) -> None:
        """A supervisor clears the halt: the table goes on where it stood."""
        with self.lock:
            if self.halted:
                self.halted, self.next = False, self._before_halt

    def confirm_by_person(self) -> bool:
        """A supervisor at the console confirms the misscan waiting, if one is."""
        with self.lock:
            if self._pending is None:
                return False
            self.confirms.append(("person", {}))
            self._confirm()
            return True

    def expire_staff_tokens(self) -> None:
        with self.lock:
            self._tokens.clear()

    @property
    def reads(self) -> list[Placed]:
        return [p for p in self.placed if p.how == "read"]

    def attempts_of(self, scan_id: str) -> list[Attempt]:
        return [a for a in self.attempts if a.scan_id == scan_id]

    # --- the device's endpoint -----------------------------------------------------------------

    def push(self, token: str | None, body: Any) -> tuple[int, Any, float]:
        """``POST …/cards``: status, body, and how long to wait before answering."""
        if token != DEVICE_TOKEN:
            return 401, _refusal("unauthorized", "no device token, or an unknown one"), 0.0
        if not isinstance(body, dict) or not isinstance(body.get("scan_id"), str):
            return 422, _refusal("invalid_request", "a card and a scan_id"), 0.0
        scan_id, code = body["scan_id"], body.get("card")
        try:
            card = Card.parse(code) if isinstance(code, str) else None
        except CardCodeError:
            card = None
        if card is None or not _SCAN_ID.fullmatch(scan_id):
            return 422, _refusal("invalid_request", "a card code or scan_id that is not one"), 0.0
        with self.lock:
            faults = self.faults.get(scan_id, [])
            fault = faults.pop(0) if faults else None
            state = self.next
            status, answer = self._take(scan_id, card, fault)
            self.attempts.append(Attempt(scan_id, str(code), status, state))
            if fault == "other" and status == 200:
                return 200, {**answer, "scan_id": "someone-else:1"}, 0.0
            return status, answer, self.answer_delay if fault == "timeout" else 0.0

    def _take(self, scan_id: str, card: Card, fault: str | None) -> tuple[int, Any]:
        if fault == "500":
            return 500, _refusal("internal", "the database is away")
        if fault == "429":
            return 429, _refusal("rate_limited", "too many requests")
        known = self._answers.get(scan_id)
        if known is not None and known["card"] == card.code:
            return 200, {**known, "repeat": True}
        if self.halted:
            return 409, _refusal("table_halted", "the table is halted for a supervisor")
        if self.shoes == 0 or self.next == "shoe_change":
            return 409, _refusal("no_shoe", "no shoe is in play")
        if self.next == "misscan_pending":
            return 409, _refusal("misscan_pending", "a misscan waits for a supervisor")
        impossible = (
            known is not None
            or fault == "halt"
            or self.next == "result"
            or self._counts[card] >= SHOE_CARDS // 52
        )
        if impossible:
            self.halt()
            return 409, _refusal("table_halted", "an impossible read: the table is halted")
        position = self._place(card, "read", scan_id)
        answer = {
            "scan_id": scan_id,
            "card": card.code,
            "position": position,
            "round_id": len(self.coups) + 1 if position.startswith(("player", "banker")) else None,
            "shoe_id": f"shoe-{self.shoes}",
            "seq": self.seq,
            "repeat": False,
            "next": self.next,
        }
        self._answers[scan_id] = answer
        return 200, answer

    def _place(self, card: Card, how: str, scan_id: str | None) -> str:
        """The card goes where the table is; ``next`` moves on."""
        self.seq += 1
        self._counts[card] += 1
        if self.next == "burn":
            self._burn.append(card)
            position = f"burn_{len(self._burn)}"
            if len(self._burn) == burn_count(self._burn[0]):
                self._open_betting()
        elif self.next == "wait_bets":
            position = "burned"  # game before time, on a table that burns the card
        else:
            slot = due_slot(self._coup)
            assert slot is not None and str(slot) == self.next
            position = str(slot)
            self._coup.append(card)
            after = due_slot(self._coup)
            if after is None:
                self.coups.append(list(self._coup))
                self._coup.clear()
                self.next, self._polls = "result", self.result_polls
                if self.result_polls == 0:
                    self._after_result()
            else:
                self.next = str(after)
        self.placed.append(Placed(card, position, how, scan_id, self.shoes))
        return position

    def _open_betting(self) -> None:
        self.next, self._polls = "wait_bets", self.betting_polls
        if self.betting_polls == 0:
            self.next = "player_1"

    def _after_result(self) -> None:
        out = sum(self._counts.values())
        limit = self.end_after if self.end_after is not None else SHOE_CARDS - self.cut_card
        if out >= limit:
            self.next = "shoe_change"
        else:
            self._open_betting()

    # --- the console ---------------------------------------------------------------------------

    def login(self, body: Any) -> tuple[int, Any]:
        name = body.get("username") if isinstance(body, dict) else None
        member = self.staff.get(name) if isinstance(name, str) else None
        if member is None or body.get("password") != member.password:
            return 401, _refusal("unauthorized", "wrong username or password")
        token = secrets.token_hex(8)
        with self.lock:
            self._tokens[token] = body["username"]
            self.logins.append(body["username"])
        return 201, {"token": token, "role": member.role}

    def console(self, method: str, rest: str, token: str | None, body: Any) -> tuple[int, Any]:
        with self.lock:
            who = self._tokens.get(token or "")
            if who is None:
                return 401, _refusal("unauthorized", "log in first")
            if method == "GET" and rest == "":
                self.console_reads += 1
                self._tick()
                state = {"table_id": TABLE, "next": self.next, "shoe": self.shoes}
                if self.after_console is not None:
                    self.after_console(self)
                return 200, state
            if method == "POST" and rest == "/shoe":
                if self.next != "shoe_change":
                    return 409, _refusal("shoe_in_play", "a shoe is in play")
                self.shoe_bodies.append(body)
                self._new_shoe(body)
                return 201, {"next": self.next}
            if method == "POST" and rest == "/misscan":
                return self._misscan(who, body)
            if method == "POST" and rest == "/misscan/confirm":
                if self.staff[who].role != "supervisor":
                    return 403, _refusal("forbidden", "a supervisor confirms a misscan")
                if self._pending is None:
                    return 409, _refusal("no_misscan", "no misscan waits")
                self.confirms.append((who, body))
                self._confirm()
                return 200, {"next": self.next}
            return 404, _refusal("not_found", "no such route")

    def _tick(self) -> None:
        """A console read lets the table's time go by: betting closes, a result goes."""
        if self.next in ("wait_bets", "result"):
            self._polls -= 1
            if self._polls <= 0:
                if self.next == "wait_bets":
                    self.next = "player_1"
                else:
                    self._after_result()

    def _new_shoe(self, body: Any) -> None:
        self.shoes += 1
        self.seq = 0
        self._counts.clear()
        self._burn.clear()
        self._coup.clear()
        self.cut_card = body.get("cut_card", 14) if isinstance(body, dict) else 14
        self.next = "burn"

    def _misscan(self, who: str, body: Any) -> tuple[int, Any]:
        if self.next not in {f"{h}_{n}" for h in ("player", "banker") for n in (1, 2, 3)}:
            return 409, _refusal("not_dealing", f"no card is due ({self.next})")
        try:
            card = Card.parse(body["card"])
        except (CardCodeError, KeyError, TypeError):
            return 422, _refusal("invalid_request", "a card code")
        self.misscans.append((who, body))
        self._pending, self._resume = card, self.next
        self.next = "misscan_pending"
        return 200, {"next": self.next}

    def _confirm(self) -> None:
        card, self._pending = self._pending, None
        assert card is not None
        self.next = self._resume
        self._place(card, "hand", None)


def _refusal(code: str, message: str) -> dict[str, Any]:
    """The server's one error body (``baccarat.server.errors``)."""
    return {"error": {"code": code, "message": message}}


def _handler(studio: FakeStudio) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self._route("GET")

        def do_POST(self) -> None:
            self._route("POST")

        def _route(self, method: str) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw) if raw else None
            except ValueError:
                body = None
            auth = self.headers.get("Authorization", "")
            token = auth[len("Bearer ") :] if auth.startswith("Bearer ") else None
            delay = 0.0
            matched = _PATH.fullmatch(self.path)
            if method == "POST" and self.path == "/api/admin/login":
                status, answer = studio.login(body)
            elif matched is None or matched["table"] != TABLE:
                status, answer = 404, _refusal("not_found", "no such table")
            elif method == "POST" and matched["rest"] == "/cards":
                status, answer, delay = studio.push(token, body)
            else:
                status, answer = studio.console(method, matched["rest"] or "", token, body)
            if delay:
                time.sleep(delay)  # stored already: the answer comes after the device gave up
            payload = json.dumps(answer).encode()
            with contextlib.suppress(OSError):  # the device may have hung up (a timeout)
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                if status == 429:
                    self.send_header("Retry-After", "1")
                self.end_headers()
                self.wfile.write(payload)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # the test reads the studio's records, not a log

    return Handler


@contextlib.contextmanager
def running_studio(studio: FakeStudio, port: int = 0) -> Iterator[FakeStudio]:
    """``studio`` served on ``port`` (a free one by default) of 127.0.0.1 until the block ends."""
    server = ThreadingHTTPServer(("127.0.0.1", port), _handler(studio))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.start()
    studio.url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield studio
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


@pytest.fixture
def studio() -> Iterator[FakeStudio]:
    """A studio table served on a free port, with a dealer and a supervisor."""
    fake = FakeStudio()
    fake.add_staff(DEALER, PASSWORD, "dealer")
    fake.add_staff(SUPERVISOR, PASSWORD, "supervisor")
    with running_studio(fake):
        yield fake


@pytest.fixture
def token_file(tmp_path: Path) -> Path:
    """A file holding the table's device token, as an operator keeps it."""
    path = tmp_path / "device-token"
    path.write_text(DEVICE_TOKEN + "\n")
    return path
