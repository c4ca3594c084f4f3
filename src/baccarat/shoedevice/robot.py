"""A dealer robot for a studio table: deals a physical shoe through the shoe device, for demos
and load.

The robot does what a person at the table does, through the same doors: it logs in as a member
of staff (``POST /api/admin/login``), reads the dealer's console (``GET
/api/studio/tables/{table}``, whose ``next`` says what is due) and acts on it:

- ``shoe_change``: shuffles a new ``PhysicalShoe`` and starts it (``POST …/shoe``);
- ``burn`` or a card position: waits the pace, draws the next card from its shoe and pushes it
  through the device (``DeviceClient``); now and then (``misscan_rate``) the shoe "does not read"
  a card, which the dealer enters by hand (``POST …/misscan``) and the supervisor, if the robot
  has one, confirms (``POST …/misscan/confirm``); else a person must;
- ``wait_bets``, ``result``, ``misscan_pending`` (someone else's), ``halted``: waits and looks
  again every ``poll`` seconds.

It never decides what a card is: it draws in the shoe's order and the server says where each
card goes (burn, player, banker), so what it pushes is what a real shoe would read. A shoe
already in play when it starts is not one it shuffled: it cannot know what that shoe holds, so
it waits for the shoe change rather than push cards that shoe may not hold.

Time and the network are passed in (``wait``, the ``httpx.Client``, the ``DeviceClient``), so a
test runs a whole shoe in a moment.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import httpx

from baccarat.cards import Card
from baccarat.shoedevice.client import (
    DeviceClient,
    RefusalError,
    StoppedError,
    check_url,
    refusal_of,
)
from baccarat.shoedevice.physical import DECKS, PhysicalShoe, ShoeEmptyError

__all__ = ["CUT_CARD", "POSITIONS", "LoginError", "Note", "Robot", "RobotError", "Staff"]

#: The card positions ``next`` names (1-based in the hand).
POSITIONS = frozenset(f"{hand}_{n}" for hand in ("player", "banker") for n in (1, 2, 3))
#: Where the robot puts the cut card: this many cards from the back of the shoe.
CUT_CARD = 14
MISSCAN_REASON = "robot: card not read"
CONFIRM_REASON = "robot supervisor: the card entered is the card on the table"


@dataclass(frozen=True, slots=True)
class Staff:
    """A member of staff's login."""

    username: str
    password: str


@dataclass(frozen=True, slots=True)
class Note:
    """What the robot did or waits for: ``kind`` (``shoe``, ``card``, ``misscan``, ``confirm``,
    ``refused``, ``halted``, ``waiting``, ``unreachable``, ``done``) and a line for a person."""

    kind: str
    text: str


class RobotError(Exception):
    """The robot cannot go on: its logins, its device token or its table are refused."""


class LoginError(RobotError):
    """A member of staff's login was refused (a wrong name or password)."""


class _UnavailableError(Exception):
    """The console cannot be read just now (a server error, an answer without ``next``)."""


