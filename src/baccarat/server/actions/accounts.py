"""Guests, registration, login, logout and feed tickets: each one transaction (registration,
login and logout with their audit record in it).

A guest is given the demo credit in demo money and a session that expires after the
server's ``guest_lifetime_ms``, unless the operator turned guests off. A guest and a login are
answered a seat device token naming their player (``server.devices.issue_seat``), which the
page keeps apart from the session: a device whose last seat an operator has locked or closed
gets no new guest while it stays so (``device_locked``), and the page can ask why its token
stopped working (``seat_status``). A registered player
logs in with a username and a password (argon2id, checked in the
guard's password pool, off the event loop) and gets a bearer token that expires after the
server's ``session_lifetime_ms``. A login during a break is refused, and the refusal is on
record. A second login joins the running responsible-gaming session; a logout ends it.
"""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy import Connection

from baccarat.passwords import (
    PasswordError,
    check_password,
    dummy_verify,
    hash_password,
    needs_rehash,
    verify_password,
)
from baccarat.refusals import Refusal, RefusalCode
from baccarat.responsible import PlayerState, Session, may_play
from baccarat.responsible.instants import from_epoch_ms
from baccarat.server.actions.launches import operator_me
from baccarat.server.clock import Clock, iso_utc
from baccarat.server.devices import issue_seat, seat_holder
from baccarat.server.feedsessions import end_feeds
from baccarat.server.guard import Guard
from baccarat.server.models import (
    LoggedIn,
    Me,
    PlayerCreated,
    Registered,
    SeatStatus,
    SessionModel,
    Ticket,
)
from baccarat.server.service import Service
from baccarat.store.accounts import (
    Login,
    UsernameTakenError,
    count_failed_login,
    end_sessions,
    find_login,
    normalize_username,
    open_session,
    register,
    set_password_hash,
    take_failed_logins,
)
from baccarat.store.audit_log import append_audit
from baccarat.store.clock import db_now
from baccarat.store.player_status import PlayerStatus, get_status
from baccarat.store.players import create_player, is_demo, new_token, player_balance, token_hash
from baccarat.store.responsible import Controls, load_controls, save_controls
from baccarat.store.sessions import LiveSession, issue_ticket
from baccarat.store.sessions import open_session as open_guest_session

__all__ = ["TICKET_TTL_MS", "Accounts"]

#: How long a feed ticket opens the feed: enough to connect, too short to be worth stealing.
TICKET_TTL_MS = 30_000


def status_refusal(status: PlayerStatus) -> Refusal | None:
    """Why an operator's lock or closure refuses a login, if it does."""
    if status.state == "closed":
        return Refusal(RefusalCode.ACCOUNT_CLOSED, "this account is closed")
    if status.state == "locked":
        return Refusal(RefusalCode.ACCOUNT_LOCKED, "this account is locked: contact support")
    return None


