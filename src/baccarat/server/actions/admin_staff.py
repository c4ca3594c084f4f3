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
from baccarat.server.admin_models import StaffList, StaffLoggedIn, StaffMemberView
from baccarat.server.clock import Clock, iso_utc
from baccarat.server.errors import ApiError
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
    live_staff_session,
    open_staff_session,
    touch_staff_session,
)

__all__ = ["STAFF_SESSION_MS", "StaffAccounts", "member_view"]

#: How long a staff token lives at most (a shift); it also idles out like a player's.
STAFF_SESSION_MS = 8 * 3_600_000
_MAX_TOKEN = 200


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
    """The staff transactions of one server, timed by ``clock`` (the policy clock)."""

    def __init__(self, service: Service, guard: Guard, clock: Clock) -> None:
        self.service = service
        self.guard = guard
        self.clock = clock

    @property
    def idle_ms(self) -> int:
        return self.service.config.session_idle_ms

    async def session(self, token: str) -> StaffSession | None:
        """The live staff session of ``token``, or ``None``; a use of it."""
        if not token or len(token) > _MAX_TOKEN:
            return None
        now, idle = self.clock.now_ms(), self.idle_ms
        found = await self.service.runner.read(lambda c: live_staff_session(c, token, now, idle))
        if found is not None and now - found.last_seen_at >= max(1, min(60_000, idle // 30)):
            hashed = found.token_hash
            await self.service.runner.write(lambda c: touch_staff_session(c, hashed, now))
        return found

    async def is_player_token(self, token: str) -> bool:
        """Whether ``token`` is a live player session (told apart from no token at all)."""
        if not token or len(token) > _MAX_TOKEN:
            return False
        return await self.service.tokens.player(token, touch=False) is not None

    async def log_in(self, username: str, password: str) -> StaffLoggedIn:
        """A staff token for a good username and password of a member not disabled; else
        401 ``bad_credentials`` (audited; an unknown name costs a hash too)."""
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
            raise ApiError(401, "bad_credentials", "wrong username or password")
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
    ) -> StaffMemberView:
        """A new member of staff (422 ``invalid_account`` for a weak password, 409
        ``username_taken``)."""
        try:
            check_password(password, username=username.strip().lower())
        except PasswordError as error:
            raise ApiError(422, "invalid_account", str(error)) from None
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
            raise ApiError(409, "username_taken", str(error)) from None
        except ValueError as error:
            raise ApiError(422, "invalid_account", str(error)) from None
        return member_view(member)

    async def disable(self, session: StaffSession, username: str, reason: str) -> StaffMemberView:
        """Disable a member of staff and end their sessions (404 ``staff_not_found``; 409
        ``own_account`` for oneself, ``staff_disabled`` if disabled already)."""
        now = self.clock.now_ms()

        def run(c: Connection) -> StaffMember | str:
            member = find_staff(c, username)
            if member is None:
                return "missing"
            if member.id == session.staff_id:
                return "own"
            if not disable_staff(c, member.id, now):
                return "disabled"
            audit_staff(c, now, session, "staff_disable", reason, {"username": member.username})
            return member

        outcome = await self.service.runner.write(run)
        if outcome == "missing":
            raise ApiError(404, "staff_not_found", f"there is no member of staff {username!r}")
        if outcome == "own":
            raise ApiError(409, "own_account", "a member of staff cannot disable themselves")
        if outcome == "disabled":
            raise ApiError(409, "staff_disabled", f"{username!r} is disabled already")
        assert isinstance(outcome, StaffMember)
        return member_view(replace(outcome, disabled_at=now))
