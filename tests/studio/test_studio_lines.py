"""The serial line protocol: every card code of every case is a read, and nothing else is.

The property tests hold the parser to an independent statement of the protocol (a regular
expression over the bytes) on arbitrary bytes, and show that how the bytes are cut into
chunks by the port never changes what is read.
"""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from baccarat.cards import RANKS, SUITS, Card
from baccarat.shoedevice.lines import (
    MAX_LINE,
    Lines,
    NotARead,
    Read,
    check_device,
    parse_line,
)

#: The protocol stated once more, independently of the parser: blanks are spaces and tabs.
PROTOCOL = re.compile(
    rb"[ \t]*(?P<seq>[0-9]{1,20})[ \t]+(?P<rank>10|[2-9AaTtJjQqKk])(?P<suit>[SsHhDdCc])[ \t]*"
)


def cases(text: str) -> set[str]:
    """Every upper/lower-case spelling of ``text``."""
    return {"".join(c) for c in itertools.product(*({ch.lower(), ch.upper()} for ch in text))}


def oracle(line: bytes) -> Read | None:
    """The read ``line`` is by ``PROTOCOL``, or None."""
    match = PROTOCOL.fullmatch(line)
    if match is None or len(line) > MAX_LINE:
        return None
    code = (match["rank"] + match["suit"]).decode()
    return Read(match["seq"].decode(), Card.parse(code))


def test_every_card_code_in_every_case_is_read() -> None:
    seen = set()
    for rank, suit in itertools.product(RANKS, SUITS):
        card = Card(rank, suit)
        spellings = {rank.symbol} | ({"10"} if rank.symbol == "T" else set())
        codes = {
            r + s for spelling in spellings for r in cases(spelling) for s in cases(suit.value)
        }
        for code in codes:
            for line in (f"7 {code}", f"000123\t{code}", f"  18446744073709551615   {code} "):
                read = parse_line(line.encode())
                assert isinstance(read, Read), (line, read)
                assert read.card == card
                seen.add(read.card)
    assert len(seen) == 52


def test_the_sequence_is_kept_as_sent() -> None:
    assert parse_line(b"000123 Ah") == Read("000123", Card.parse("Ah"))
    assert Read("000123", Card.parse("Ah")).scan_id("shoe7") == "shoe7:000123"
    assert isinstance(parse_line(b"9" * 20 + b" Ah"), Read)
    assert parse_line(b"9" * 21 + b" Ah") == NotARead(
        b"9" * 21 + b" Ah", "a sequence of more than 20 digits"
    )


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        (b"", "a blank line"),
        (b" \t ", "a blank line"),
        (b"12", "not '<sequence> <card>'"),
        (b"12Ah", "not '<sequence> <card>'"),
        (b"12 Ah 13", "not '<sequence> <card>'"),
        (b"12 A h", "not '<sequence> <card>'"),
        (b"Ah 12", "the sequence 'Ah' is not decimal"),
        (b"-1 Ah", "the sequence '-1' is not decimal"),
        (b"+1 Ah", "the sequence '+1' is not decimal"),
        (b"1.5 Ah", "the sequence '1.5' is not decimal"),
        (b"0x1F Ah", "the sequence '0x1F' is not decimal"),
        (b"12 1h", "bad card code '1h': unknown rank '1'"),
        (b"12 11h", "bad card code '11h': unknown rank '11'"),
        (b"12 Ax", "bad card code 'Ax': unknown suit 'x' (use c, d, h or s)"),
        (b"12 A", "bad card code 'A': a card code is a rank then a suit, like 'As' or '10h'"),
        ("12 A♥".encode(), "not ASCII"),
        ("١٢ Ah".encode(), "not ASCII"),  # Arabic-Indic digits are digits to str.isdigit
        (b"12\x1cAh", "a control character"),  # a blank to str.split
        (b"12 Ah\r", "a control character"),  # a bare \r is not a line ending
        (b"\x1b[2J12 Ah", "a control character"),
        (b"\x00\x00\x00", "a control character"),
    ],
)
def test_what_is_not_a_read(line: bytes, reason: str) -> None:
    assert parse_line(line) == NotARead(line, reason)


