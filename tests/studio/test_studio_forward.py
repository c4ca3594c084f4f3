"""The serial forwarder on a real pseudo-terminal pair: the test writes to the master as a shoe
would, the forwarder reads the slave through pyserial (``open_serial``) and pushes each read to
a real HTTP server of the contract (``studio_support.FakeStudio``)."""

from __future__ import annotations

import os
import secrets
import threading
import tty
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from clock_driver import wait_until
from studio_support import DEVICE_TOKEN, TABLE, FakeStudio

from baccarat.cards import Card
from baccarat.shoedevice.client import Backoff, DeviceClient, RefusalError, Retry
from baccarat.shoedevice.forward import (
    Event,
    Forwarded,
    RefusedRead,
    Unanswered,
    forward,
    open_serial,
)
from baccarat.shoedevice.lines import NotARead

pytest_plugins = ("studio_support",)


@dataclass
class Pty:
    """A pseudo-terminal pair: ``write`` as the shoe, ``path`` for the forwarder."""

    master: int
    slave: int
    path: str

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self.master, view) :]


@pytest.fixture
def pty() -> Iterator[Pty]:
    master, slave = os.openpty()
    # A serial line carries bytes as they are: no echo, no \r turned into \n before the port
    # is opened (pyserial sets the same when it opens it).
    tty.setraw(slave)
    yield Pty(master, slave, os.ttyname(slave))
    os.close(master)
    os.close(slave)


@dataclass
class Forwarder:
    """``forward`` running in a thread on the pty's slave, and everything it reported."""

    studio: FakeStudio
    path: str
    device: str = "shoe7"
    token: str = DEVICE_TOKEN
    events: list[Event] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)
    answered: list[int] = field(default_factory=list)
    error: list[BaseException] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.source = open_serial(self.path, 9600)
        self.client = DeviceClient(
            self.studio.url,
            TABLE,
            self.token,
            timeout=0.3,
            backoff=Backoff(first=0.05, cap=0.2),
            wait=self.stop.wait,
            on_retry=self.events.append,
        )
        self.thread = threading.Thread(target=self._run)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.answered.append(
                forward(self.source, self.client, self.device, self.events.append, self.stop)
            )
        except BaseException as error:
            self.error.append(error)

    def of(self, kind: type) -> list[object]:
        return [event for event in list(self.events) if isinstance(event, kind)]

    def finish(self) -> None:
        self.stop.set()
        self.thread.join(5)
        assert not self.thread.is_alive()
        self.client.close()
        self.source.close()


def started(studio: FakeStudio) -> FakeStudio:
    studio.betting_polls = studio.result_polls = 0  # no console here: the coups run on
    studio.answer_delay = 0.6
    studio.start_foreign_shoe()
    return studio


def test_reads_are_forwarded_noise_skipped_and_retries_keep_the_scan_id(
    studio: FakeStudio, pty: Pty
) -> None:
    started(studio)
    studio.faults["shoe7:7"] = ["500"]
    studio.faults["shoe7:0008"] = ["timeout"]
    forwarder = Forwarder(studio, pty.path)
    pty.write(b"1 5d\r\n")  # the burn: the 5 and five more cards
    pty.write(b"".join(f"{n} Kd\n".encode() for n in range(2, 7)))
    pty.write(b"\x00\xff\xfe garbage\n")
    pty.write(b"X" * 5000 + b"\n")
    pty.write(b"\x1b[2J\r\n")
    pty.write(b"7 Zz\n")
    pty.write(secrets.token_bytes(20_000).replace(b"\n", b"") + b"\n")  # binary noise
    pty.write(b"7 Ah\r\n")
    pty.write(b"00")  # a read in two pieces, as a slow line delivers it
    wait_until(lambda: studio.attempts_of("shoe7:7"), 10, "read 7 to arrive")
    pty.write(b"08 9c\r\n9 2h\n10 3s\n")
    wait_until(lambda: len(forwarder.of(Forwarded)) == 10, 10, "ten reads answered")

    answered = [event.answer for event in forwarder.of(Forwarded)]  # type: ignore[attr-defined]
    assert [(a.scan_id, str(a.card), a.position, a.next) for a in answered] == [
        ("shoe7:1", "5d", "burn_1", "burn"),
        *[(f"shoe7:{n}", "Kd", f"burn_{n}", "burn") for n in range(2, 6)],
        ("shoe7:6", "Kd", "burn_6", "player_1"),
        ("shoe7:7", "Ah", "player_1", "banker_1"),
        ("shoe7:0008", "9c", "banker_1", "player_2"),
        ("shoe7:9", "2h", "player_2", "banker_2"),
        ("shoe7:10", "3s", "banker_2", "player_3"),
    ]
    assert answered[7].repeat  # the server's first answer, given again
    # Every retry sent the same scan_id, and the server stored each card once.
    assert [
        (a.scan_id, a.status) for a in studio.attempts if a.scan_id in ("shoe7:7", "shoe7:0008")
    ] == [
        ("shoe7:7", 500),
        ("shoe7:7", 200),
        ("shoe7:0008", 200),
        ("shoe7:0008", 200),
    ]
    retries = forwarder.of(Retry)
    assert [(r.scan_id, r.why) for r in retries] == [  # type: ignore[attr-defined]
        ("shoe7:7", "the server answered 500"),
        ("shoe7:0008", "no answer in time"),
    ]
    assert [p.card for p in studio.placed] == [a.card for a in answered]
    skipped = forwarder.of(NotARead)
    reasons = [s.reason for s in skipped]  # type: ignore[attr-defined]
    assert reasons[:4] == [
        "not ASCII",
        "longer than 80 bytes",
        "a control character",
        "bad card code 'Zz': unknown rank 'Z'",
    ]
    assert all(len(s.line) <= 80 for s in skipped)  # type: ignore[attr-defined]
    forwarder.finish()
    assert forwarder.error == []
    assert forwarder.answered == [10]


