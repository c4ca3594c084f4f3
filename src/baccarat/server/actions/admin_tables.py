"""Operators and tables: open, pause and close a table; change its rule set, limits, timings
and dealing mode for its next shoe, or its limits for its next round; see who watches and who
bets.

What an operator sets is stored (``baccarat.store.table_controls``, ``table_limits``), so it
holds for whichever node deals the table: a status is then sent as a command to the table's
runtime (here, or on the node that deals it), which reads it back and opens no new round
unless the table is open (a pause lets the round in play finish); the runtime takes the
pending change when it starts the next shoe, and the limits when it opens the next round.
Every change is audited in its own transaction, with what it was before and after.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sqlalchemy import Connection

from baccarat.live.commands import ChangeShoe, CloseTable, Command, Pause, Resume
from baccarat.refusals import Refusal, RefusalCode
from baccarat.rulesets import BUILTIN_RULESETS, RuleSet, load_ruleset, parse_ruleset
from baccarat.server.admin_models import (
    IntegrityView,
    TableAudience,
    TableChange,
    TableControlView,
    TableLimitsChange,
)
from baccarat.server.clock import Clock
from baccarat.server.mirror import TableMirror
from baccarat.server.service import Service
from baccarat.store.admin_reads import round_bettors
from baccarat.store.shoes import open_shoe
from baccarat.store.staff import StaffSession, audit_staff
from baccarat.store.table_controls import (
    NEW_SHOE,
    TableControl,
    get_control,
    set_pending,
    set_status,
)
from baccarat.store.table_limits import LimitsRow, get_limits, queue_limits
from baccarat.table.limits import LimitsError, TableLimits, bet_limits, check_limits, table_range

__all__ = ["TableDesk", "limits_view", "next_ruleset", "pending_view"]


#: What a studio table's house chooses for its procedures (``TableSettings``).
_STUDIO_SETTINGS = ("before_time", "exposed", "early_close")


def pending_view(pending: dict[str, Any] | None) -> dict[str, Any] | None:
    """What waits for the next shoe, as the API shows it: the rule set's name and every
    bet's limits (when the rule set changes), and the settings."""
    if pending is None:
        return None
    shown: dict[str, Any] = {}
    toml = pending.get("ruleset_toml")
    if toml is not None:
        ruleset = parse_ruleset(toml)
        shown["ruleset"] = ruleset.name
        shown["limits"] = {
            name: {"min_stake": rule.min_stake, "max_stake": rule.max_stake}
            for name, rule in ruleset.bets.items()
        }
    if pending.get("settings"):
        shown["settings"] = dict(pending["settings"])
    if pending.get(NEW_SHOE):
        shown[NEW_SHOE] = True
    return shown


def limits_view(ruleset: RuleSet, limits: TableLimits | None) -> dict[str, Any]:
    """The limits a round of ``ruleset`` opens under (``None``: the rule set's own), as the
    audit log keeps them: the table's range and every bet's."""
    if limits is None:
        low, high = table_range(ruleset)
        bets = {name: (rule.min_stake, rule.max_stake) for name, rule in ruleset.bets.items()}
    else:
        low, high = limits.min_stake, limits.max_stake
        bets = bet_limits(ruleset, limits)
    return {
        "min_stake": low,
        "max_stake": high,
        "bets": {name: {"min_stake": a, "max_stake": b} for name, (a, b) in bets.items()},
    }


def _next_shoe_before(
    mirror: TableMirror, pending: dict[str, Any] | None, after: dict[str, Any]
) -> dict[str, Any]:
    """What the next shoe would have had, before a change, for each field it sets (``after``)."""
    waiting = pending_view(pending) or {}
    before: dict[str, Any] = {}
    if "ruleset" in after:
        before["ruleset"] = waiting.get("ruleset", mirror.ruleset.name)
    if "limits" in after:
        toml = (pending or {}).get("ruleset_toml")
        ruleset = mirror.ruleset if toml is None else parse_ruleset(toml)
        before["limits"] = {
            name: {"min_stake": rule.min_stake, "max_stake": rule.max_stake}
            for name, rule in ruleset.bets.items()
            if name in after["limits"]
        }
    if "settings" in after:
        now = {**mirror.settings.to_json(), **waiting.get("settings", {})}
        before["settings"] = {key: now.get(key) for key in after["settings"]}
    return before


