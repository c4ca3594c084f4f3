"""The serial forwarder: reads from a card-reading shoe's serial port, pushed to the server.

Each line ``<sequence> <card>`` becomes the read ``<device>:<sequence>`` (``lines``) and is
pushed by a ``DeviceClient``, which retries it until the server answers; the next line waits
meanwhile, so reads reach the server in the order the shoe made them. Whatever happens to a
line is reported as an event: ``Forwarded`` (the server's answer), ``RefusedRead``, ``NotARead``
(skipped), ``Retry`` (the client's), ``Unanswered`` (stopped before the server answered).

A refusal of one read (the table halted, no shoe in play, a card code the server does not
take) is reported and the forwarder goes on with the next line; a refusal that every later
read would get too (the device's token, its table: ``RefusalError.fatal``) ends it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import serial

from baccarat.cards import Card
from baccarat.shoedevice.client import Answer, DeviceClient, RefusalError, Retry, StoppedError
from baccarat.shoedevice.lines import Lines, NotARead

__all__ = [
    "ByteSource",
    "Event",
    "Forwarded",
    "RefusedRead",
    "SerialSource",
    "Unanswered",
    "forward",
    "open_serial",
]

#: How long one read of the port waits for a byte: how soon the forwarder sees it must stop.
POLL_SECONDS = 0.2


class ByteSource(Protocol):
    """Where the shoe's bytes come from: what arrived, or ``b""`` after a moment of silence."""

    def read_some(self) -> bytes: ...


class SerialSource:
    """A serial port (pyserial) as a ``ByteSource``: a byte as soon as one arrives, with every
    byte already waiting behind it."""

    def __init__(self, port: serial.Serial) -> None:
        self.port = port

    def read_some(self) -> bytes:
        first: bytes = self.port.read(1)
        if not first:
            return b""
        waiting = self.port.in_waiting
        rest: bytes = self.port.read(waiting) if waiting else b""
        return first + rest

    def close(self) -> None:
        self.port.close()


def open_serial(path: str, baud: int) -> SerialSource:
    """The serial port at ``path``, 8N1 at ``baud``; ``OSError`` (pyserial's
    ``SerialException`` is one) when it cannot be opened."""
    port = serial.Serial(
        path,
        baudrate=baud,
        bytesize=serial.EIGHTBITS,
        parity=serial.PARITY_NONE,
        stopbits=serial.STOPBITS_ONE,
        timeout=POLL_SECONDS,
        # Only this process reads the shoe: a second reader would take half its lines.
        exclusive=True,
    )
    return SerialSource(port)


@dataclass(frozen=True, slots=True)
class Forwarded:
    """A read the server answered."""

    answer: Answer


@dataclass(frozen=True, slots=True)
class RefusedRead:
    """A read the server refused: it stored nothing."""

    scan_id: str
    card: Card
    refusal: RefusalError


@dataclass(frozen=True, slots=True)
class Unanswered:
    """The read in flight when the forwarder was stopped: the server may or may not hold it."""

    scan_id: str
    card: Card


Event = Forwarded | RefusedRead | NotARead | Retry | Unanswered


def forward(
    source: ByteSource,
    client: DeviceClient,
    device: str,
    report: Callable[[Event], None],
    stop: threading.Event,
) -> int:
    """Forward every read from ``source`` until ``stop`` is set; the number answered.

    ``client``'s ``wait`` should be ``stop.wait``, so that a read being retried gives up when
    told to stop. Raises ``RefusalError`` for a fatal refusal, ``OSError`` when the port fails.
    """
    lines = Lines()
    answered = 0
    while not stop.is_set():
        for item in lines.feed(source.read_some()):
            if isinstance(item, NotARead):
                report(item)
                continue
            scan_id = item.scan_id(device)
            try:
                answer = client.push(item.card, scan_id)
            except StoppedError:
                report(Unanswered(scan_id, item.card))
                return answered
            except KeyboardInterrupt:
                report(Unanswered(scan_id, item.card))
                raise
            except RefusalError as refusal:
                if refusal.fatal:
                    raise
                report(RefusedRead(scan_id, item.card, refusal))
                continue
            answered += 1
            report(Forwarded(answer))
    return answered
