"""The device against the real server: ``baccarat serve --tables standard:studio`` in a process
of its own (``serving.ServerProcess``), a device token and staff made as the CLI makes them,
reads written to a pseudo-terminal and forwarded by the forwarder, and the robot dealing.

The server's answers are checked against the rules core (``shoe.burn_count``,
``coup.due_slot``): the positions the table gives are the ones the tableau says.
"""

from __future__ import annotations

import os
import random
import threading
import time
import tty
from pathlib import Path
from typing import Any

import httpx
import pytest
from clock_driver import wait_until
from serving import ServerProcess

from baccarat.cards import Card, parse_cards
from baccarat.coup import due_slot
from baccarat.passwords import hash_password
from baccarat.shoe import burn_count
from baccarat.shoedevice.client import Answer, Backoff, DeviceClient
from baccarat.shoedevice.forward import Event, Forwarded, RefusedRead, forward, open_serial
from baccarat.shoedevice.physical import PhysicalShoe
from baccarat.shoedevice.robot import Note, Robot, Staff
from baccarat.store import Database, upgrade
from baccarat.store.device_tokens import issue_device_token
from baccarat.store.staff import create_staff

pytestmark = pytest.mark.slow

TABLE = "standard-studio"
PASSWORD = "Studio-Pass-9"
DEALER, SUPERVISOR = "dana", "sam"


def prepare(db_url: str) -> str:
    """A dealer, a supervisor (an operator) and the table's device token; the token."""
    database = Database(db_url)
    try:
        upgrade(database)
        with database.write() as connection:
            create_staff(connection, DEALER, "dealer", hash_password(PASSWORD), 0)
            create_staff(connection, SUPERVISOR, "operator", hash_password(PASSWORD), 0)
            _, token = issue_device_token(
                connection, table_id=TABLE, label="shoe 1", by="test", at=0
            )
    finally:
        database.dispose()
    return token


@pytest.fixture
def served(servers: list[ServerProcess], tmp_path: Path) -> tuple[ServerProcess, str]:
    db_url = f"sqlite:///{tmp_path / 'studio.db'}"
    token = prepare(db_url)
    server = ServerProcess(
        db_url, tmp_path, tables="standard:studio", betting_seconds=0.4, result_ms=50
    )
    servers.append(server)
    server.start()
    return server, token


def dealer_client(server: ServerProcess) -> httpx.Client:
    http = httpx.Client(base_url=server.url, timeout=10.0)
    login = http.post("/api/admin/login", json={"username": DEALER, "password": PASSWORD})
    assert login.status_code == 201, login.text
    http.headers["Authorization"] = f"Bearer {login.json()['token']}"
    return http


def due(http: httpx.Client) -> str:
    response = http.get(f"/api/studio/tables/{TABLE}")
    if response.status_code != 200:
        return ""
    state: dict[str, Any] = response.json()
    return str(state["next"])


