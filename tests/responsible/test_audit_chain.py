"""The audit hash chain: the format to the byte, and every kind of tampering detected."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from baccarat.audit import (
    GENESIS,
    AuditError,
    AuditRecord,
    ChainedRecord,
    append,
    audit_time,
    chain,
    head_hash,
    record_hash,
    verify_chain,
)

T0 = datetime(2024, 6, 1, 12, 0, 0, tzinfo=UTC)
ACTIONS: list[tuple[str, str, dict[str, Any]]] = [
    ("player:p1", "login", {"ip": "203.0.113.9"}),
    (
        "player:p1",
        "limit_change",
        {"kind": "loss", "period": "7d", "before": None, "after": 10_000},
    ),
    ("player:p2", "time_out", {"until": "2024-06-08T12:00:00+00:00"}),
    ("admin:ops", "void", {"round": 42, "reason": "dealer error", "stakes": [100, 2_500]}),
    ("player:p1", "logout", {}),
    ("admin:ops", "ledger_correction", {"account": "player:p2", "amount": -150, "ok": True}),
]


def build(count: int = len(ACTIONS)) -> list[ChainedRecord]:
    rows: list[ChainedRecord] = []
    for i, (actor, action, details) in enumerate(ACTIONS[:count]):
        rows.append(
            append(rows[-1] if rows else None, T0 + timedelta(seconds=i), actor, action, details)
        )
    return rows


def kinds(rows: Sequence[ChainedRecord | Mapping[str, Any]], **kwargs: Any) -> set[tuple[int, str]]:
    return {(p.seq, p.kind) for p in verify_chain(rows, **kwargs)}


def test_the_format_to_the_byte() -> None:
    first = append(None, T0, "player:p1", "login", {"ip": "203.0.113.9", "agent": "é"})
    # Written from the format's definition: five keys sorted, no spaces, UTF-8, time with ms and Z.
    expected = (
        '{"action":"login","actor":"player:p1","details":{"agent":"é","ip":"203.0.113.9"},'
        '"seq":1,"time":"2024-06-01T12:00:00.000Z"}'
    ).encode()
    assert first.record.canonical() == expected
    assert first.prev_hash == "0" * 64 == GENESIS
    assert first.hash == hashlib.sha256(b"0" * 64 + expected).hexdigest()
    second = append(first, T0, "player:p1", "logout", {})
    assert second.prev_hash == first.hash
    assert (
        second.hash == hashlib.sha256(first.hash.encode() + second.record.canonical()).hexdigest()
    )


def test_chain_and_append_agree_and_an_intact_log_verifies() -> None:
    rows = build()
    assert [row.seq for row in rows] == [1, 2, 3, 4, 5, 6]
    assert chain([row.record for row in rows]) == rows
    assert verify_chain(rows) == []
    assert verify_chain([]) == []
    assert verify_chain(rows, anchor=head_hash(rows)) == []
    assert verify_chain(rows, anchor=rows[2].hash) == []
    assert head_hash([]) == GENESIS


def test_chain_refuses_a_gap() -> None:
    records = [row.record for row in build()]
    with pytest.raises(AuditError, match="record 3 cannot follow record 1"):
        chain([records[0], records[2]])


# --- tampering, at every position -------------------------------------------------------------

CHANGES = {
    "actor": lambda r: replace(r, actor="admin:other"),
    "action": lambda r: replace(r, action="nothing"),
    "time": lambda r: replace(r, time="2024-06-01T12:00:00.001Z"),
    "details": lambda r: replace(r, details={**r.details, "extra": 1}),
    "seq": lambda r: replace(r, seq=r.seq + 100),
}


@pytest.mark.parametrize("field", list(CHANGES))
@pytest.mark.parametrize("position", range(len(ACTIONS)))
def test_a_changed_record_no_longer_matches_its_hash(field: str, position: int) -> None:
    rows = build()
    rows[position] = rows[position].with_record(CHANGES[field](rows[position].record))
    found = kinds(rows)
    assert (rows[position].seq, "changed") in found


@pytest.mark.parametrize("position", range(len(ACTIONS)))
def test_a_changed_record_with_its_hash_recomputed_breaks_the_next_link(position: int) -> None:
    rows = build()
    forged = replace(rows[position].record, details={"forged": True})
    rows[position] = ChainedRecord(
        forged, rows[position].prev_hash, record_hash(rows[position].prev_hash, forged)
    )
    found = kinds(rows)
    if position < len(rows) - 1:
        assert found == {(position + 2, "broken_link")}
    else:
        # The last record has no successor: only a hash kept outside the log shows it.
        assert found == set()
        assert kinds(rows, anchor=head_hash(build())) == {(0, "anchor")}


@pytest.mark.parametrize("position", range(len(ACTIONS)))
def test_a_removed_record_is_detected(position: int) -> None:
    intact = build()
    rows = intact[:position] + intact[position + 1 :]
    found = kinds(rows)
    if position < len(intact) - 1:
        assert found == {(position + 2, "missing")}
        assert (
            verify_chain(rows)[0].message == f"record {position + 1} missing before {position + 2}"
        )
    else:
        assert found == set()
        assert kinds(rows, anchor=head_hash(intact)) == {(0, "anchor")}


def test_removed_records_renumbered_and_rehashed_are_caught_by_the_anchor() -> None:
    intact = build()
    anchor = head_hash(intact)
    # Drop record 3 and rebuild everything after it: a consistent chain, one record short.
    survivors = [row.record for row in intact if row.seq != 3]
    renumbered = [replace(record, seq=i) for i, record in enumerate(survivors, start=1)]
    rewritten = chain(renumbered)
    assert verify_chain(rewritten) == []
    assert kinds(rewritten, anchor=anchor) == {(0, "anchor")}


@pytest.mark.parametrize("position", range(len(ACTIONS) - 1))
def test_two_records_swapped_are_detected(position: int) -> None:
    rows = build()
    rows[position], rows[position + 1] = rows[position + 1], rows[position]
    found = kinds(rows)
    assert (rows[position + 1].seq, "out_of_order") in found
    assert any(kind == "broken_link" for _, kind in found)


@pytest.mark.parametrize("position", range(1, len(ACTIONS)))
def test_an_inserted_record_is_detected(position: int) -> None:
    rows = build()
    # A forger links a new record properly to its predecessor, reusing the next number.
    before = rows[position - 1]
    forged = append(before, T0, "admin:ops", "deposit", {"amount": 1_000_000})
    rows.insert(position, forged)
    found = kinds(rows)
    assert (rows[position + 1].seq, "out_of_order") in found
    assert (rows[position + 1].seq, "broken_link") in found


def test_a_duplicated_record_is_detected() -> None:
    rows = build()
    rows.insert(3, rows[2])
    assert (3, "out_of_order") in kinds(rows)


def test_a_log_that_does_not_start_at_the_genesis_is_detected() -> None:
    rows = build()
    assert kinds(rows[2:]) == {(3, "missing")}
    relinked = chain(
        [replace(row.record, seq=row.seq - 2) for row in rows[2:]], prev_hash="ab" * 32
    )
    assert kinds(relinked) == {(1, "broken_link")}


# --- stored rows ------------------------------------------------------------------------------


def test_rows_round_trip_and_bad_rows_are_problems_not_crashes() -> None:
    rows = [row.to_row() for row in build()]
    assert [ChainedRecord.from_row(row) for row in rows] == build()
    assert verify_chain(rows) == []
    rows[1] = {**rows[1], "details": '{"amount": 1.5}'}
    rows[3] = {**rows[3], "time": "yesterday"}
    rows[4] = {**rows[4], "details": "{not json"}
    found = kinds(rows)
    assert found == {(2, "unreadable"), (4, "unreadable"), (5, "unreadable")}
    rows[5] = {**rows[5], "hash": "XYZ"}
    assert (6, "bad_hash") in kinds(rows)


@pytest.mark.parametrize(
    ("details", "message"),
    [
        ({"amount": 1.5}, "a float"),
        ({"x": float("nan")}, "not finite"),
        ({1: "a"}, "not a string"),
        ({"when": datetime(2024, 1, 1)}, "cannot be written as JSON"),
        ({"list": [1, {"deep": 0.1}]}, r"details\.list\[1\]\.deep is a float"),
    ],
)
def test_details_are_plain_json_without_floats(details: dict[Any, Any], message: str) -> None:
    with pytest.raises(AuditError, match=message):
        append(None, T0, "system", "start", details)


@pytest.mark.parametrize(
    ("field", "value"),
    [("seq", 0), ("seq", True), ("time", "2024-06-01 12:00:00"), ("actor", ""), ("action", 5)],
)
def test_record_fields_are_checked(field: str, value: object) -> None:
    good: dict[str, Any] = {
        "seq": 1,
        "time": "2024-06-01T12:00:00.000Z",
        "actor": "a",
        "action": "b",
        "details": {},
    }
    AuditRecord(**good)
    with pytest.raises(AuditError):
        AuditRecord(**{**good, field: value})


def test_audit_time_is_utc_to_the_millisecond() -> None:
    assert (
        audit_time(datetime(2024, 6, 1, 12, 0, 0, 999_999, tzinfo=UTC))
        == "2024-06-01T12:00:00.999Z"
    )
    with pytest.raises(AuditError, match="timezone-aware"):
        audit_time(datetime(2024, 6, 1))


# --- any single change to any field of any record is seen ----------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)
entries = st.lists(
    st.tuples(
        st.text(min_size=1, max_size=10),
        st.text(min_size=1, max_size=10),
        st.dictionaries(st.text(max_size=5), json_values, max_size=4),
    ),
    min_size=1,
    max_size=8,
)


@given(entries, st.data())
def test_any_one_change_is_detected(
    items: list[tuple[str, str, dict[str, Any]]], data: st.DataObject
) -> None:
    rows: list[ChainedRecord] = []
    for i, (actor, action, details) in enumerate(items):
        rows.append(
            append(
                rows[-1] if rows else None, T0 + timedelta(milliseconds=i), actor, action, details
            )
        )
    assert verify_chain(rows) == []
    anchor = head_hash(rows)
    position = data.draw(st.integers(0, len(rows) - 1))
    target = rows[position]
    how = data.draw(st.sampled_from(["actor", "action", "details", "delete", "prev_hash", "hash"]))
    if how == "delete":
        del rows[position]
    elif how in ("prev_hash", "hash"):
        old = getattr(target, how)
        hexes = st.text("0123456789abcdef", min_size=64, max_size=64).filter(lambda h: h != old)
        new = data.draw(hexes)
        if how == "hash":
            rows[position] = replace(target, hash=new)
        else:
            rows[position] = replace(target, prev_hash=new)
    else:
        record = target.record
        if how == "details":
            other = st.dictionaries(st.text(max_size=5), json_values, max_size=4)
            changed = replace(
                record, details=data.draw(other.filter(lambda d: d != record.details))
            )
        else:
            old_text = getattr(record, how)
            text = data.draw(st.text(min_size=1, max_size=10).filter(lambda t: t != old_text))
            changed = (
                replace(record, actor=text) if how == "actor" else replace(record, action=text)
            )
        rows[position] = target.with_record(changed)
    assert verify_chain(rows, anchor=anchor) != []