def test_a_halted_table_is_reported_and_the_read_not_retried(studio: FakeStudio, pty: Pty) -> None:
    started(studio)
    studio.faults["shoe7:2"] = ["halt"]  # an impossible read: the server halts the table
    forwarder = Forwarder(studio, pty.path)
    pty.write(b"1 5d\n2 Kd\n3 Kd\n")
    wait_until(lambda: len(forwarder.of(RefusedRead)) == 2, 10, "two reads refused")
    refused = forwarder.of(RefusedRead)
    assert [(r.scan_id, r.refusal.code, r.refusal.halted) for r in refused] == [  # type: ignore[attr-defined]
        ("shoe7:2", "table_halted", True),
        ("shoe7:3", "table_halted", True),
    ]
    # Each refused read was sent once: a refusal is an answer.
    assert [a.scan_id for a in studio.attempts] == ["shoe7:1", "shoe7:2", "shoe7:3"]
    assert forwarder.of(Retry) == []
    # A supervisor clears the halt: the forwarder goes on with the next read.
    studio.clear_halt()
    pty.write(b"4 Kd\n")
    wait_until(lambda: len(forwarder.of(Forwarded)) == 2, 10, "read 4 answered")
    assert [a.status for a in studio.attempts] == [200, 409, 409, 200]
    forwarder.finish()
    assert forwarder.answered == [2]


def test_a_read_being_retried_when_told_to_stop_is_reported_unanswered(
    studio: FakeStudio, pty: Pty
) -> None:
    started(studio)
    studio.faults["shoe7:1"] = ["500"] * 1000
    forwarder = Forwarder(studio, pty.path)
    pty.write(b"1 Ah\n")
    wait_until(lambda: len(forwarder.of(Retry)) >= 2, 10, "read 1 retried")
    forwarder.finish()
    assert forwarder.of(Unanswered) == [Unanswered("shoe7:1", Card.parse("Ah"))]
    assert forwarder.answered == [0]


def test_a_revoked_token_ends_the_forwarder(studio: FakeStudio, pty: Pty) -> None:
    started(studio)
    forwarder = Forwarder(studio, pty.path, token="revoked")
    pty.write(b"1 Ah\n")
    forwarder.thread.join(10)
    assert not forwarder.thread.is_alive()
    assert len(forwarder.error) == 1 and isinstance(forwarder.error[0], RefusalError)
    assert forwarder.error[0].status == 401
    forwarder.finish()


def test_a_port_that_goes_away_is_an_error_not_a_hang(studio: FakeStudio) -> None:
    started(studio)
    master, slave = os.openpty()
    tty.setraw(slave)
    forwarder = Forwarder(studio, os.ttyname(slave))
    os.close(slave)
    os.write(master, b"1 Ah\n")
    wait_until(lambda: forwarder.of(Forwarded), 10, "read 1 answered")
    os.close(master)  # the shoe's cable is pulled
    forwarder.thread.join(10)
    assert not forwarder.thread.is_alive()
    assert len(forwarder.error) == 1 and isinstance(forwarder.error[0], OSError)
    forwarder.finish()
