"""The server's integrity watch: settled rounds in, alerts stored and counted in Prometheus,
and the status the admin API reads."""

from __future__ import annotations

import asyncio
import random
import time
import uuid

from fastapi.testclient import TestClient
from store_support import migrated

from baccarat.analysis.exact.counts import CardCounts
from baccarat.cards import Card, Rank
from baccarat.rulesets import load_ruleset
from baccarat.server import Settings, create_app, tables_from
from baccarat.server.integrity_watch import IntegrityWatch
from baccarat.server.metrics import Metrics
from baccarat.server.store_threads import StoreRunner
from baccarat.shoe import Shoe
from baccarat.store.settlement import PlayerSettlement

EZ = load_ruleset("ez")


class StillClock:
    def now_ms(self) -> int:
        return 1_700_000_000_000

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(0)


def _biased_shoe() -> Shoe:
    """Test only: 8 kings of an 8-deck shoe made nines, which the monitor catches in a shoe."""
    order = [Card.from_index(c) for c in range(416)]
    kings = [i for i, card in enumerate(order) if card.rank is Rank.KING][:8]
    for i in kings:
        order[i] = Card(Rank.NINE, order[i].suit)
    random.Random(3).shuffle(order)
    return Shoe.from_procedure(order, EZ.shoe)


def test_a_biased_shoe_s_alerts_are_stored_counted_and_shown(db_url: str) -> None:
    database = migrated(db_url)

    async def play() -> dict[str, object]:
        runner = StoreRunner(database)
        metrics = Metrics()
        watch = IntegrityWatch(runner, metrics, StillClock())
        task = asyncio.create_task(watch.run())
        try:
            shoe = _biased_shoe()
            number = 0
            while not shoe.finished:
                before = CardCounts.of(shoe.order[shoe.position :])
                coup = shoe.deal_coup()
                number += 1
                settled = PlayerSettlement("ann", {"dragon_7": {"stake": 500}}, 500, 0, 0)
                watch.observe(
                    "ez",
                    EZ,
                    round_id=number,
                    shoe_id="s1",
                    coup=coup,
                    before=before,
                    players={"ann": settled},
                )
            for _ in range(2000):
                if watch.observed == watch.received:
                    break
                await asyncio.sleep(0.01)
            assert watch.observed == watch.received == number
            status = await watch.integrity_status("ez")
            kinds = ("frequency", "advantage")
            open_now = {
                kind: metrics.registry.get_sample_value(
                    "baccarat_integrity_open_alerts", {"table": "ez", "kind": kind}
                )
                for kind in kinds
            }
            raised = metrics.registry.get_sample_value(
                "baccarat_integrity_alerts_total", {"table": "ez", "kind": "frequency"}
            )
            return {"status": status, "open": open_now, "raised": raised, "rounds": number}
        finally:
            task.cancel()
            runner.close()

    result = asyncio.run(play())
    status = result["status"]
    assert isinstance(status, dict)
    alerts = status["alerts"]
    assert alerts and all(alert["kind"] == "frequency" for alert in alerts)
    assert any(alert["subject"] in ("rank:9", "rank:K") for alert in alerts)
    assert result["raised"] == len(alerts)
    assert result["open"] == {"frequency": float(len(status["open_alerts"])), "advantage": 0.0}
    assert status["rounds"] == result["rounds"]
    [ann] = status["players"]
    assert ann["player"] == "ann" and ann["bets"] == result["rounds"] and not ann["flagged"]
    cumulative = {stat["event"]: stat for stat in status["frequencies"]["cumulative"]}
    assert cumulative["banker"]["trials"] == result["rounds"]


def test_a_table_never_seen_has_an_empty_status(db_url: str) -> None:
    database = migrated(db_url)

    async def read() -> dict[str, object]:
        runner = StoreRunner(database)
        try:
            return await IntegrityWatch(runner, Metrics(), StillClock()).integrity_status("none")
        finally:
            runner.close()

    status = asyncio.run(read())
    assert status["alerts"] == [] and status["players"] == [] and status["rounds"] == 0


def test_a_served_table_feeds_its_rounds_and_a_side_bet_to_the_monitor(db_url: str) -> None:
    """In-process server, an EZ table with short timings: a player's Dragon 7 bet reaches the
    monitor with the EV the cards left gave it, and every settled round is counted."""
    day_ms = 86_400_000
    config = Settings(
        db=db_url,
        tables=tables_from(["ez"], betting_ms=700, reveal_ms=1, result_ms=1),
        idle_minutes=day_ms / 60_000,
        guest_hours=day_ms / 3_600_000,
    )
    with TestClient(create_app(config)) as client:
        service = client.app.state.service  # type: ignore[attr-defined]
        token = client.post("/api/players").json()["token"]
        bearer = {"Authorization": f"Bearer {token}", "Idempotency-Key": uuid.uuid4().hex}
        deadline = time.monotonic() + 30
        while True:
            assert time.monotonic() < deadline, "no open round"
            data = client.get("/api/tables/ez").json()
            state = data["round"]
            if state and state["phase"] == "open" and state["closes_at_ms"] - data["now"] > 300:
                break
            time.sleep(0.02)
        answer = client.post(
            "/api/tables/ez/bets",
            json={"round_id": state["id"], "bets": {"dragon_7": 500}},
            headers=bearer,
        )
        assert answer.status_code == 200, answer.text
        watch = service.integrity
        while True:
            assert time.monotonic() < deadline, "the monitor saw no player"
            if watch.observed >= 2 and watch.states.get("ez") and watch.states["ez"].records:
                break
            time.sleep(0.05)
        monitor = watch.states["ez"]
        [score] = monitor.scores()
        assert (score.bet, score.bets, score.staked) == ("dragon_7", 1, 500)
        assert score.evidence[0].round_id == state["id"]
        assert -1 < score.evidence[0].ev < 1
        assert monitor.rounds >= 2