class TableDesk:
    """The table actions of one server."""

    def __init__(self, service: Service, clock: Clock) -> None:
        self.service = service
        self.clock = clock

    def _view(
        self, mirror: TableMirror, control: TableControl, limits: LimitsRow | None = None
    ) -> TableControlView:
        snapshot = mirror.snapshot() if mirror.ready.is_set() else {}
        round_state = snapshot.get("round")
        limits = limits or LimitsRow(mirror.id)
        return TableControlView(
            id=mirror.id,
            status=control.status,
            phase=None if round_state is None else round_state["phase"],
            round_id=None if round_state is None else round_state["id"],
            ruleset=mirror.ruleset.name,
            settings=snapshot.get("settings", mirror.settings.to_json()),
            pending=pending_view(control.pending),
            watching=mirror.audience(),
            limits=None if limits.current is None else limits.current.to_json(),
            pending_limits=None if limits.pending is None else limits.pending.to_json(),
        )

    def _mirror(self, table_id: str) -> TableMirror | Refusal:
        mirror = self.service.tables.get(table_id)
        if mirror is None:
            return Refusal(RefusalCode.TABLE_NOT_FOUND, f"there is no table {table_id!r}")
        return mirror

    async def tables(self) -> list[TableControlView]:
        ids = sorted(self.service.tables)

        def run(c: Connection) -> list[tuple[TableControl, LimitsRow]]:
            return [(get_control(c, table_id), get_limits(c, table_id)) for table_id in ids]

        found = await self.service.runner.read(run)
        return [self._view(self.service.tables[c.table_id], c, lim) for c, lim in found]

    async def table(self, table_id: str) -> TableControlView | Refusal:
        mirror = self._mirror(table_id)
        if isinstance(mirror, Refusal):
            return mirror
        control, limits = await self.service.runner.read(
            lambda c: (get_control(c, table_id), get_limits(c, table_id))
        )
        return self._view(mirror, control, limits)

    async def set_status(
        self, session: StaffSession, table_id: str, status: str, reason: str
    ) -> TableControlView | Refusal:
        """Open, pause or close the table: no new round opens unless it is open."""
        mirror = self._mirror(table_id)
        if isinstance(mirror, Refusal):
            return mirror
        now = self.clock.now_ms()

        def run(c: Connection) -> TableControl:
            before = set_status(c, table_id, status, now)
            details = {"table": table_id, "before": before.status, "after": status}
            audit_staff(c, now, session, f"table_{_VERB[status]}", reason, details)
            return get_control(c, table_id)

        control = await self.service.runner.write(run)
        # Stored and audited first: the runtime dealing the table reads the status back.
        await self.service.commands.tell(table_id, _COMMAND[status])
        return self._view(mirror, control)

    async def new_shoe(
        self, session: StaffSession, table_id: str, reason: str
    ) -> TableControlView | Refusal:
        """End the shoe in play once its round in play is finished (its server seed is then
        published); the next round opens a new shoe, with what waits for it."""
        mirror = self._mirror(table_id)
        if isinstance(mirror, Refusal):
            return mirror
        now = self.clock.now_ms()

        def run(c: Connection) -> TableControl:
            after = set_pending(c, table_id, {NEW_SHOE: True}, now)
            in_play = open_shoe(c, table_id)  # the stored shoe, not this node's view of it
            details = {"table": table_id, "shoe": None if in_play is None else in_play.id}
            audit_staff(c, now, session, "table_new_shoe", reason, details)
            return after

        control = await self.service.runner.write(run)
        # Stored first: a runtime that starts again, here or on another node, reads it back.
        await self.service.commands.tell(table_id, ChangeShoe())
        return self._view(mirror, control)

    async def change(
        self, session: StaffSession, table_id: str, body: TableChange
    ) -> TableControlView | Refusal:
        """Change the rule set, limits, timings or dealing mode from the table's next shoe."""
        mirror = self._mirror(table_id)
        if isinstance(mirror, Refusal):
            return mirror
        settings = {
            key: value
            for key in ("betting_ms", "reveal_ms", "result_ms", "dealing", *_STUDIO_SETTINGS)
            if (value := getattr(body, key)) is not None
        }
        if not mirror.settings.studio and settings.keys() & set(_STUDIO_SETTINGS):
            message = f"table {table_id!r} is dealt by the server: it has no studio procedures"
            return Refusal(RefusalCode.INVALID_REQUEST, message)
        if body.ruleset is None and body.limits is None and not settings:
            return Refusal(RefusalCode.INVALID_REQUEST, "nothing to change")
        now = self.clock.now_ms()

        def run(c: Connection) -> TableControl | Refusal:
            control = get_control(c, table_id, lock=True)
            change: dict[str, Any] = {}
            if body.ruleset is not None or body.limits is not None:
                ruleset = next_ruleset(mirror.ruleset, control.pending, body)
                if isinstance(ruleset, Refusal):
                    return ruleset
                change["ruleset_toml"] = ruleset.to_toml()
            if settings:
                change["settings"] = settings
            after = set_pending(c, table_id, change, now)
            shown = pending_view(change)
            fields = _changed_only(shown, body)
            details = {
                "table": table_id,
                "next_shoe": shown,
                "before": _next_shoe_before(mirror, control.pending, fields),
                "after": fields,
            }
            audit_staff(c, now, session, "table_change", body.reason, details)
            return after

        outcome = await self.service.runner.write(run)
        return outcome if isinstance(outcome, Refusal) else self._view(mirror, outcome)

    async def set_limits(
        self, session: StaffSession, table_id: str, body: TableLimitsChange
    ) -> TableControlView | Refusal:
        """Queue the table's limits for its next round: the round in play keeps its own (its
        bets were placed under them); the dealer applies them when it opens the next."""
        mirror = self._mirror(table_id)
        if isinstance(mirror, Refusal):
            return mirror
        limits = TableLimits(body.min_stake, body.max_stake, dict(body.bets or {}))
        ceiling = self.service.config.max_balance  # no stake is larger than any balance
        now = self.clock.now_ms()

        def run(c: Connection) -> tuple[TableControl, LimitsRow] | Refusal:
            in_play = open_shoe(c, table_id)
            # Proportioned by the shoe in play's own rule set, not by limits set before.
            ruleset = mirror.ruleset if in_play is None else parse_ruleset(in_play.ruleset_toml)
            try:
                check_limits(ruleset, limits, ceiling)
            except LimitsError as error:
                return Refusal(RefusalCode.INVALID_LIMITS, str(error))
            before = queue_limits(c, table_id, limits, now)
            was = before.pending or before.current
            details = {
                "table": table_id,
                "from": "next_round",
                "before": limits_view(ruleset, _fitting(ruleset, was)),
                "after": limits_view(ruleset, limits),
            }
            audit_staff(c, now, session, "table_limits", body.reason, details)
            return get_control(c, table_id), get_limits(c, table_id)

        outcome = await self.service.runner.write(run)
        if isinstance(outcome, Refusal):
            return outcome
        return self._view(mirror, *outcome)

    async def integrity(self, table_id: str) -> IntegrityView | Refusal:
        """The integrity monitor's frequencies, player scores and alerts of the table."""
        mirror = self._mirror(table_id)
        if isinstance(mirror, Refusal):
            return mirror
        watch = self.service.integrity
        if watch is None:
            message = "the integrity monitor is starting: try again"
            return Refusal(RefusalCode.TABLE_STARTING, message)
        return IntegrityView.model_validate(await watch.integrity_status(table_id))

    async def audience(self, table_id: str) -> TableAudience | Refusal:
        """Who watches (feed connections) and who bets on the round in play."""
        mirror = self._mirror(table_id)
        if isinstance(mirror, Refusal):
            return mirror
        round_id = mirror.round_id
        bettors: dict[str, dict[str, int]] = {}
        if round_id is not None:
            bettors = await self.service.runner.read(lambda c: round_bettors(c, round_id))
        return TableAudience(
            table_id=table_id, watching=mirror.audience(), round_id=round_id, bettors=bettors
        )


