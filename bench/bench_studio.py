"""A studio table driven at full speed through the shoe device's API: card reads per second,
the latency of each read (stored, judged and shown before its answer), rounds settled, and
the CPU seconds of the server and of this driver beside the wall time.

The driver is the dealer and the shoe at once: it reads the console's ``next`` and pushes the
next card of a shuffled eight-deck shoe the moment one is due (no human pace), closing each
betting window at once; the server deals on SQLite, as ``make serve`` does.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_server import Server, percentile

from baccarat.passwords import hash_password
from baccarat.shoedevice.physical import PhysicalShoe
from baccarat.store import Database, upgrade
from baccarat.store.device_tokens import issue_device_token
from baccarat.store.staff import create_staff

TABLE = "standard-studio"
PASSWORD = "Bench-Dealer-9"
SECONDS = float(os.environ.get("BENCH_STUDIO_SECONDS", "20"))
SLOTS = {f"{hand}_{n}" for hand in ("player", "banker") for n in (1, 2, 3)} | {"burn"}


def prepare(db_url: str) -> str:
    database = Database(db_url)
    try:
        upgrade(database)
        with database.write() as c:
            create_staff(c, "bench-dealer", "operator", hash_password(PASSWORD), 0)
            _, token = issue_device_token(c, table_id=TABLE, label="bench", by="bench", at=0)
    finally:
        database.dispose()
    return token


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        db_url = f"sqlite:///{folder}/studio.db"
        token = prepare(db_url)
        server = Server(db_url, 0.3, Path(folder), extra_args=["--tables", "standard:studio"])
        try:
            server.wait()
            return drive(server, token)
        finally:
            server.stop()


def drive(server: Server, token: str) -> int:
    http = httpx.Client(base_url=server.url, timeout=10.0)
    login = http.post("/api/admin/login", json={"username": "bench-dealer", "password": PASSWORD})
    staff = {"Authorization": f"Bearer {login.json()['token']}"}
    device = {"Authorization": f"Bearer {token}"}
    console = f"/api/studio/tables/{TABLE}"
    shoe: PhysicalShoe | None = None
    latencies: list[float] = []
    shoes = closes = 0
    began, cpu_began, server_began = time.perf_counter(), cpu(), server.cpu_seconds()
    scan = 0
    while time.perf_counter() - began < SECONDS:
        state = http.get(console, headers=staff).json()
        due = state["next"]
        if due == "shoe_change":
            shoe = PhysicalShoe.shuffled()
            http.post(f"{console}/shoe", headers=staff, json={"shuffled_by": "bench"})
            shoes += 1
        elif due in SLOTS and shoe is not None:
            scan += 1
            card = shoe.draw()
            sent = time.perf_counter()
            answer = http.post(
                f"{console}/cards", headers=device, json={"card": card.code, "scan_id": f"b:{scan}"}
            )
            latencies.append(time.perf_counter() - sent)
            assert answer.status_code == 200, answer.text
        elif due == "wait_bets" and state["round"] and state["round"]["phase"] == "open":
            if http.post(f"{console}/close", headers=staff).status_code == 200:
                closes += 1
        else:
            time.sleep(0.002)  # the result's pause, the next round opening
    wall = time.perf_counter() - began
    driver_cpu, server_cpu = cpu() - cpu_began, server.cpu_seconds() - server_began
    rounds = closes
    ms = sorted(x * 1000 for x in latencies)
    print(f"studio table at full speed for {wall:.1f} s: {len(ms)} card reads, {rounds} rounds,")
    print(
        f"{shoes} shoe(s); {len(ms) / wall:.0f} reads/s; a read answered in p50 "
        f"{percentile(ms, 0.50):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms"
    )
    print(f"CPU: server {server_cpu:.1f} s, driver {driver_cpu:.1f} s (wall {wall:.1f} s)")
    figures = {
        "studio_reads_per_s": round(len(ms) / wall, 1),
        "studio_read_p50_ms": round(percentile(ms, 0.50), 2),
        "studio_read_p99_ms": round(percentile(ms, 0.99), 2),
        "studio_rounds_per_min": round(rounds * 60 / wall, 1),
        "studio_server_cpu_s": round(server_cpu, 1),
        "studio_driver_cpu_s": round(driver_cpu, 1),
        "studio_wall_s": round(wall, 1),
    }
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