def test_the_forwarder_feeds_the_real_server_from_a_serial_line(
    served: tuple[ServerProcess, str],
) -> None:
    server, token = served
    http = dealer_client(server)
    wait_until(lambda: due(http) == "shoe_change", 20, "the studio table to wait for a shoe")
    started = http.post(
        f"/api/studio/tables/{TABLE}/shoe",
        json={"shuffled_by": "robot", "decks": 8, "deck_serials": [], "cut_card": 14},
    )
    assert started.status_code == 201, started.text

    master, slave = os.openpty()
    tty.setraw(slave)
    events: list[Event] = []
    stop = threading.Event()
    source = open_serial(os.ttyname(slave), 9600)
    device = DeviceClient(
        server.url, TABLE, token, wait=stop.wait, backoff=Backoff(first=0.05), timeout=10.0
    )
    thread = threading.Thread(target=forward, args=(source, device, "shoe1", events.append, stop))
    thread.start()

    def answered() -> list[Answer]:
        return [event.answer for event in list(events) if isinstance(event, Forwarded)]

    try:
        os.write(master, b"1 Ac\r\n\x00noise\n2 Kd\n")  # the burn: an ace and one more
        wait_until(lambda: len(answered()) == 2, 20, "the burn answered")
        wait_until(lambda: due(http) == "player_1", 20, "betting to close")
        coup = parse_cards("4h 3c 2d 2s 7h")
        lines = b"".join(f"{n} {card}\n".encode() for n, card in enumerate(coup, 3))
        os.write(master, lines + b"3 4h\n")  # and read 3 once more: the same read
        wait_until(lambda: len(answered()) == 8, 20, "the coup answered")
        os.write(master, b"3 Kh\n")  # read 3 again, another card: impossible
        wait_until(lambda: any(isinstance(e, RefusedRead) for e in list(events)), 20, "a refusal")
    finally:
        stop.set()
        thread.join(10)
        device.close()
        source.close()
        os.close(master)
        os.close(slave)
        http.close()

    got = answered()
    assert [(a.scan_id, str(a.card), a.position, a.seq, a.repeat) for a in got] == [
        ("shoe1:1", "Ac", "burn_1", 1, False),
        ("shoe1:2", "Kd", "burn_2", 2, False),
        ("shoe1:3", "4h", "player_1", 3, False),
        ("shoe1:4", "3c", "banker_1", 4, False),
        ("shoe1:5", "2d", "player_2", 5, False),
        ("shoe1:6", "2s", "banker_2", 6, False),
        ("shoe1:7", "7h", "banker_3", 7, False),
        ("shoe1:3", "4h", "player_1", 3, True),
    ]
    assert got[1].next in ("wait_bets", "player_1")
    assert [a.next for a in got[2:7]] == ["banker_1", "player_2", "banker_2", "banker_3", "result"]
    assert len({a.round_id for a in got[2:7]}) == 1 and got[2].round_id is not None
    refused = [e for e in events if isinstance(e, RefusedRead)]
    assert [(r.scan_id, r.refusal.status, r.refusal.code) for r in refused] == [
        ("shoe1:3", 409, "table_halted")
    ]
    assert not thread.is_alive()


def test_the_robot_deals_the_real_server_by_its_answers(
    served: tuple[ServerProcess, str],
) -> None:
    server, token = served
    notes: list[Note] = []
    shoes: list[PhysicalShoe] = []

    def new_shoe() -> PhysicalShoe:
        shoes.append(PhysicalShoe.shuffled())
        return shoes[-1]

    def wait(seconds: float) -> bool:
        time.sleep(min(seconds, 0.05))
        return robot.reads + robot.misscans >= 30

    with httpx.Client() as http:
        device = DeviceClient(server.url, TABLE, token, http=http, wait=wait)
        robot = Robot(
            http=http,
            url=server.url,
            table=TABLE,
            device=device,
            dealer=Staff(DEALER, PASSWORD),
            supervisor=Staff(SUPERVISOR, PASSWORD),
            pace=0.01,
            # Half the hand cards entered by hand, on a seeded draw: the hand path always runs
            # (at 1 in 5 unseeded, about one run in a hundred drew none).
            misscan_rate=0.5,
            rng=random.Random(23),
            wait=wait,
            note=notes.append,
            new_shoe=new_shoe,
        )
        robot.run()

    assert [n.text for n in notes if n.kind in ("halted", "refused", "unreachable")] == []
    assert robot.shoes_started == 1 and len(shoes) == 1
    drawn = list(shoes[0].order[: shoes[0].drawn])
    assert robot.reads + robot.misscans == len(drawn) >= 30
    assert len([n for n in notes if n.kind == "confirm"]) == robot.misscans
    # One note per card drawn, in order: read (where the server put it) or entered by hand.
    per_card = [n for n in notes if n.kind in ("card", "misscan")]
    assert len(per_card) == len(drawn)
    burn = burn_count(drawn[0])
    coup: list[Card] = []
    for number, (card, note) in enumerate(zip(drawn, per_card, strict=True)):
        if number < burn:
            assert note.kind == "card"
            assert _position(note, card) == f"burn_{number + 1}"
            continue
        slot = due_slot(coup)
        if slot is None:  # the coup before is complete: this card opens the next
            coup, slot = [], due_slot([])
        assert slot is not None
        if note.kind == "card":
            assert _position(note, card) == str(slot)
        else:
            assert note.text == f"{card} not read: entered by hand by {DEALER}"
        coup.append(card)
    assert robot.misscans > 0  # the hand path ran too


def _position(note: Note, card: Card) -> str:
    """Where a read's note says the server put ``card`` (``<scan_id> <card> -> <position>, …``)."""
    read, _, rest = note.text.partition(" -> ")
    assert read.split()[1] == str(card), note.text
    return rest.split(",")[0]