_VERB = {"open": "open", "paused": "pause", "closed": "close"}
_COMMAND: dict[str, Command] = {"open": Resume(), "paused": Pause(), "closed": CloseTable()}


def next_ruleset(
    current: RuleSet, pending: dict[str, Any] | None, body: TableChange
) -> RuleSet | Refusal:
    """The rule set of the next shoe: the one asked for (or the one already pending, or the
    table's), with the limits asked for; refused for an unknown rule set, another currency
    or bad limits."""
    if body.ruleset is not None:
        if body.ruleset not in BUILTIN_RULESETS:
            known = ", ".join(BUILTIN_RULESETS)
            message = f"no built-in rule set {body.ruleset!r} ({known})"
            return Refusal(RefusalCode.RULESET_NOT_FOUND, message)
        base = load_ruleset(body.ruleset)
        if base.currency != current.currency:
            # A player's one balance is staked at every table: the tables count in one money.
            message = (
                f"{body.ruleset!r} counts in {base.currency}, this server in {current.currency}"
            )
            return Refusal(RefusalCode.INVALID_REQUEST, message)
    elif pending is not None and pending.get("ruleset_toml"):
        base = parse_ruleset(pending["ruleset_toml"])
    else:
        base = current
    bets = dict(base.bets)
    for name, limits in (body.limits or {}).items():
        if name not in bets:
            return Refusal(RefusalCode.NOT_OFFERED, f"{base.name!r} does not offer {name!r}")
        if limits.min_stake > limits.max_stake:
            message = f"{name}: min_stake is above max_stake"
            return Refusal(RefusalCode.INVALID_LIMITS, message)
        bets[name] = replace(bets[name], min_stake=limits.min_stake, max_stake=limits.max_stake)
    return replace(base, bets=bets)


def _fitting(ruleset: RuleSet, limits: TableLimits | None) -> TableLimits | None:
    """``limits`` if ``ruleset`` takes them (``None``, its own, if not: what a round opens
    under then)."""
    if limits is None:
        return None
    try:
        bet_limits(ruleset, limits)
    except LimitsError:
        return None
    return limits


def _changed_only(shown: dict[str, Any] | None, body: TableChange) -> dict[str, Any]:
    """The fields a change sets, as the audit log's ``after``: a new rule set's name, the
    limits of the bets named, the settings."""
    after = dict(shown or {})
    if body.ruleset is None:
        after.pop("ruleset", None)  # named only because a bet's limits changed
    if "limits" in after:
        named = set(body.limits or {})
        after["limits"] = {bet: v for bet, v in after["limits"].items() if bet in named}
        if not after["limits"]:
            del after["limits"]
    return after