class Accounts:
    """The account transactions of one server, judged by the server's clock ``clock``."""

    def __init__(self, service: Service, guard: Guard, clock: Clock) -> None:
        self.service = service
        self.guard = guard
        self.clock = clock

    async def new_guest(self, seat_device: str | None = None) -> PlayerCreated | Refusal:
        """A guest player holding the demo credit in demo money, its token (a session that
        expires, like a login's) and its seat device token; ``guests_disabled`` while guests
        are off, ``device_locked`` while the player of the device's last seat
        (``seat_device``) is locked or closed. A seat device token this server did not make
        counts as none: it cannot keep a device from demo play for ever."""
        config = self.service.config
        if not config.guests:
            message = "this table service does not offer demo play"
            return Refusal(RefusalCode.GUESTS_DISABLED, message)
        credit, lifetime = config.guest_credit, config.guest_lifetime_ms
        now = self.clock.now_ms()
        key = await self.service.device_key()
        holder = seat_holder(key, seat_device)

        def run(c: Connection) -> tuple[str, str] | Refusal:
            if holder is not None and get_status(c, holder).state != "active":
                message = (
                    "the account last played on this device is locked by the casino: "
                    "contact support"
                )
                return Refusal(RefusalCode.DEVICE_LOCKED, message)
            # The player's own token hash is of a secret never shown.
            player_id = create_player(c, new_token(), credit, db_now(c), demo=True)
            token, _ = open_guest_session(c, player_id, now, lifetime)
            return player_id, token

        made = await self.service.runner.write(run)
        if isinstance(made, Refusal):
            return made
        player_id, token = made
        self.service.tokens.know(token, player_id)
        seat = issue_seat(key, player_id)
        return PlayerCreated(id=player_id, token=token, balance=credit, demo=True, seat_device=seat)

    async def seat_status(self, seat_device: str) -> SeatStatus | Refusal:
        """Whether the player of a device's last seat is locked or closed (why its token
        stopped working), or active; ``invalid_request`` for a token this server did not
        make."""
        holder = seat_holder(await self.service.device_key(), seat_device)
        if holder is None:
            return Refusal(RefusalCode.INVALID_REQUEST, "not a seat device token of this server")
        state = await self.service.runner.read(lambda c: get_status(c, holder).state)
        return SeatStatus.model_validate({"status": state})

    async def me(self, player: str) -> Me | Refusal:
        """The player's balance (money not staked), and whether it is demo money; an
        operator's player's is the one at the operator's wallet (``wallet_unavailable`` when
        it does not answer)."""
        launched = await operator_me(self.service, player)
        if launched is not None:
            return launched

        def run(c: Connection) -> Me:
            return Me(id=player, balance=player_balance(c, player), demo=is_demo(c, player))

        return await self.service.runner.read(run)

    async def ticket(self, session: LiveSession) -> Ticket:
        """A single-use ticket that opens the feed as the session's player for
        ``TICKET_TTL_MS`` (only its hash is stored)."""
        now = self.clock.now_ms()
        hashed = session.token_hash
        ticket = await self.service.runner.write(
            lambda c: issue_ticket(c, hashed, now, TICKET_TTL_MS)
        )
        return Ticket(ticket=ticket, expires_at=iso_utc(now + TICKET_TTL_MS))

    async def register(self, username: str, password: str) -> Registered | Refusal:
        """A new player with no money: a username (3-32 of a-z, 0-9, '.', '_', '-') and a
        password the policy accepts (else ``invalid_account``; ``username_taken``)."""
        try:
            name = normalize_username(username)
            check_password(password, username=name)
        except (ValueError, PasswordError) as error:
            return Refusal(RefusalCode.INVALID_ACCOUNT, str(error))
        stored = await self.guard.hash(hash_password, password)
        now = self.clock.now_ms()

        def run(c: Connection) -> str:
            player_id = register(c, name, stored, now)
            append_audit(c, now, f"player:{player_id}", "register", {"username": name})
            return player_id

        try:
            player_id = await self.service.runner.write(run)
        except UsernameTakenError as error:
            return Refusal(RefusalCode.USERNAME_TAKEN, str(error))
        return Registered(id=player_id, username=name, balance=0)

    async def verify(self, username: str, password: str) -> Login | Refusal:
        """The login of ``username`` if ``password`` is its password; else
        ``bad_credentials`` (the failure audited, at the guard's audit rate). An unknown
        username costs a hash too, so the answer's time does not tell it apart."""
        found = await self.service.runner.read(lambda c: find_login(c, username))
        if found is None:
            await self.guard.hash(dummy_verify, password)
            good = False
        else:
            good = await self.guard.hash(verify_password, found.password_hash, password)
        if found is None or not good:
            now = self.clock.now_ms()
            details = await self.guard.failed_login_details(username)
            known_player = None if found is None else found.player_id

            def record(c: Connection) -> None:
                if known_player is not None:  # its owner is told at the next good login
                    count_failed_login(c, known_player)
                if details is not None:
                    append_audit(c, now, "anonymous", "login_failed", details)

            if known_player is not None or details is not None:
                await self.service.runner.write(record)
            return Refusal(RefusalCode.BAD_CREDENTIALS, "wrong username or password")
        return found

    async def log_in(self, login: Login, password: str, device: str) -> LoggedIn | Refusal:
        """Open a session for a verified ``login`` (its ``password`` rehashed if the stored
        hash is of older parameters), answered with the device token ``device``; or the
        policy's refusal (a break), on record."""
        rehashed = None
        if needs_rehash(login.password_hash):
            rehashed = await self.guard.hash(hash_password, password)
        now = self.clock.now_ms()
        lifetime = self.service.config.session_lifetime_ms
        pid = login.player_id

        def run(c: Connection) -> tuple[str, int, Session, int] | Refusal:
            controls = load_controls(c, [pid], lock=True).get(pid, Controls())
            moment = from_epoch_ms(now)
            refusal = status_refusal(get_status(c, pid)) or may_play(
                PlayerState(breaks=controls.breaks), moment
            )
            if refusal is not None:
                # Committed with the refusal: an attempt to play during a break is on record.
                details = {"code": refusal.code.value}
                append_audit(c, now, f"player:{pid}", "login_refused", details)
                return refusal
            failed = take_failed_logins(c, pid)
            token, expires = open_session(c, pid, now, lifetime)
            running = controls.session
            # A second login (another device) joins the running session: logging in again
            # must not restart the session clock. A session past its time limit is replaced.
            if running is not None and not running.limit_reached(moment):
                session = running
            else:
                session = Session.start(moment, controls.session_settings)
            save_controls(c, pid, replace(controls, session=session), now)
            if rehashed is not None:
                set_password_hash(c, pid, rehashed)
            append_audit(c, now, f"player:{pid}", "login", {"expires_at": iso_utc(expires)})
            return token, expires, session, failed

        outcome = await self.service.runner.write(run)
        if isinstance(outcome, Refusal):
            return outcome
        token, expires, session, failed = outcome
        self.service.tokens.know(token, pid)
        balance = await self.service.runner.read(lambda c: player_balance(c, pid))
        previous = login.last_login_at
        return LoggedIn(
            token=token,
            player_id=pid,
            username=login.username,
            expires_at=iso_utc(expires),
            previous_login_at=None if previous is None else iso_utc(previous),
            failed_logins=failed,
            device=device,
            seat_device=issue_seat(await self.service.device_key(), pid),
            balance=balance,
            session=SessionModel.model_validate(session.to_json()),
        )

    async def log_out(self, player: str, token: str) -> Refusal | None:
        """End the session of ``token`` (a login's or a guest's) and close its feeds;
        ``not_a_session`` if it has ended already."""
        now = self.clock.now_ms()

        def run(c: Connection) -> int:
            ended = end_sessions(c, player, now, token=token)
            if ended:
                controls = load_controls(c, [player], lock=True).get(player, Controls())
                save_controls(c, player, replace(controls, session=None), now)
                append_audit(c, now, f"player:{player}", "logout", {})
            return ended

        if not await self.service.runner.write(run):
            return Refusal(RefusalCode.NOT_A_SESSION, "the session has ended already")
        end_feeds(self.service, player, token_hash(token))
        return None
