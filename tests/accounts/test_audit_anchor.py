"""The audit anchor: the server appends the chain's head to a file outside the database, and
``baccarat audit verify --anchor FILE`` finds records removed from the end of the log, which
the chain alone cannot show."""

from __future__ import annotations

import json
import logging
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest
from accounts_support import Service, db_url_fixture  # noqa: F401
from fastapi.testclient import TestClient
from sqlalchemy import text
from typer.testing import CliRunner

from baccarat.audit import (
    Anchor,
    AuditError,
    AuditRecord,
    audit_time,
    chain,
    check_anchors,
    parse_anchors,
)
from baccarat.cli import app
from baccarat.server import Settings, create_app, tables_from
from baccarat.store import Database
from baccarat.store.audit_log import audit_rows


def _verify(db_url: str, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["audit", "verify", "--db", db_url, *args])
    return result.exit_code, result.output


def _serve(db_url: str, anchor: Path) -> TestClient:
    config = Settings(
        db=db_url,
        tables=tables_from(["standard"], betting_ms=500, reveal_ms=5, result_ms=10),
        audit_anchor=anchor,
        audit_anchor_seconds=0.5,
        session_hours=1,
    )
    # The system's clock: the anchor is looked at each (real) second.
    return TestClient(create_app(config))


def _anchors(path: Path) -> list[Anchor]:
    return parse_anchors(path.read_text(encoding="utf-8")) if path.exists() else []


def _head(db_url: str) -> tuple[int, str]:
    database = Database(db_url)
    try:
        with database.read() as c:
            rows = audit_rows(c)
    finally:
        database.dispose()
    return rows[-1]["seq"], rows[-1]["hash"]


def test_records_removed_from_the_end_are_found(
    db_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    anchor = tmp_path / "anchors" / "audit-anchor.jsonl"
    with _serve(db_url, anchor) as client:
        service = Service(client, db_url)
        token = service.register_and_login("ivy")
        for amount in (5_000, 4_000, 3_000):
            limit = {"kind": "wager", "period": "7d", "amount": amount}
            assert service.call("PUT", "/api/me/limits", token, json=limit).status_code == 200
        # While running, within the anchor's seconds of the last record, without waiting for
        # the shutdown: a copy of the log cut now would be found out.
        running_head = _head(db_url)
        deadline = time.monotonic() + 10
        while not any((a.seq, a.head) == running_head for a in _anchors(anchor)):
            assert time.monotonic() < deadline, f"no anchor of record {running_head[0]}"
            time.sleep(0.05)
        service.call("DELETE", "/api/sessions/current", token)
    # The last anchor, written at shutdown, is the head of the log.
    seq, head = _head(db_url)
    assert seq >= 5
    last = _anchors(anchor)[-1]
    assert (last.seq, last.head) == (seq, head)
    assert all(json.loads(line).keys() == {"seq", "head", "at"} for line in anchor.open())
    code, output = _verify(db_url, "--anchor", str(anchor))
    assert code == 0 and "the chain holds and reaches its" in output, output

    database = Database(db_url)
    try:
        with database.write() as c:
            c.execute(text("DELETE FROM audit_log WHERE seq > :keep"), {"keep": seq - 2})
    finally:
        database.dispose()
    # The chain that is left holds: only the anchor shows what is gone.
    code, output = _verify(db_url)
    assert code == 0, output
    code, output = _verify(db_url, "--anchor", str(anchor))
    assert code == 1, output
    assert f"records {seq - 1} to {seq} are missing from the end" in output

    # A server started on the cut log says so in one line (and anchors what it finds).
    with caplog.at_level(logging.ERROR, logger="baccarat.server"), _serve(db_url, anchor):
        pass
    # (A round the stop interrupted may be voided at start, with a record of its own.)
    said = [r for r in caplog.records if "records were removed" in r.getMessage()]
    assert len(said) == 1 and f"saw record {seq}:" in said[0].getMessage()
    assert said[0].exc_info is None
    code, output = _verify(db_url, "--anchor", str(anchor))
    assert code == 1 and "missing from the end" in output


def test_a_bad_anchor_file_is_a_one_line_error(db_url: str, tmp_path: Path) -> None:
    with _serve(db_url, tmp_path / "a.jsonl") as client:
        Service(client, db_url).register_and_login("ivy")
    missing = tmp_path / "nowhere.jsonl"
    code, output = _verify(db_url, "--anchor", str(missing))
    assert code == 2 and output.strip() == (
        f"baccarat: error: --anchor: no anchor file at {missing} (and not a 64-hex-digit head hash)"
    )
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"seq": 1, "head": "xyz", "at": 0}\n')
    code, output = _verify(db_url, "--anchor", str(broken))
    assert code == 2 and len(output.strip().splitlines()) == 1 and "line 1: head" in output


def _log(n: int, salt: str = "") -> list[AuditRecord]:
    at = audit_time(datetime(2024, 6, 1, tzinfo=UTC))
    return [
        AuditRecord(seq, at, "system", "tick", {"n": seq, "salt": salt}) for seq in range(1, n + 1)
    ]


def test_every_cut_of_a_small_log_against_every_anchor() -> None:
    """Exhaustive over a 6-record log: cut after k records, anchored at record a."""
    full = chain(_log(6))
    for anchored in range(1, 7):
        anchors = [Anchor(anchored, full[anchored - 1].hash, 0)]
        for kept in range(7):
            problems = check_anchors(full[:kept], anchors)
            if kept >= anchored:
                assert problems == []
            else:
                (problem,) = problems
                assert problem.kind == "truncated" and problem.seq == kept + 1
                assert str(anchored) in problem.message


def test_a_log_rewritten_up_to_an_anchor_is_found() -> None:
    original, rewritten = chain(_log(4)), chain(_log(4, salt="forged"))
    anchors = [Anchor(2, original[1].hash, 0), Anchor(4, original[3].hash, 0)]
    assert check_anchors(original, anchors) == []
    problems = check_anchors(rewritten, anchors)
    assert [(p.seq, p.kind) for p in problems] == [(2, "anchor"), (4, "anchor")]
    # A record the anchor saw, gone from the middle, is named too.
    holed = [row for row in original if row.seq != 2]
    assert [(p.seq, p.kind) for p in check_anchors(holed, anchors)] == [(2, "anchor")]


def test_a_torn_last_line_is_left_out_and_others_are_refused() -> None:
    good = Anchor(3, "a" * 64, 7).line()
    assert parse_anchors(good + "\n" + good[:20]) == [Anchor(3, "a" * 64, 7)]
    with pytest.raises(AuditError, match="line 1"):
        parse_anchors(good[:20] + "\n" + good + "\n")
    for bad in ({"seq": True}, {"seq": 1, "head": "A" * 64, "at": 0}, {"seq": 1, "head": "a" * 64}):
        with pytest.raises(AuditError):
            parse_anchors(json.dumps(bad) + "\n")
