"""The audit log's hash chain: each record carries the hash of the one before it.

A record is ``seq`` (1, 2, 3, ...), ``time`` (UTC, ISO 8601 to the millisecond with a ``Z``),
``actor``, ``action`` and ``details`` (a JSON object). Its canonical form is the UTF-8 JSON
of those five fields with sorted keys and no spaces. Its hash is
``sha256(prev_hash + canonical)``, where ``prev_hash`` is the 64 hex digits of the previous
record's hash as ASCII (64 zeros for the first record). So a changed record no longer
matches its hash; a changed record whose hash was recomputed breaks the next record's link;
a removed, inserted or moved record leaves a gap or a break in ``seq`` or in the links.
Removing records from the end, or rewriting every record after a change, is only seen
against a hash kept outside the database: ``verify_chain(rows, anchor=...)`` checks that a
record still hashes to an anchor taken earlier (``head_hash``), and ``check_anchors`` checks
a whole anchor file (``Anchor`` lines the server appends as the log grows).

Details hold JSON strings, integers, booleans, null, lists and objects; no floats, whose
text differs between languages (money is integer minor units anyway).

>>> from dataclasses import replace
>>> from datetime import UTC, datetime
>>> at = datetime(2024, 6, 1, 12, 0, 0, 123456, tzinfo=UTC)
>>> first = append(None, at, "player:p1", "login", {"ip": "203.0.113.9"})
>>> first.record.canonical()
b'{"action":"login","actor":"player:p1","details":{"ip":"203.0.113.9"},"seq":1,"time":"2024-06-01T12:00:00.123Z"}'
>>> first.prev_hash == GENESIS and first.hash == record_hash(GENESIS, first.record)
True
>>> second = append(first, at, "admin:ops", "void", {"round": 42, "reason": "dealer error"})
>>> verify_chain([first, second])
[]
>>> tampered = second.with_record(replace(second.record, actor="admin:other"))
>>> [problem.kind for problem in verify_chain([first, tampered])]
['changed']
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

__all__ = [
    "GENESIS",
    "Anchor",
    "AuditError",
    "AuditRecord",
    "ChainedRecord",
    "Problem",
    "append",
    "audit_time",
    "canonical_json",
    "chain",
    "check_anchors",
    "head_hash",
    "parse_anchors",
    "record_hash",
    "verify_chain",
]

#: The ``prev_hash`` of the first record.
GENESIS = "0" * 64

_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")
_HEX64 = re.compile(r"^[0-9a-f]{64}$")


class AuditError(ValueError):
    """A record that cannot be part of the chain (bad field, a float in the details...)."""


def audit_time(moment: datetime) -> str:
    """The canonical text of an instant: UTC, to the millisecond (rounded down), with ``Z``.

    >>> from datetime import timedelta, timezone
    >>> audit_time(datetime(2024, 6, 1, 14, 0, 0, 999_999, tzinfo=timezone(timedelta(hours=2))))
    '2024-06-01T12:00:00.999Z'
    """
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise AuditError(f"an audit time must be timezone-aware, not the naive {moment}")
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _check_json(value: Any, path: str) -> None:
    if value is None or isinstance(value, bool | int | str):
        return
    if isinstance(value, float):
        # A float's text is not the same in every language, so a chain holding one could
        # not be verified byte for byte elsewhere.
        what = "not finite" if not math.isfinite(value) else "a float"
        raise AuditError(f"details{path} is {what} ({value!r}): use an integer or a string")
    if isinstance(value, list | tuple):
        for i, item in enumerate(value):
            _check_json(item, f"{path}[{i}]")
        return
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str):
                raise AuditError(f"details{path} has a key that is not a string: {key!r}")
            _check_json(item, f"{path}.{key}")
        return
    raise AuditError(f"details{path} cannot be written as JSON: {value!r}")


def canonical_json(value: Any) -> bytes:
    """UTF-8 JSON with sorted keys and no spaces (non-ASCII left as is).

    >>> canonical_json({"b": [1, "é"], "a": None})
    b'{"a":null,"b":[1,"\\xc3\\xa9"]}'
    """
    _check_json(value, "")
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8")


@dataclass(frozen=True, slots=True)
class AuditRecord:
    """What happened: the record's content, without its links."""

    seq: int
    time: str
    actor: str
    action: str
    details: Mapping[str, Any]

    def __post_init__(self) -> None:
        if isinstance(self.seq, bool) or not isinstance(self.seq, int) or self.seq < 1:
            raise AuditError(f"seq must be a positive integer, not {self.seq!r}")
        if not isinstance(self.time, str) or not _TIME.match(self.time):
            raise AuditError(f"time must read like 2024-06-01T12:00:00.000Z, not {self.time!r}")
        for name in ("actor", "action"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value:
                raise AuditError(f"{name} must be a non-empty string, not {value!r}")
        if not isinstance(self.details, Mapping):
            raise AuditError(f"details must be a JSON object, not {self.details!r}")
        _check_json(self.details, "")

    def canonical(self) -> bytes:
        """The bytes that are hashed."""
        return canonical_json(
            {
                "seq": self.seq,
                "time": self.time,
                "actor": self.actor,
                "action": self.action,
                "details": self.details,
            }
        )


def record_hash(prev_hash: str, record: AuditRecord) -> str:
    """``sha256(prev_hash + canonical)`` as 64 lowercase hex digits."""
    return hashlib.sha256(prev_hash.encode("ascii") + record.canonical()).hexdigest()


@dataclass(frozen=True, slots=True)
class ChainedRecord:
    """A record as stored: its content, the previous record's hash, and its own hash."""

    record: AuditRecord
    prev_hash: str
    hash: str

    @property
    def seq(self) -> int:
        return self.record.seq

    def with_record(self, record: AuditRecord) -> ChainedRecord:
        """The same links around other content (what a careless tamperer would store)."""
        return replace(self, record=record)

    def to_row(self) -> dict[str, Any]:
        """The columns to store: ``details`` as its canonical JSON text.

        >>> from datetime import UTC, datetime
        >>> row = append(None, datetime(2024, 1, 1, tzinfo=UTC), "system", "start", {}).to_row()
        >>> sorted(row), row["details"]
        (['action', 'actor', 'details', 'hash', 'prev_hash', 'seq', 'time'], '{}')
        >>> ChainedRecord.from_row(row).to_row() == row
        True
        """
        return {
            "seq": self.record.seq,
            "time": self.record.time,
            "actor": self.record.actor,
            "action": self.record.action,
            "details": canonical_json(self.record.details).decode("utf-8"),
            "prev_hash": self.prev_hash,
            "hash": self.hash,
        }

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> ChainedRecord:
        """A stored row read back (``details`` as JSON text or as a mapping)."""
        details = row["details"]
        if isinstance(details, str | bytes):
            try:
                details = json.loads(details)
            except ValueError as error:
                raise AuditError(f"details are not JSON: {error}") from None
        record = AuditRecord(row["seq"], row["time"], row["actor"], row["action"], details)
        return cls(record, str(row["prev_hash"]), str(row["hash"]))


def append(
    last: ChainedRecord | None,
    at: datetime,
    actor: str,
    action: str,
    details: Mapping[str, Any],
) -> ChainedRecord:
    """The record that follows ``last`` (``None``: the first record of the log)."""
    seq = 1 if last is None else last.seq + 1
    prev = GENESIS if last is None else last.hash
    record = AuditRecord(seq, audit_time(at), actor, action, dict(details))
    return ChainedRecord(record, prev, record_hash(prev, record))


def chain(records: Iterable[AuditRecord], prev_hash: str = GENESIS) -> list[ChainedRecord]:
    """Link records in order; their ``seq`` must run on by one from the first."""
    linked: list[ChainedRecord] = []
    for record in records:
        if linked and record.seq != linked[-1].seq + 1:
            raise AuditError(f"record {record.seq} cannot follow record {linked[-1].seq}")
        linked.append(ChainedRecord(record, prev_hash, record_hash(prev_hash, record)))
        prev_hash = linked[-1].hash
    return linked


def head_hash(rows: Sequence[ChainedRecord]) -> str:
    """The hash of the last record (the genesis hash for an empty log): keep it elsewhere,
    and pass it later as ``verify_chain(..., anchor=)``."""
    return rows[-1].hash if rows else GENESIS


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a chain: where (``seq``; 0 for the whole log), what, and a sentence.

    Kinds: ``changed`` (content does not match its hash), ``broken_link`` (``prev_hash`` is
    not the previous record's hash), ``missing`` (a gap in ``seq``), ``out_of_order`` (a
    ``seq`` not after the previous one), ``unreadable`` (a stored row that is not a record),
    ``bad_hash`` (not 64 hex digits), ``anchor`` (no
    record hashes to the anchor kept outside the log), ``truncated`` (records an anchor
    saw are gone from the end).
    """

    seq: int
    kind: str
    message: str

    def __str__(self) -> str:
        return self.message


def _read(row: ChainedRecord | Mapping[str, Any]) -> ChainedRecord | Problem:
    if isinstance(row, ChainedRecord):
        return row
    seq = row.get("seq")
    where = seq if isinstance(seq, int) and not isinstance(seq, bool) else 0
    try:
        return ChainedRecord.from_row(row)
    except (AuditError, KeyError, TypeError) as error:
        return Problem(where, "unreadable", f"record {seq} cannot be read: {error}")


def verify_chain(
    rows: Iterable[ChainedRecord | Mapping[str, Any]], *, anchor: str | None = None
) -> list[Problem]:
    """Every problem found in ``rows`` (in stored order); an empty list for an intact log.

    A row is a ``ChainedRecord`` or a stored row (``ChainedRecord.to_row`` columns); a row
    that cannot be read is an ``unreadable`` problem, and the check goes on past it.
    ``anchor``, if given, is a ``head_hash`` kept outside the log at some earlier time: one
    record must still hash to it, else records up to it were removed or rewritten.
    """
    problems: list[Problem] = []
    last_seq, last_hash = 0, GENESIS
    anchored = anchor is None or anchor == GENESIS
    for raw in rows:
        row = _read(raw)
        if isinstance(row, Problem):
            problems.append(row)
            # Carry on from what the unreadable row claims, so one bad row is one problem.
            if isinstance(raw, Mapping):
                last_seq = row.seq or last_seq + 1
                last_hash = str(raw.get("hash", ""))
            continue
        seq = row.seq
        gap = seq > last_seq + 1
        if gap:
            first = last_seq + 1
            missing = f"{first}" if seq == first + 1 else f"{first} to {seq - 1}"
            problems.append(Problem(seq, "missing", f"record {missing} missing before {seq}"))
        elif seq <= last_seq:
            after = f"after record {last_seq}"
            problems.append(Problem(seq, "out_of_order", f"record {seq} comes {after}"))
        for name in ("prev_hash", "hash"):
            if not _HEX64.match(getattr(row, name)):
                problems.append(Problem(seq, "bad_hash", f"record {seq}: {name} is not a hash"))
        if record_hash(row.prev_hash, row.record) != row.hash:
            problems.append(
                Problem(seq, "changed", f"record {seq} was changed: it does not match its hash")
            )
        if row.prev_hash != last_hash and not gap:
            before = "the genesis hash" if last_seq == 0 else f"record {last_seq}'s hash"
            problems.append(
                Problem(seq, "broken_link", f"record {seq}: its previous hash is not {before}")
            )
        anchored = anchored or row.hash == anchor
        last_seq, last_hash = seq, row.hash
    if not anchored:
        problems.append(
            Problem(
                0,
                "anchor",
                f"no record hashes to the anchor {anchor}: records were removed or rewritten",
            )
        )
    return problems


@dataclass(frozen=True, slots=True)
class Anchor:
    """The chain's head at one moment, kept outside the database: record ``seq`` had ``head``.

    >>> Anchor(7, "ab" * 32, 1_700_000_000_000).line() == (
    ...     '{"at":1700000000000,"head":"' + "ab" * 32 + '","seq":7}'
    ... )
    True
    """

    seq: int
    head: str
    at: int

    def line(self) -> str:
        """One line of the anchor file (without its newline)."""
        return canonical_json({"seq": self.seq, "head": self.head, "at": self.at}).decode()


def _anchor(value: Any) -> Anchor:
    if not isinstance(value, dict):
        raise AuditError("not a JSON object")
    seq, head, at = value.get("seq"), value.get("head"), value.get("at")
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 1:
        raise AuditError(f"seq must be a positive integer, not {seq!r}")
    if not isinstance(head, str) or not _HEX64.match(head):
        raise AuditError(f"head must be 64 lowercase hex digits, not {head!r}")
    if isinstance(at, bool) or not isinstance(at, int):
        raise AuditError(f"at must be an integer (ms since the epoch), not {at!r}")
    return Anchor(seq, head, at)


def parse_anchors(text: str) -> list[Anchor]:
    """The anchors of an anchor file; a torn last line (a crash mid-write) is left out.

    >>> [(a.seq, a.at) for a in parse_anchors('{"seq":1,"head":"' + "0" * 64 + '","at":5}\\n{"')]
    [(1, 5)]
    >>> parse_anchors('{"seq":0}\\n')
    Traceback (most recent call last):
    ...
    baccarat.audit.AuditError: line 1: seq must be a positive integer, not 0
    """
    anchors = []
    lines = text.split("\n")
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            anchors.append(_anchor(json.loads(line)))
        except (ValueError, AuditError) as error:
            if number == len(lines):  # no newline after it: the write was cut short
                break
            raise AuditError(f"line {number}: {error}") from None
    return anchors


def check_anchors(
    rows: Iterable[ChainedRecord | Mapping[str, Any]], anchors: Sequence[Anchor]
) -> list[Problem]:
    """What the anchors show wrong with ``rows``: a record that no longer hashes to its
    anchor (rewritten), an anchored record gone from the middle, records gone from the end.

    >>> from datetime import UTC, datetime
    >>> at = datetime(2024, 6, 1, tzinfo=UTC)
    >>> log = chain([AuditRecord(n, audit_time(at), "system", "tick", {}) for n in (1, 2, 3)])
    >>> check_anchors(log, [Anchor(3, log[2].hash, 0)])
    []
    >>> [str(p) for p in check_anchors(log[:1], [Anchor(3, log[2].hash, 0)])]
    ['records 2 to 3 are missing from the end: an anchor saw record 3 (the log ends at 1)']
    """
    hashes: dict[int, str] = {}
    for raw in rows:
        seq = raw.seq if isinstance(raw, ChainedRecord) else raw.get("seq")
        if isinstance(seq, int) and not isinstance(seq, bool):
            hashes[seq] = raw.hash if isinstance(raw, ChainedRecord) else str(raw.get("hash"))
    last = max(hashes, default=0)
    problems: list[Problem] = []
    seen: set[tuple[int, str]] = set()
    for anchor in anchors:
        if (anchor.seq, anchor.head) in seen or anchor.seq > last:
            continue
        seen.add((anchor.seq, anchor.head))
        stored = hashes.get(anchor.seq)
        if stored is None:
            message = f"record {anchor.seq}, which an anchor saw, is missing"
            problems.append(Problem(anchor.seq, "anchor", message))
        elif stored != anchor.head:
            message = f"record {anchor.seq} no longer hashes to its anchor {anchor.head}"
            problems.append(Problem(anchor.seq, "anchor", message + ": the log was rewritten"))
    furthest = max((anchor.seq for anchor in anchors), default=0)
    if furthest > last:
        gone = f"record {furthest}" if furthest == last + 1 else f"records {last + 1} to {furthest}"
        verb = "is" if furthest == last + 1 else "are"
        problems.append(
            Problem(
                last + 1,
                "truncated",
                f"{gone} {verb} missing from the end: an anchor saw record {furthest} "
                f"(the log ends at {last})",
            )
        )
    return problems
