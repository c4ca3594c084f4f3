"""The live table's feed in-process, through this node's table mirror: snapshot first,
consecutive seq, private copies, slow clients; the live table follows what the round's state
machine returned, and the mirror shows the state the live table handed on."""

from __future__ import annotations

import asyncio
import gc
import json
from dataclasses import replace
from typing import Any

import pytest

from baccarat.cards import parse_cards
from baccarat.coup import Outcome
from baccarat.live.table import LiveTable
from baccarat.rulesets import load_ruleset
from baccarat.server import quiet_gc
from baccarat.server.clock import iso_utc
from baccarat.server.events import MESSAGES
from baccarat.server.fanout import LocalFanout
from baccarat.server.live import TableFeed, ruleset_view
from baccarat.server.mirror import MAX_QUEUE, Client, TableMirror
from baccarat.server.quiet_gc import AUTOMATIC_FULL_AFTER, QuietCollector
from baccarat.store.rounds import RoundChange, RoundRow
from baccarat.table import (
    CardSqueezed,
    Phase,
    Round,
    RoundSettled,
    TableSettings,
    reveal_order,
)

NOW = 1_718_000_000_000
CARDS = parse_cards("4h 3c 2d 2s 7h")  # Player 6, Banker 2 draws a 7: Player wins


class FixedClock:
    def __init__(self, now: int) -> None:
        self.now = now

    def now_ms(self) -> int:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += round(seconds * 1000)


def drain(client: Client) -> list[dict[str, Any]]:
    out = []
    assert client.queue is not None  # a client without a frame writer
    while not client.queue.empty():
        text = client.queue.get_nowait()
        if text is not None:
            out.append(json.loads(text))
    return out


def table() -> tuple[LiveTable, TableFeed, TableMirror]:
    """A live table whose feed hands its broadcasts to this node's mirror, as ``serve`` alone
    does."""
    settings, ruleset, clock = TableSettings("ez", "ez"), load_ruleset("ez"), FixedClock(NOW)
    mirror = TableMirror(settings, ruleset, clock)
    live = LiveTable(settings, ruleset)
    feed = TableFeed(
        live, clock, outlet=LocalFanout({"ez": mirror}).publish, audience=mirror.audience
    )
    mirror.on_audience = feed.audience_changed
    return live, feed, mirror


def opened_round() -> RoundChange:
    """Round 1 of a shoe, open, as the store would have returned it."""
    state, events = Round.open(1, opened_at=NOW, closes_at=NOW + 15_000)
    return RoundChange(RoundRow(1, "ez", "shoe-1", 1, state), events)


def test_a_client_gets_its_snapshot_then_every_event_in_order() -> None:
    async def run() -> None:
        live, feed, mirror = table()
        opened = opened_round()
        live.follow(opened)
        alice, spectator, other = Client("alice"), Client(None), Client(None)
        mirror.attach(alice)
        mirror.attach(spectator)
        mirror.attach(other)
        dealt = opened.row.state.close(NOW + 15_000).round.deal(CARDS, NOW + 15_001).round
        first = reveal_order(dealt.coup)[0]
        live.announce(opened.row, dealt.turn(first).events)
        own = {
            "alice": {
                "wagers": [
                    {
                        "bet": "banker",
                        "stake": 1000,
                        "event": "lose",
                        "result": "lose",
                        "returned": 0,
                    }
                ],
                "staked": 1000,
                "returned": 0,
                "net": -100,
                "balance": 900,
            },
            "bob": {"wagers": [], "staked": 0, "returned": 0, "net": 0, "balance": 5},
        }
        live.announce(opened.row, [RoundSettled(1, Outcome.PLAYER, NOW)], own=own)
        await asyncio.sleep(0)  # the mirror sends what was applied once the loop runs on
        mine, theirs = drain(alice), drain(spectator)
        assert [m["type"] for m in mine] == ["snapshot", "card", "settled"]
        assert mine[0]["seq"] == 1 and [m["seq"] for m in mine[1:]] == [2, 3]
        assert mine[1]["card"] == "4h" and mine[1]["round_id"] == 1
        assert mine[2]["balance"] == 900 and mine[2]["net"] == -100 and mine[2]["players"] == 2
        assert "balance" not in theirs[2] and theirs[2]["seq"] == mine[2]["seq"]
        assert all(m["now"] == NOW for m in mine[1:])
        assert mine[0]["table"]["watching"] == 0 and feed.snapshot()["watching"] == 3
        assert mirror.snapshot()["watching"] == 3 and mirror.seq == feed.seq == 3
        assert {**mirror.snapshot(), "now": 0} == {**feed.snapshot(), "now": 0}
        assert mine[0]["table"]["round"]["phase"] == "open"
        # Every message is one the published schema describes, and is sent as its model
        # writes it.
        for message in mine + theirs:
            assert json.loads(MESSAGES.validate_python(message).text()) == message
        # One serialization for all the clients without an own part: the very same text.
        live.announce(opened.row, [CardSqueezed(1, "banker", 0)])
        await asyncio.sleep(0)
        for client in (spectator, other):
            assert client.queue is not None
            while client.queue.qsize() > 1:
                client.queue.get_nowait()
        assert spectator.queue is not None and other.queue is not None
        assert spectator.queue.get_nowait() is other.queue.get_nowait()

    asyncio.run(run())


