"""Staff accounts and sessions: log in and out, look a staff token up, and (admins) create,
list and disable members of staff. Every change is audited in its own transaction.

A staff token is looked up in ``staff_sessions`` only, so it opens no player route; a
player's token found here as nothing is told apart (403 ``staff_only``) from no token at all.
"""

from __future__ import annotations

from dataclasses import replace

from sqlalchemy import Connection

from baccarat.passwords import (
    PasswordError,
    check_password,
    dummy_verify,
    hash_password,
    verify_password,
)
from baccarat.refusals import Refusal, RefusalCode
from baccarat.server.admin_models import StaffList, StaffLoggedIn, StaffMemberView
from baccarat.server.clock import Clock, iso_utc
from baccarat.server.guard import Guard
from baccarat.server.service import Service
from baccarat.store.audit_log import append_audit
from baccarat.store.staff import (
    StaffMember,
    StaffNameTakenError,
    StaffSession,
    audit_staff,
    create_staff,
    disable_staff,
    end_staff_session,
    find_staff,
    list_staff,
    open_staff_session,
)

__all__ = ["STAFF_SESSION_MS", "StaffAccounts", "member_view"]

#: How long a staff token lives at most (a shift); it also idles out like a player's.
STAFF_SESSION_MS = 8 * 3_600_000


def member_view(member: StaffMember) -> StaffMemberView:
    disabled = member.disabled_at
    return StaffMemberView(
        id=member.id,
        username=member.username,
        role=member.role,
        created_at=iso_utc(member.created_at),
        disabled_at=None if disabled is None else iso_utc(disabled),
    )


class StaffAccounts:
    """The staff transactions of one server, timed by the server's clock ``clock``."""

    def __init__(self, service: Service, guard: Guard, clock: Clock) -> None:
        self.service = service
        self.guard = guard
        self.clock = clock

    async def session(self, token: str) -> StaffSession | None:
        """The live staff session of ``token``, or ``None``; a use of it (the token book's
        staff sessions: the players' mechanism over ``staff_sessions``)."""
        return await self.service.tokens.staff.session(token)

    async def is_player_token(self, token: str) -> bool:
        """Whether ``token`` is a live player session (told apart from no token at all)."""
        return await self.service.tokens.player(token, touch=False) is not None

    async def log_in(self, username: str, password: str, device: str) -> StaffLoggedIn | Refusal:
        """A staff token for a good username and password of a member not disabled; else
        ``bad_credentials`` (audited; an unknown name costs a hash too)."""
        found = await self.service.runner.read(lambda c: find_staff(c, username))
        if found is None or found.disabled_at is not None:
            await self.guard.hash(dummy_verify, password)
            good = False
        else:
            good = await self.guard.hash(verify_password, found.password_hash, password)
        now = self.clock.now_ms()
        if found is None or found.disabled_at is not None or not good:
            details = await self.guard.failed_login_details(username)
            if details is not None:
                await self.service.runner.write(
                    lambda c: append_audit(c, now, "anonymous", "staff_login_failed", details)
                )
            return Refusal(RefusalCode.BAD_CREDENTIALS, "wrong username or password")
        member = found

        def run(c: Connection) -> tuple[str, int]:
            token, expires = open_staff_session(c, member.id, now, STAFF_SESSION_MS)
            session = StaffSession(member.id, member.username, member.role, "", now)
            audit_staff(c, now, session, "staff_login", None, {"expires_at": iso_utc(expires)})
            return token, expires

        token, expires = await self.service.runner.write(run)
        return StaffLoggedIn(
            token=token,
            username=member.username,
            role=member.role,
            expires_at=iso_utc(expires),
            device=device,
        )

    async def log_out(self, session: StaffSession) -> None:
        """End the staff session (audited)."""
        now = self.clock.now_ms()

        def run(c: Connection) -> None:
            if end_staff_session(c, session.token_hash, now):
                audit_staff(c, now, session, "staff_logout", None, {})

        await self.service.runner.write(run)

    async def staff(self) -> StaffList:
        members = await self.service.runner.read(list_staff)
        return StaffList(staff=[member_view(member) for member in members])

    async def create(
        self, session: StaffSession, username: str, role: str, password: str, reason: str
    ) -> StaffMemberView | Refusal:
        """A new member of staff (``invalid_account`` for a weak password,
        ``username_taken``)."""
        try:
            check_password(password, username=username.strip().lower())
        except PasswordError as error:
            return Refusal(RefusalCode.INVALID_ACCOUNT, str(error))
        stored = await self.guard.hash(hash_password, password)
        now = self.clock.now_ms()

        def run(c: Connection) -> StaffMember:
            member = create_staff(c, username, role, stored, now)
            details = {"username": member.username, "new_role": role}
            audit_staff(c, now, session, "staff_create", reason, details)
            return member

        try:
            member = await self.service.runner.write(run)
        except StaffNameTakenError as error:
            return Refusal(RefusalCode.USERNAME_TAKEN, str(error))
        except ValueError as error:
            return Refusal(RefusalCode.INVALID_ACCOUNT, str(error))
        return member_view(member)

    async def disable(
        self, session: StaffSession, username: str, reason: str
    ) -> StaffMemberView | Refusal:
        """Disable a member of staff and end their sessions (``staff_not_found``;
        ``own_account`` for oneself, ``staff_disabled`` if disabled already)."""
        now = self.clock.now_ms()

        def run(c: Connection) -> StaffMember | Refusal:
            member = find_staff(c, username)
            if member is None:
                message = f"there is no member of staff {username!r}"
                return Refusal(RefusalCode.STAFF_NOT_FOUND, message)
            if member.id == session.staff_id:
                message = "a member of staff cannot disable themselves"
                return Refusal(RefusalCode.OWN_ACCOUNT, message)
            if not disable_staff(c, member.id, now):
                return Refusal(RefusalCode.STAFF_DISABLED, f"{username!r} is disabled already")
            details = {"username": member.username, "before": "active", "after": "disabled"}
            audit_staff(c, now, session, "staff_disable", reason, details)
            return member

        outcome = await self.service.runner.write(run)
        if isinstance(outcome, Refusal):
            return outcome
        return member_view(replace(outcome, disabled_at=now))
