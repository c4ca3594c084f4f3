"""The integrity monitor of one table: an immutable state, and what each bet and round does to it.

``observe_round`` takes the state and a settled round (``RoundSeen``: its coup, the cards
left before its deal, every player's stakes) and returns the next state and the alerts the
round raised: the frequency tests of ``baccarat.integrity.frequencies`` on the coup, and for
each side bet placed, ``observe_bet`` with the bet's EV for those cards
(``baccarat.integrity.advantage``). Nothing here reads a clock: ``now_ms`` is passed in
and only stamps the alerts.

An alert is raised once per key while it stays open: a frequency alert per scope and event
(a shoe's alerts close when the next shoe starts), an advantage alert per player and bet.

>>> from baccarat.cards import parse_cards
>>> from baccarat.coup import deal
>>> from baccarat.analysis.exact.counts import CardCounts
>>> from baccarat.rulesets import load_ruleset
>>> state = TableMonitor.start("ez", load_ruleset("ez"))
>>> coup = deal(parse_cards("2c Kd 2d 3s 2h 4c"))
>>> seen = RoundSeen(1, "shoe-1", coup, CardCounts.full(8), {"ann": {"dragon_7": 500}})
>>> state, alerts = observe_round(state, seen, now_ms=1_000)
>>> state.rounds, alerts, state.scores()[0].bets
(1, (), 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Literal

from baccarat.analysis.exact.counts import CardCounts
from baccarat.coup import Coup
from baccarat.integrity.advantage import (
    CHECKPOINTS,
    MAIN_BETS,
    Baseline,
    PlayerBet,
    Score,
    depth_of,
    round_evs,
)
from baccarat.integrity.frequencies import EventStat, FrequencyState, reference
from baccarat.rulesets import RuleSet

__all__ = [
    "Alert",
    "AlertKind",
    "RoundSeen",
    "TableMonitor",
    "observe_bet",
    "observe_round",
    "summary",
]

AlertKind = Literal["frequency", "advantage"]


@dataclass(frozen=True, slots=True)
class Alert:
    """Something a table did that a fair game or a fair player would hardly do."""

    table: str
    kind: AlertKind
    #: Unique while open: ``frequency:shoe:SHOE:EVENT``, ``frequency:cumulative:EVENT``,
    #: ``advantage:PLAYER:BET``.
    key: str
    #: ``shoe`` or ``cumulative`` for a frequency, the player for advantage play.
    scope: str
    #: The event, or the bet.
    subject: str
    round_id: int
    shoe_id: str
    at_ms: int
    #: The z-score of the frequency, or of the player's expected gain.
    z: float
    p_value: float
    #: The p-value at or below which this test alerted.
    alpha: float
    detail: Mapping[str, object] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        return {
            "table": self.table,
            "kind": self.kind,
            "key": self.key,
            "scope": self.scope,
            "subject": self.subject,
            "round": self.round_id,
            "shoe": self.shoe_id,
            "at_ms": self.at_ms,
            "z": round(self.z, 3),
            "p_value": self.p_value,
            "alpha": self.alpha,
            "detail": dict(self.detail),
        }


@dataclass(frozen=True, slots=True)
class RoundSeen:
    """A settled round as the monitor sees it."""

    round_id: int
    shoe_id: str
    coup: Coup
    #: The cards left in the shoe before the coup was dealt.
    before: CardCounts
    #: Each player's stakes by bet, in minor units.
    bets: Mapping[str, Mapping[str, int]]
    #: The side bets' EVs for ``before``, if already known (else computed).
    evs: Mapping[str, float] | None = None


@dataclass(frozen=True, slots=True)
class TableMonitor:
    """Everything the monitor knows of one table."""

    table: str
    ruleset: RuleSet
    shoe_id: str | None
    frequencies: FrequencyState
    baseline: Baseline
    records: Mapping[tuple[str, str], PlayerBet]
    #: Keys of the alerts raised and still open.
    open: frozenset[str]
    rounds: int

    @classmethod
    def start(cls, table: str, ruleset: RuleSet) -> TableMonitor:
        """A table nothing has been seen of yet."""
        return cls(
            table,
            ruleset,
            None,
            FrequencyState.start(reference(ruleset)),
            Baseline.start(),
            MappingProxyType({}),
            frozenset(),
            0,
        )

    def with_ruleset(self, ruleset: RuleSet) -> TableMonitor:
        """The monitor for a new rule set: frequencies and baselines start again (their
        probabilities and EVs are the rule set's); open advantage alerts stay open."""
        if ruleset is self.ruleset or ruleset.to_toml() == self.ruleset.to_toml():
            return self
        fresh = TableMonitor.start(self.table, ruleset)
        kept = frozenset(key for key in self.open if key.startswith("advantage:"))
        return replace(fresh, shoe_id=self.shoe_id, open=kept, rounds=self.rounds)

    def scores(self) -> tuple[Score, ...]:
        """Every player's record on every side bet, most suspicious (lowest p-value) first."""
        found = [record.score(self.baseline) for record in self.records.values()]
        return tuple(sorted(found, key=lambda s: (s.p_value, s.player, s.bet)))

    def open_by_kind(self) -> dict[str, int]:
        """How many alerts of each kind are open."""
        counts = {"frequency": 0, "advantage": 0}
        for key in self.open:
            counts[key.split(":", 1)[0]] += 1
        return counts


def observe_bet(
    state: TableMonitor,
    player: str,
    bet: str,
    stake: int,
    ev: float,
    depth: int,
    *,
    round_id: int,
    shoe_id: str,
    now_ms: int,
) -> tuple[TableMonitor, tuple[Alert, ...]]:
    """The state after one side bet placed at ``ev`` (the baseline already holds its coup)."""
    key = (player, bet)
    record = state.records.get(key) or PlayerBet.start(player, bet)
    record = record.add(stake, ev, depth, round_id=round_id, at_ms=now_ms)
    state = replace(state, records=MappingProxyType({**state.records, key: record}))
    if sum(record.bets) not in CHECKPOINTS:
        return state, ()
    return _judge(state, record, round_id, shoe_id, now_ms)


def _judge(
    state: TableMonitor, record: PlayerBet, round_id: int, shoe_id: str, now_ms: int
) -> tuple[TableMonitor, tuple[Alert, ...]]:
    """Score a record against the baseline now (at a checkpoint of its bets); an alert if it
    is flagged and none is open."""
    alert_key = f"advantage:{record.player}:{record.bet}"
    if alert_key in state.open:
        return state, ()
    score = record.score(state.baseline)
    if not score.flagged:
        return state, ()
    alert = Alert(
        state.table,
        "advantage",
        alert_key,
        record.player,
        record.bet,
        round_id,
        shoe_id,
        now_ms,
        score.gain_z,
        score.p_value,
        score.alpha,
        score.to_json(),
    )
    return replace(state, open=state.open | {alert_key}), (alert,)


def observe_round(
    state: TableMonitor, seen: RoundSeen, *, now_ms: int
) -> tuple[TableMonitor, tuple[Alert, ...]]:
    """The state after a settled round, and the alerts it raised."""
    alerts: list[Alert] = []
    if seen.shoe_id != state.shoe_id:
        state, alerts = _next_shoe(state, seen, now_ms)
    side = [
        (player, bet, stake)
        for player, stakes in seen.bets.items()
        for bet, stake in stakes.items()
        if bet not in MAIN_BETS and stake > 0
    ]
    evs = seen.evs if seen.evs is not None else round_evs(state.ruleset, seen.before)
    depth = depth_of(seen.before.total, state.frequencies.reference.shoe_cards)
    state = replace(state, baseline=state.baseline.observe(evs, depth))
    for player, bet, stake in side:
        if bet not in evs:
            continue
        state, raised = observe_bet(
            state,
            player,
            bet,
            stake,
            evs[bet],
            depth,
            round_id=seen.round_id,
            shoe_id=seen.shoe_id,
            now_ms=now_ms,
        )
        alerts += raised
    frequencies = state.frequencies.observe(seen.coup)
    state = replace(state, frequencies=frequencies, rounds=state.rounds + 1)
    state, found = _frequency_alerts(
        state, frequencies.alerts(), seen.round_id, seen.shoe_id, now_ms
    )
    return state, (*alerts, *found)


def _frequency_key(stat: EventStat, shoe_id: str) -> str:
    if stat.scope == "shoe":
        return f"frequency:shoe:{shoe_id}:{stat.event}"
    return f"frequency:cumulative:{stat.event}"


def _next_shoe(
    state: TableMonitor, seen: RoundSeen, now_ms: int
) -> tuple[TableMonitor, list[Alert]]:
    """A new shoe: the last one's counts join the cumulative ones, which are tested now; the
    last shoe's alerts close."""
    frequencies = state.frequencies
    still = frozenset(key for key in state.open if not key.startswith("frequency:shoe:"))
    closed = state.shoe_id
    state = replace(state, shoe_id=seen.shoe_id, open=still)
    if closed is None:
        return state, []
    frequencies = frequencies.next_shoe()
    state = replace(state, frequencies=frequencies)
    return _frequency_alerts(
        state, frequencies.alerts(("cumulative",)), seen.round_id, closed, now_ms
    )


def _frequency_alerts(
    state: TableMonitor, stats: tuple[EventStat, ...], round_id: int, shoe_id: str, now_ms: int
) -> tuple[TableMonitor, list[Alert]]:
    """An alert for each event found past its threshold, unless one is open for it."""
    opened = set(state.open)
    alerts = []
    for stat in stats:
        key = _frequency_key(stat, shoe_id)
        if key in opened:
            continue
        opened.add(key)
        alpha = state.frequencies.alpha(stat.scope)
        alerts.append(
            Alert(
                state.table,
                "frequency",
                key,
                stat.scope,
                stat.event,
                round_id,
                shoe_id,
                now_ms,
                stat.z,
                stat.p_value,
                alpha,
                stat.to_json(),
            )
        )
    if alerts:
        state = replace(state, open=frozenset(opened))
    return state, alerts


def summary(state: TableMonitor) -> dict[str, object]:
    """What an operator sees of a table: its frequencies in both scopes and every record."""
    return {
        "table": state.table,
        "ruleset": state.ruleset.name,
        "rounds": state.rounds,
        "shoe": state.shoe_id,
        "shoes": state.frequencies.shoes,
        "frequencies": {
            scope: [stat.to_json() for stat in state.frequencies.stats(scope)]
            for scope in ("shoe", "cumulative")
        },
        "players": [score.to_json() for score in state.scores()],
        "open_alerts": sorted(state.open),
    }
