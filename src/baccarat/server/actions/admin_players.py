"""Operators and players: search, balance, history and responsible-gaming state; lock,
unlock and close an account; operator limits.

A lock ends every session of the player and closes their feeds; a locked or closed player
cannot log in (``accounts.status_refusal``). A closure is a lock that cannot be undone; the
money stays in the ledger. An operator limit caps the player's own limit of that kind and
period: the player's limit is lowered to it at once if higher (``responsible.caps``), and
the player may lower it further but never raise it past the cap. Each change is one
transaction with its audit record.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sqlalchemy import Connection

from baccarat.refusals import Refusal, RefusalCode
from baccarat.responsible.caps import impose_cap
from baccarat.responsible.instants import from_epoch_ms
from baccarat.server.actions.controls import breaks_view
from baccarat.server.admin_models import (
    CapRequest,
    CapsView,
    PlayerDetail,
    PlayerList,
    PlayerSummary,
)
from baccarat.server.clock import Clock, iso_utc
from baccarat.server.feedsessions import end_feeds
from baccarat.server.models import HistoryPage, HistoryRound
from baccarat.server.service import Service
from baccarat.store.admin_reads import find_players, player_summary
from baccarat.store.history import history_page
from baccarat.store.operator_limits import load_caps, remove_cap, save_cap
from baccarat.store.player_status import PlayerStatus, get_status, save_status
from baccarat.store.responsible import Controls, load_controls, save_controls
from baccarat.store.sessions import end_sessions
from baccarat.store.staff import StaffSession, audit_staff

__all__ = ["PlayerDesk"]


def _summary(found: dict[str, Any]) -> PlayerSummary:
    last = found["last_login_at"]
    return PlayerSummary.model_validate(
        {
            **{key: found[key] for key in ("id", "username", "demo", "balance", "status")},
            "created_at": iso_utc(found["created_at"]),
            "last_login_at": None if last is None else iso_utc(last),
        }
    )


def _caps(c: Connection, player: str) -> list[dict[str, Any]]:
    return [
        {"kind": kind.value, "period": period.value, "amount": amount}
        for (kind, period), amount in sorted(load_caps(c, player).items())
    ]


#: The refusal of a change of an account to the state it is in already.
_ALREADY = {
    "locked": RefusalCode.PLAYER_LOCKED,
    "active": RefusalCode.PLAYER_ACTIVE,
    "closed": RefusalCode.PLAYER_CLOSED,
}


def _found(c: Connection, player: str) -> dict[str, Any] | Refusal:
    found = player_summary(c, player)
    if found is None:
        return Refusal(RefusalCode.PLAYER_NOT_FOUND, f"there is no player {player!r}")
    return found


class PlayerDesk:
    """The player actions of one server, judged by the server's clock ``clock``."""

    def __init__(self, service: Service, clock: Clock) -> None:
        self.service = service
        self.clock = clock

    async def search(self, text: str, limit: int) -> PlayerList:
        found = await self.service.runner.read(lambda c: find_players(c, text, limit))
        return PlayerList(players=[_summary(item) for item in found])

    async def detail(self, player: str) -> PlayerDetail | Refusal:
        """Balance, status, limits and caps, breaks and the running session."""
        now_ms = self.clock.now_ms()

        def run(c: Connection) -> PlayerDetail | Refusal:
            found = _found(c, player)
            if isinstance(found, Refusal):
                return found
            controls = load_controls(c, [player]).get(player, Controls())
            stored = controls.limits.to_json()
            session = controls.session
            return PlayerDetail.model_validate(
                {
                    "player": _summary(found),
                    "status_reason": get_status(c, player).reason,
                    "limits": stored["limits"],
                    "pending": stored["pending"],
                    "caps": _caps(c, player),
                    "breaks": breaks_view(controls, now_ms),
                    "session": None if session is None else session.to_json(),
                }
            )

        return await self.service.runner.read(run)

    async def history(self, player: str, page: int, per_page: int) -> HistoryPage | Refusal:
        def run(c: Connection) -> tuple[int, list[HistoryRound]] | Refusal:
            found = _found(c, player)
            if isinstance(found, Refusal):
                return found
            total, rounds = history_page(c, player, page, per_page)
            return total, [
                HistoryRound.model_validate({**r.to_json(), "time": iso_utc(r.time_ms)})
                for r in rounds
            ]

        outcome = await self.service.runner.read(run)
        if isinstance(outcome, Refusal):
            return outcome
        total, rounds = outcome
        pages = (total + per_page - 1) // per_page
        return HistoryPage(page=page, per_page=per_page, total=total, pages=pages, rounds=rounds)

    async def set_state(
        self, session: StaffSession, player: str, state: str, reason: str
    ) -> PlayerSummary | Refusal:
        """Lock, unlock or close the account (``state``: locked, active or closed)."""
        now = self.clock.now_ms()

        def run(c: Connection) -> dict[str, Any] | Refusal:
            found = _found(c, player)
            if isinstance(found, Refusal):
                return found
            before = get_status(c, player)
            if before.state == "closed":
                return Refusal(RefusalCode.PLAYER_CLOSED, "the account is closed for good")
            if before.state == state:
                return Refusal(_ALREADY[state], f"the account is {state} already")
            locked = None if state == "active" else (before.locked_at or now)
            closed = now if state == "closed" else None
            save_status(c, player, PlayerStatus(locked, closed, reason), now)
            ended = 0 if state == "active" else end_sessions(c, player, now)
            action = {"locked": "player_lock", "active": "player_unlock", "closed": "player_close"}
            details = {
                "player": player,
                "before": before.state,
                "after": state,
                "sessions_ended": ended,
            }
            audit_staff(c, now, session, action[state], reason, details)
            return _found(c, player)

        found = await self.service.runner.write(run)
        if isinstance(found, Refusal):
            return found
        if state != "active":
            end_feeds(self.service, player)
        return _summary(found)

    async def set_cap(
        self, session: StaffSession, player: str, body: CapRequest
    ) -> CapsView | Refusal:
        """Set (or, with no amount, remove) an operator limit of one kind and period."""
        now = self.clock.now_ms()
        kind, period, amount = body.kind, body.period, body.amount

        def run(c: Connection) -> CapsView | Refusal:
            found = _found(c, player)
            if isinstance(found, Refusal):
                return found
            details: dict[str, Any] = {
                "player": player,
                "kind": kind.value,
                "period": period.value,
                "amount": amount,
                # The cap before and after: the audit log shows the change as a diff.
                "before": load_caps(c, player).get((kind, period)),
                "after": amount,
            }
            if amount is None:
                if not remove_cap(c, player, kind, period):
                    message = "there is no such operator limit"
                    return Refusal(RefusalCode.NO_OPERATOR_LIMIT, message)
            else:
                save_cap(c, player, kind, period, amount, now)
                controls = load_controls(c, [player], lock=True).get(player, Controls())
                limits, change = impose_cap(
                    controls.limits, kind, period, amount, from_epoch_ms(now)
                )
                save_controls(c, player, replace(controls, limits=limits), now)
                details["player_limit"] = change.to_json()
            audit_staff(c, now, session, "operator_limit", body.reason, details)
            controls = load_controls(c, [player]).get(player, Controls())
            return CapsView.model_validate(
                {
                    "player_id": player,
                    "caps": _caps(c, player),
                    "limits": controls.limits.to_json()["limits"],
                }
            )

        return await self.service.runner.write(run)