#: Bytes of every kind: noise, reads, and near misses (a sign, a third word, a blank that is
#: not one, a rank or suit that is not one).
ANY_LINE = st.one_of(
    st.binary(max_size=120),
    st.from_regex(PROTOCOL, fullmatch=True),
    st.from_regex(
        rb"[ \t\x0b\x0c\r]{0,2}[-+0-9.]{0,23}[ \t\x0b\x1c\x00]{0,2}"
        rb"(10|1|11|[0-9A-Za-z]){0,2}[A-Za-z\xe2\x99]{0,2}[ \t\r]{0,2}",
        fullmatch=True,
    ),
)


@given(ANY_LINE)
def test_any_bytes_are_a_read_exactly_when_the_protocol_says(line: bytes) -> None:
    line = line.replace(b"\n", b"")  # one line: the splitter takes the line endings
    parsed = parse_line(line)
    expected = oracle(line)
    if expected is None:
        assert isinstance(parsed, NotARead)
        assert parsed.reason
        assert len(parsed.line) <= MAX_LINE
        assert parsed.shown.isascii() and parsed.shown.isprintable()
    else:
        assert parsed == expected


#: Lines of reads and of noise alike, so a stream holds both.
READ_LINES = st.builds(
    lambda seq, card, crlf: f"{seq} {card}{chr(13) if crlf else ''}".encode(),
    st.integers(0, 10**20 - 1),
    st.sampled_from([c.code for c in (Card(r, s) for r in RANKS for s in SUITS)]),
    st.booleans(),
)
LINES = st.lists(
    st.one_of(READ_LINES, st.binary(max_size=200).map(lambda b: b.replace(b"\n", b"")))
)


@given(LINES, st.data())
def test_a_stream_reads_the_same_however_the_port_cuts_it(
    lines: list[bytes], data: st.DataObject
) -> None:
    stream = b"".join(line + b"\n" for line in lines)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=12)))
    chunks = [stream[a:b] for a, b in itertools.pairwise([0, *cuts, len(stream)])]
    whole = Lines().feed(stream)
    pieces = Lines()
    cut = [item for chunk in chunks for item in pieces.feed(chunk)]
    assert cut == whole
    # One item per line, in order, each as the line alone would be.
    assert len(whole) == len(lines)
    for line, item in zip(lines, whole, strict=True):
        bare = line[:-1] if line.endswith(b"\r") else line
        assert item == parse_line(bare) or (
            len(bare) > MAX_LINE and item == NotARead(bare[:MAX_LINE], "longer than 80 bytes")
        )


def test_a_line_that_never_ends_is_refused_at_once_and_held_in_no_memory() -> None:
    lines = Lines()
    assert lines.feed(b"1" * MAX_LINE) == []
    assert lines.feed(b"1") == []  # 81 bytes: room for a '\r' yet
    assert lines.feed(b"1") == [NotARead(b"1" * MAX_LINE, "longer than 80 bytes")]
    for _ in range(100):  # 10 MB more of it: nothing more to say
        assert lines.feed(b"\xff" * 100_000) == []
    assert lines.feed(b" Ah\n42 Kd\r\n") == [Read("42", Card.parse("Kd"))]
    # A read of exactly the longest length, ended by \r\n, is still a read.
    longest = b"7" + b" " * (MAX_LINE - 4) + b" Ah"
    assert len(longest) == MAX_LINE
    assert lines.feed(longest + b"\r\n") == [Read("7", Card.parse("Ah"))]


def test_a_device_name_makes_scan_ids_the_server_takes() -> None:
    assert check_device("ttyUSB0") == "ttyUSB0"
    assert check_device("shoe-7.a_b:c") == "shoe-7.a_b:c"
    longest = "d" * 43
    assert check_device(longest) == longest
    assert len(Read("9" * 20, Card.parse("Ah")).scan_id(longest)) == 64
    for bad in ("", "d" * 44, "tty USB0", "shoe/7", "shoé"):
        with pytest.raises(ValueError, match="a device name is 1 to 43 of"):
            check_device(bad)