class Robot:
    """One table's dealer robot; ``run`` deals until ``shoes`` shoes are dealt or ``wait``
    says to stop (it returns ``True`` when told to stop, as ``threading.Event.wait`` does)."""

    def __init__(
        self,
        *,
        http: httpx.Client,
        url: str,
        table: str,
        device: DeviceClient,
        dealer: Staff,
        supervisor: Staff | None = None,
        pace: float = 1.5,
        poll: float | None = None,
        misscan_rate: float = 0.02,
        shoes: int | None = None,
        wait: Callable[[float], bool],
        note: Callable[[Note], None] = lambda _note: None,
        rng: random.Random | None = None,
        new_shoe: Callable[[], PhysicalShoe] = PhysicalShoe.shuffled,
        device_name: str | None = None,
        timeout: float = 10.0,
    ) -> None:
        if not 0.0 <= misscan_rate <= 1.0:
            raise ValueError(f"the misscan rate is 0 to 1, not {misscan_rate}")
        self.http = http
        self.table = table
        self._console = f"{check_url(url)}/api/studio/tables/{quote(table, safe='')}"
        self._login_url = f"{check_url(url)}/api/admin/login"
        self.device = device
        self._staff = {"dealer": dealer, **({"supervisor": supervisor} if supervisor else {})}
        self._tokens: dict[str, str] = {}
        self.pace = pace
        # Looking again is quick but not free: never more often than every 50 ms.
        self.poll = poll if poll is not None else max(0.05, min(0.5, pace))
        self.misscan_rate = misscan_rate
        self.shoes = shoes
        self._wait = wait
        self._note = note
        self._rng = rng or random.Random()
        self._new_shoe = new_shoe
        # Its own name each run: a scan_id read before with another card halts the table.
        self.device_name = device_name or f"robot-{secrets.token_hex(4)}"
        self._timeout = timeout
        #: The shoe in the box: None until the robot has shuffled one and put it in play.
        self.shoe: PhysicalShoe | None = None
        self.shoes_started = 0
        self.reads = 0
        self.misscans = 0
        self._misscan: Card | None = None
        self._start_unsure = False
        self._waiting_said: str | None = None

    def run(self) -> None:
        """Log in, then deal until the shoes asked for are dealt (or forever), or told to stop."""
        for role, staff in self._staff.items():
            self._tokens[role] = self._login(staff)
        try:
            while self._step():
                pass
        except StoppedError:
            return

    def _step(self) -> bool:
        """Look at the console and do what is due; False when the robot is done."""
        try:
            due = self._due()
        except httpx.TransportError as error:
            self._waiting("unreachable", f"cannot reach the server ({error}); trying again")
            return not self._wait(self.poll)
        except _UnavailableError as error:
            self._waiting("unreachable", f"{error}; trying again")
            return not self._wait(self.poll)
        self._settle_unsure_start(due)
        if due != "misscan_pending":
            self._misscan = None
        if due == "shoe_change":
            if self.shoes is not None and self.shoes_started >= self.shoes:
                self._say("done", f"{self.shoes_started} shoe(s) dealt: the robot stops")
                return False
            return self._start_shoe()
        if due == "burn" or due in POSITIONS:
            if self.shoe is None:
                self._waiting(
                    "waiting",
                    "a shoe the robot did not shuffle is in play: it cannot know what that "
                    "shoe holds, so it waits for the shoe change (deal it out by hand, or "
                    "end it on the console)",
                )
                return not self._wait(self.poll)
            if self._wait(self.pace):
                return False
            self._deal(due)
            return True
        if due == "misscan_pending" and self._misscan is not None and "supervisor" in self._tokens:
            self._confirm()
            return not self._wait(self.poll) if self._misscan is not None else True
        if due == "misscan_pending":
            self._waiting("waiting", "a misscan waits for a supervisor to confirm it")
        elif due == "halted":
            self._waiting(
                "halted",
                f"TABLE {self.table} IS HALTED: a supervisor must clear the halt on the console",
            )
        return not self._wait(self.poll)

    # --- what the console says -------------------------------------------------------------

    def _due(self) -> str:
        response = self._call("GET", self._console)
        if response.status_code != 200:
            refusal = refusal_of(response)
            if response.status_code >= 500 or response.status_code == 429:
                raise _UnavailableError(f"the console answered {refusal}")
            raise RobotError(f"the console of table {self.table} refused the dealer: {refusal}")
        try:
            state = response.json()
        except ValueError:
            state = None
        due = state.get("next") if isinstance(state, dict) else None
        if not isinstance(due, str):
            raise _UnavailableError("the console's state has no 'next'")
        return due

    # --- a shoe change -------------------------------------------------------------------------

    def _start_shoe(self) -> bool:
        # The shoe before is out of the box, whoever starts the next one.
        self.shoe = None
        shoe = self._new_shoe()
        body = {"shuffled_by": "robot", "decks": DECKS, "deck_serials": [], "cut_card": CUT_CARD}
        try:
            response = self._call("POST", f"{self._console}/shoe", body=body)
        except httpx.TransportError as error:
            # It may have been started: the console's next answer says (_settle_unsure_start).
            self.shoe, self._start_unsure = shoe, True
            self._say("unreachable", f"no answer to the shoe change ({error})")
            return not self._wait(self.poll)
        if not 200 <= response.status_code < 300:
            refusal = refusal_of(response)
            if response.status_code in (401, 403, 404, 422):
                raise RobotError(f"the shoe change was refused: {refusal}")
            self._say("refused", f"the shoe change was refused ({refusal}); trying again")
            return not self._wait(self.poll)
        self._shoe_started(shoe)
        return True

    def _shoe_started(self, shoe: PhysicalShoe) -> None:
        self.shoe, self._start_unsure = shoe, False
        self.shoes_started += 1
        self._say("shoe", f"shoe {self.shoes_started}: {len(shoe.order)} cards shuffled, in play")

    def _settle_unsure_start(self, due: str) -> None:
        if not self._start_unsure or self.shoe is None:
            return
        if due == "shoe_change":  # it was not started: the next shoe change shuffles anew
            self.shoe, self._start_unsure = None, False
        else:
            self._shoe_started(self.shoe)

    # --- a card --------------------------------------------------------------------------------

    def _deal(self, due: str) -> None:
        assert self.shoe is not None  # _step deals only from the robot's own shoe
        try:
            card = self.shoe.draw()
        except ShoeEmptyError as error:
            raise RobotError(f"{error}, and the server has not called a shoe change") from error
        self._waiting_said = None
        # Only a card of a hand is entered by hand: the console's misscan is for the coup.
        if due in POSITIONS and self._rng.random() < self.misscan_rate and self._by_hand(card):
            return
        self.reads += 1
        scan_id = f"{self.device_name}:{self.reads:06d}"
        try:
            answer = self.device.push(card, scan_id)
        except RefusalError as refusal:
            if refusal.fatal:
                raise RobotError(f"the shoe device was refused: {refusal}") from refusal
            kind = "halted" if refusal.halted else "refused"
            self._say(kind, f"{scan_id} {card}: refused, not stored ({refusal})")
            return
        repeat = " (repeat)" if answer.repeat else ""
        self._say(
            "card",
            f"{scan_id} {card} -> {answer.position}{repeat}, next {answer.next}",
        )

    def _by_hand(self, card: Card) -> bool:
        """The dealer enters ``card`` by hand; False if that was refused (the shoe reads it)."""
        body = {"card": card.code, "reason": MISSCAN_REASON}
        try:
            response = self._call("POST", f"{self._console}/misscan", body=body)
        except httpx.TransportError as error:
            self._say("unreachable", f"misscan of {card} not entered ({error}); the shoe reads it")
            return False
        if not 200 <= response.status_code < 300:
            self._say(
                "refused",
                f"misscan of {card} refused ({refusal_of(response)}); the shoe reads it again",
            )
            return False
        self.misscans += 1
        self._misscan = card
        self._say(
            "misscan", f"{card} not read: entered by hand by {self._staff['dealer'].username}"
        )
        if "supervisor" in self._tokens:
            self._confirm()
        return True

    def _confirm(self) -> None:
        body = {"reason": CONFIRM_REASON}
        try:
            response = self._call(
                "POST", f"{self._console}/misscan/confirm", body=body, who="supervisor"
            )
        except httpx.TransportError as error:
            self._say("unreachable", f"the misscan's confirmation got no answer ({error})")
            return
        if not 200 <= response.status_code < 300:
            self._say("refused", f"the misscan's confirmation was refused ({refusal_of(response)})")
            return
        self._say(
            "confirm",
            f"misscan of {self._misscan} confirmed by {self._staff['supervisor'].username}",
        )
        self._misscan = None

    # --- HTTP ------------------------------------------------------------------------------------

    def _login(self, staff: Staff) -> str:
        body = {"username": staff.username, "password": staff.password}
        try:
            response = self.http.post(self._login_url, json=body, timeout=self._timeout)
        except httpx.TransportError as error:
            raise RobotError(
                f"cannot reach the server to log {staff.username} in: {error}"
            ) from error
        if response.status_code != 201:
            raise LoginError(f"{staff.username} cannot log in: {refusal_of(response)}")
        try:
            token = response.json().get("token")
        except (ValueError, AttributeError):
            token = None
        if not isinstance(token, str):
            raise RobotError(f"the login of {staff.username} answered no token")
        return token

    def _call(
        self, method: str, url: str, *, body: Any = None, who: str = "dealer"
    ) -> httpx.Response:
        """One request with ``who``'s staff token; logged in again once if the token expired."""
        for again in (False, True):
            headers = {"Authorization": f"Bearer {self._tokens[who]}"}
            response = self.http.request(
                method, url, json=body, headers=headers, timeout=self._timeout
            )
            if response.status_code != 401 or again:
                break
            self._tokens[who] = self._login(self._staff[who])
        return response

    # --- notes -----------------------------------------------------------------------------------

    def _say(self, kind: str, text: str) -> None:
        self._waiting_said = None
        self._note(Note(kind, text))

    def _waiting(self, kind: str, text: str) -> None:
        """A note said once for as long as the robot waits for the same thing."""
        if self._waiting_said != text:
            self._note(Note(kind, text))
            self._waiting_said = text
