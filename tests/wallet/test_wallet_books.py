"""Any order of debits, credits, rollbacks and replays (Hypothesis) keeps the reference
wallet's books: the balance is the sum of what the recorded calls moved, never negative; a
debit ends at most once; a rolled-back debit never moves money; a replay gets its first answer."""

from __future__ import annotations

import secrets
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from inprocess_support import InProcess, credit, debit, rollback

from baccarat.wallet.contract import Outcome, Unknown

# -- any order of calls, replays included, against the wallet's own accounting ------------

_ops = st.lists(
    st.tuples(
        st.sampled_from(["debit", "credit", "rollback", "replay"]),
        st.integers(0, 4),  # which debit id
        st.integers(0, 600),  # an amount (a debit's; a credit's)
    ),
    max_size=25,
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(_ops)
def test_any_order_of_calls_keeps_the_books(ops: list[tuple[str, int, int]]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        wallet = InProcess(Path(folder))
        try:
            _check_books(wallet, ops)
        finally:
            wallet.close()


def _check_books(wallet: InProcess, ops: list[tuple[str, int, int]]) -> None:
    wallet.player("p", 1_000)
    amounts = {n: 1 + (n * 137) % 500 for n in range(5)}  # each debit id has one amount
    sent: list[tuple[str, dict[str, Any], Outcome]] = []
    for kind, n, amount in ops:
        ref = f"d{n}"
        if kind == "replay" and sent:
            call, body, first = sent[amount % len(sent)]
            again = wallet.call(call, body)
            if not isinstance(first, Unknown):
                assert again == first  # the same id and body: the same answer
            continue
        if kind == "debit":
            call, body = "debit", debit(ref, amounts[n])
        elif kind == "credit":
            call, body = "credit", credit(f"c-{secrets.token_hex(4)}", ref, amount)
        else:
            call, body = "rollback", rollback(f"r-{secrets.token_hex(4)}", ref, amounts[n])
        sent.append((call, body, wallet.call(call, body)))
    rows = wallet.admin("GET", "/admin/transactions").json()
    assert wallet.balance("p") == 1_000 + sum(row["moved"] for row in rows)
    assert wallet.balance("p") >= 0
    taken = {
        row["transaction_id"] for row in rows if row["kind"] == "debit" and row["status"] == "ok"
    }
    ends: dict[str, int] = {}
    for row in rows:
        if (row["kind"] != "debit" and row["moved"] != 0) or (
            row["kind"] == "credit" and row["status"] == "ok"
        ):
            ends[row["reference_id"]] = ends.get(row["reference_id"], 0) + 1
    assert all(count == 1 for count in ends.values()), ends  # a debit ends at most once
    assert set(ends) <= taken
    stones = {row["reference_id"] for row in rows if row["tombstone"]}
    for row in rows:
        if row["kind"] == "debit" and row["transaction_id"] in stones:
            assert row["status"] == "refused"  # a rolled-back debit never moves money
