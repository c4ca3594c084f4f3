"""The live table's feed in-process: snapshot first, consecutive seq, private copies, slow clients."""

from __future__ import annotations

import asyncio
import gc
import json
from typing import Any

from baccarat.rulesets import load_ruleset
from baccarat.server.clock import iso_utc
from baccarat.server.live import MAX_QUEUE, Client, LiveTable, ruleset_view
from baccarat.server.quiet_gc import AUTOMATIC_FULL_AFTER, QuietCollector
from baccarat.table import TableSettings


class FixedClock:
    def __init__(self, now: int) -> None:
        self.now = now

    def now_ms(self) -> int:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += round(seconds * 1000)


def drain(client: Client) -> list[dict[str, Any]]:
    out = []
    while not client.queue.empty():
        text = client.queue.get_nowait()
        if text is not None:
            out.append(json.loads(text))
    return out


def table() -> LiveTable:
    return LiveTable(TableSettings("ez", "ez"), load_ruleset("ez"), FixedClock(1_718_000_000_000))


def test_a_client_gets_its_snapshot_then_every_event_in_order() -> None:
    async def run() -> None:
        live = table()
        live.publish("round_open", {"round_id": 1})
        alice, spectator = Client("alice"), Client(None)
        live.attach(alice)
        live.attach(spectator)
        live.publish("card", {"round_id": 1, "card": "As"})
        live.publish(
            "settled",
            {"round_id": 1, "players": 1},
            private={"alice": {"balance": 900, "net": -100}, "bob": {"balance": 5}},
        )
        mine, theirs = drain(alice), drain(spectator)
        assert [m["type"] for m in mine] == ["snapshot", "card", "settled"]
        assert mine[0]["seq"] == 1 and [m["seq"] for m in mine[1:]] == [2, 3]
        assert mine[2]["balance"] == 900 and mine[2]["net"] == -100
        assert "balance" not in theirs[2] and theirs[2]["seq"] == mine[2]["seq"]
        assert all(m["now"] == 1_718_000_000_000 for m in mine[1:])
        assert mine[0]["table"]["watching"] == 0 and live.snapshot()["watching"] == 2

    asyncio.run(run())


def test_a_client_too_far_behind_is_dropped_and_forgotten() -> None:
    async def run() -> None:
        live = table()
        slow = Client(None)
        live.attach(slow)
        for number in range(MAX_QUEUE + 5):
            live.publish("card", {"round_id": 1, "n": number})
        assert slow.dropped and slow.close_code == 1013
        assert slow not in live.clients
        assert slow.queue.qsize() == MAX_QUEUE + 1  # what it had, and the end marker
        assert not slow.send("late")

    asyncio.run(run())


def test_the_view_of_a_rule_set() -> None:
    view = ruleset_view(load_ruleset("standard"))
    assert view["limits"] == {"min": 100, "max": 1_000_000}
    assert view["bets"]["tie"]["max_stake"] == 200_000
    assert view["pays"]["banker"] == {"win": "19:20", "tie": "push"}
    assert iso_utc(1_718_000_000_000) == "2024-06-10T06:13:20.000Z"


def test_the_collector_waits_for_a_quiet_moment_but_not_forever() -> None:
    quiet = {"now": False}
    collector = QuietCollector(lambda: quiet["now"], FixedClock(0), every_s=30, at_most_s=120)
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
