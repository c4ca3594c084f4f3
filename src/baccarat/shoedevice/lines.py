"""The serial line protocol of a card-reading shoe: one read per line, ``<sequence> <card>``.

A line is ASCII and ends with ``\\n`` or ``\\r\\n``; the sequence is the device's own counter in
decimal, the card a card code (``docs/studio.md``). Whatever else comes down the wire (noise,
a half line after a reconnect, a line that never ends) is a ``NotARead`` with its reason: the
forwarder logs it and goes on.

>>> lines = Lines()
>>> lines.feed(b"17 Ah\\r\\n18 10")
[Read(sequence='17', card=Card.parse('Ah'))]
>>> lines.feed(b"d\\n\\x00\\xff garbage\\n")
[Read(sequence='18', card=Card.parse('Td')), NotARead(line=b'\\x00\\xff garbage', reason='not ASCII')]
>>> Read("000123", Card.parse("Ah")).scan_id("shoe7")
'shoe7:000123'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from baccarat.cards import Card, CardCodeError

__all__ = [
    "MAX_LINE",
    "MAX_SEQUENCE_DIGITS",
    "Lines",
    "NotARead",
    "Read",
    "check_device",
    "parse_line",
]

#: The longest line kept, terminator aside: a read is at most 25 bytes, so anything longer is
#: noise, and a line that never ends cannot grow the forwarder's memory.
MAX_LINE = 80
#: A sequence's digits at most: a 64-bit counter, and room in the 64-character ``scan_id``.
MAX_SEQUENCE_DIGITS = 20

#: A device's name: the characters of a ``scan_id``, and room left in its 64 for a sequence.
_DEVICE = re.compile(rf"[A-Za-z0-9._:-]{{1,{63 - MAX_SEQUENCE_DIGITS}}}")
_DECIMAL = re.compile(r"[0-9]+")
_BLANKS = re.compile(r"[ \t]+")
# Tab is the one control character a line may hold (as a blank); any other is noise, and
# would otherwise split or hide text (str.split() takes \x1c-\x1f for blanks).
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")


@dataclass(frozen=True, slots=True)
class Read:
    """One card read by the shoe: its sequence (the digits as the device sent them) and card."""

    sequence: str
    card: Card

    def scan_id(self, device: str) -> str:
        """The read's ``scan_id``: the device's name and the sequence as sent, so a read the
        device sends again is the same read to the server."""
        return f"{device}:{self.sequence}"


@dataclass(frozen=True, slots=True)
class NotARead:
    """A line that is not a read (at most ``MAX_LINE`` bytes of it) and why."""

    line: bytes
    reason: str

    @property
    def shown(self) -> str:
        """The line as printable ASCII, escapes for the rest, so noise cannot drive a terminal.

        >>> print(NotARead(b"\\x1b[2Jhi\\xff", "a control character").shown)
        '\\x1b[2Jhi\\xff'
        """
        return ascii(self.line.decode("latin-1"))


def check_device(name: str) -> str:
    """``name`` if every ``scan_id`` it makes is one the server takes, else ``ValueError``.

    >>> check_device("shoe7")
    'shoe7'
    >>> check_device("tty USB0")
    Traceback (most recent call last):
    ...
    ValueError: a device name is 1 to 43 of A-Z a-z 0-9 . _ : -, not 'tty USB0'
    """
    if not _DEVICE.fullmatch(name):
        limit = 63 - MAX_SEQUENCE_DIGITS
        raise ValueError(f"a device name is 1 to {limit} of A-Z a-z 0-9 . _ : -, not {name!r}")
    return name


def parse_line(line: bytes) -> Read | NotARead:
    """One line, its terminator removed, as a read or the reason it is not one.

    >>> parse_line(b"42 qs"), parse_line(b"  7\\t10c ")
    (Read(sequence='42', card=Card.parse('Qs')), Read(sequence='7', card=Card.parse('Tc')))
    >>> parse_line(b"42 Xs").reason
    "bad card code 'Xs': unknown rank 'X'"
    >>> parse_line(b"Ah 42").reason
    "the sequence 'Ah' is not decimal"
    """
    if len(line) > MAX_LINE:
        return NotARead(line[:MAX_LINE], f"longer than {MAX_LINE} bytes")
    try:
        text = line.decode("ascii")
    except UnicodeDecodeError:
        return NotARead(line, "not ASCII")
    if _CONTROL.search(text):
        return NotARead(line, "a control character")
    words = _BLANKS.split(text.strip(" \t"))
    if words == [""]:
        return NotARead(line, "a blank line")
    if len(words) != 2:
        return NotARead(line, "not '<sequence> <card>'")
    sequence, code = words
    if not _DECIMAL.fullmatch(sequence):
        return NotARead(line, f"the sequence {sequence!r} is not decimal")
    if len(sequence) > MAX_SEQUENCE_DIGITS:
        return NotARead(line, f"a sequence of more than {MAX_SEQUENCE_DIGITS} digits")
    try:
        card = Card.parse(code)
    except CardCodeError as error:
        return NotARead(line, str(error))
    return Read(sequence, card)


class Lines:
    """Bytes from the wire, in chunks of any size, as reads and refused lines in their order.

    A line longer than ``MAX_LINE`` is refused once and the rest of it dropped up to its end,
    so the buffer never holds more than a line's worth of bytes.

    >>> lines = Lines()
    >>> [item.reason for item in lines.feed(b"9" * 200)]
    ['longer than 80 bytes']
    >>> lines.feed(b"9" * 200 + b" Ah\\n3 Kd\\n")
    [Read(sequence='3', card=Card.parse('Kd'))]
    """

    def __init__(self) -> None:
        self._pending = bytearray()
        self._dropping = False

    def feed(self, data: bytes) -> list[Read | NotARead]:
        """The lines that ``data`` completes (and an over-long one, as soon as it is)."""
        found: list[Read | NotARead] = []
        start = 0
        while start < len(data):
            end = data.find(b"\n", start)
            piece = data[start:] if end < 0 else data[start:end]
            start = len(data) if end < 0 else end + 1
            if not self._dropping:
                # Only what fits is kept (a line and its '\r'): one byte more shows the line
                # is too long, and it is refused at once, not when (if ever) it ends.
                self._pending += piece[: _KEPT + 1 - len(self._pending)]
                if len(self._pending) > _KEPT:
                    found.append(NotARead(bytes(self._pending[:MAX_LINE]), _TOO_LONG))
                    self._pending.clear()
                    self._dropping = True
            if end >= 0:
                if not self._dropping:
                    found.append(parse_line(_without_cr(bytes(self._pending))))
                self._pending.clear()
                self._dropping = False
        return found


_TOO_LONG = f"longer than {MAX_LINE} bytes"
_KEPT = MAX_LINE + 1


def _without_cr(line: bytes) -> bytes:
    return line[:-1] if line.endswith(b"\r") else line