def test_the_live_table_follows_what_the_round_returned() -> None:
    live, feed, mirror = table()
    live.know_shoe("shoe-1", 3)  # as a shoe the dealer loaded or started
    opened = opened_round()
    live.follow(opened)
    phases = [live.phase]
    assert live.revealed == [] and live.result is None
    closed = opened.row.state.close(NOW + 15_000)
    live.follow(RoundChange(RoundRow(1, "ez", "shoe-1", 1, closed.round), closed.events))
    phases.append(live.phase)
    state = closed.round.deal(CARDS, NOW + 15_001).round
    row = RoundRow(1, "ez", "shoe-1", 1, state)
    live.follow(RoundChange(row, ()))
    phases.append(live.phase)
    for card in reveal_order(state.coup):
        state, events = state.turn(card)
        live.announce(row, events)
    assert [c.card.code for c in live.revealed] == [c.code for c in CARDS]
    assert live.result is not None and live.result.winner.value == "player"
    assert feed.snapshot()["result"]["winner"] == "player"
    assert len(live.board) == 1 and feed.seq == 2 + len(CARDS) + 1
    settled = state.settle(NOW + 16_000)
    live.follow(RoundChange(RoundRow(1, "ez", "shoe-1", 1, settled.round), settled.events), {})
    phases.append(live.phase)
    assert phases == [Phase.OPEN, Phase.CLOSED, Phase.DEALT, Phase.SETTLED]
    assert mirror.phase is Phase.SETTLED and mirror.seq == feed.seq
    assert live.last_round == {
        "id": 1,
        "shoe_number": 3,
        "number": 1,
        "phase": "settled",
        "void_reason": None,
    }
    # A round resumed with two cards shown: the table shows those two, in its turn order.
    resumed = RoundRow(2, "ez", "shoe-1", 2, replace(row.state, id=2, revealed=0b101))
    live.begin(resumed)
    assert [c.index for c in live.revealed] == [0, 2] and live.result is None


def test_a_client_too_far_behind_is_dropped_and_forgotten() -> None:
    async def run() -> None:
        live, _, mirror = table()
        opened = opened_round()
        live.follow(opened)
        slow = Client(None)
        mirror.attach(slow)
        for _ in range(MAX_QUEUE + 5):
            live.announce(opened.row, [CardSqueezed(1, "player", 0)])
        await asyncio.sleep(0)
        assert slow.dropped and slow.close_code == 1013
        assert slow not in mirror.clients
        assert (
            slow.queue is not None and slow.queue.qsize() == MAX_QUEUE + 1
        )  # what it had, and the end marker
        assert not slow.send("late")

    asyncio.run(run())


def test_the_view_of_a_rule_set() -> None:
    view = ruleset_view(load_ruleset("standard"))
    assert view["limits"] == {"min": 100, "max": 1_000_000}
    assert view["bets"]["tie"]["max_stake"] == 200_000
    assert view["pays"]["banker"] == {"win": "19:20", "tie": "push"}
    assert iso_utc(1_718_000_000_000) == "2024-06-10T06:13:20.000Z"


def test_the_collector_collects_at_once_when_a_crowd_has_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The test process's own heap is not to be frozen: the collection itself is a stub.
    monkeypatch.setattr(quiet_gc, "collect_and_freeze", lambda: 0.0)
    watching = {"now": 0}
    collector = QuietCollector(
        lambda: False,
        FixedClock(0),
        clients=lambda: watching["now"],
        every_s=30,
        at_most_s=120,
        monotonic=lambda: 1_000.0,
    )
    t = collector.last

    def left(count: int, at: float) -> bool:
        watching["now"] = count
        return collector.due(t + at)

    assert not left(10_000, 1)  # the crowd arrives: its peak is noted
    assert not left(9_001, 2) and not left(9_001, 4)  # 999 gone: no crowd
    assert not left(8_000, 5) and not left(8_000, 7)  # 2,000 gone: not a quarter of 10,000
    assert not left(7_500, 8)  # a quarter gone, but still leaving
    assert not left(7_500, 8.5) and left(7_500, 9)  # and then nobody for a second
    collector.collect()  # the pause is the collector's own: it counts anew from here
    assert collector.peak == 7_500
    assert not left(6_600, 20) and not left(6_600, 22)  # 900 gone
    assert not left(0, 23) and left(0, 24)  # all gone
    collector.collect()
    assert not left(0, 100)  # none since the last: nothing to give back
    assert not left(1_200, 30) and not left(1_200, 40)  # newcomers: nothing to give back


def test_the_collector_waits_for_a_quiet_moment_but_not_forever() -> None:
    quiet = {"now": False}
    # Whole seconds: at 461.113462137 s since boot, (start + 120) - start was 119.99999999999997.
    collector = QuietCollector(
        lambda: quiet["now"], FixedClock(0), every_s=30, at_most_s=120, monotonic=lambda: 1_000.0
    )
    start = collector.last
    assert not collector.due(start + 29)
    assert not collector.due(start + 60)  # a table is open: wait
    quiet["now"] = True
    assert collector.due(start + 30)
    quiet["now"] = False
    assert collector.due(start + 120)  # waited long enough: collect anyway


def test_the_collector_gives_the_thresholds_back() -> None:
    before = gc.get_threshold()
    pauses: list[float] = []
    collector = QuietCollector(lambda: True, FixedClock(0), on_pause=pauses.append)
    collector.install()
    try:
        assert gc.get_threshold()[2] == AUTOMATIC_FULL_AFTER
        assert gc.get_freeze_count() > 0 and len(pauses) == 1
    finally:
        collector.uninstall()
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
