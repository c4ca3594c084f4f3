"""What operators do, end to end on a running app: a void gives every stake back and the
ledger holds; a paused table opens no round until it is opened; a change waits for the next
shoe, and so does a new shoe asked for; a locked or closed player cannot log in; an operator limit caps the player's own; the
command creates staff."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any

import pytest
from admin_support import Admin, running_admin
from typer.testing import CliRunner

from baccarat.cli import app
from baccarat.refusals import Refusal, RefusalCode
from baccarat.rulesets import RuleSet, parse_ruleset
from baccarat.server.actions.admin_tables import next_ruleset
from baccarat.server.admin_models import StakeLimits, TableChange
from baccarat.verify import verify_record


@pytest.fixture(scope="module")
def admin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Admin]:
    yield from running_admin(tmp_path_factory.mktemp("actions"))


def _balance(admin: Admin, token: str) -> int:
    value: int = admin.call("GET", "/api/me", token).json()["balance"]
    return value


def test_a_void_returns_every_stake_and_the_ledger_holds(admin: Admin) -> None:
    (alice, alice_token), (bob, bob_token) = admin.guest(), admin.guest()
    before = {alice: _balance(admin, alice_token), bob: _balance(admin, bob_token)}
    round_id = admin.open_round()
    assert admin.bet(alice_token, round_id, {"banker": 1_000, "tie": 100}).status_code == 200
    assert admin.bet(bob_token, round_id, {"player": 500}).status_code == 200
    audience = admin.as_role("auditor", "GET", "/api/admin/tables/standard/audience").json()
    assert audience["bettors"][alice] == {"banker": 1_000, "tie": 100}
    assert audience["bettors"][bob] == {"player": 500}

    voided = admin.as_role(
        "operator", "POST", f"/api/admin/rounds/{round_id}/void", json={"reason": "dealer error"}
    )
    assert voided.status_code == 200, voided.text
    assert voided.json()["returned"] == {alice: 1_100, bob: 500}
    assert _balance(admin, alice_token) == before[alice]
    assert _balance(admin, bob_token) == before[bob]
    view = admin.round_view(round_id)
    assert (view["phase"], view["void_reason"]) == ("voided", "dealer error")
    detail = admin.as_role("auditor", "GET", f"/api/admin/rounds/{round_id}").json()
    assert {bet["outcome"] for bet in detail["bets"]} == {"voided"}
    assert sum(bet["returned"] for bet in detail["bets"]) == 1_600
    history = admin.call("GET", "/api/me/history", alice_token).json()["rounds"]
    assert history[0]["round_id"] == round_id and history[0]["phase"] == "voided"
    record = next(r for r in reversed(admin.audit()) if r["action"] == "round_void")
    assert record["actor"] == "staff:staff-operator"
    assert (
        '"reason":"dealer error"' in record["details"] and '"role":"operator"' in record["details"]
    )
    assert admin.ledger_problems() == []

    again = admin.as_role(
        "admin", "POST", f"/api/admin/rounds/{round_id}/void", json={"reason": "x"}
    )
    assert (again.status_code, again.json()["error"]["code"]) == (409, "round_finished")
    # The dealer goes on with a new round, and a settled round cannot be voided.
    following = admin.open_round()
    assert following > round_id
    settled = admin.wait_final(following)
    assert settled["phase"] == "settled"
    late = admin.as_role(
        "admin", "POST", f"/api/admin/rounds/{following}/void", json={"reason": "x"}
    )
    assert (late.status_code, late.json()["error"]["code"]) == (409, "round_finished")
    assert admin.ledger_problems() == []


def test_a_paused_table_opens_no_round_until_it_is_opened(admin: Admin) -> None:
    paused = admin.as_role(
        "operator", "POST", "/api/admin/tables/standard/pause", json={"reason": "break"}
    )
    assert paused.json()["status"] == "paused"

    def finished() -> int | None:
        state = admin.call("GET", "/api/tables/standard").json()["round"]
        return (
            None
            if state is None or state["phase"] not in ("settled", "voided")
            else int(state["id"])
        )

    # Once its round is over, the paused table's dealer waits for a command, not the clock:
    # the quick table's is the one sleep left.
    admin.clock.sleepers = 1
    last = admin.clock.advance_until(finished, "the round in play to finish")
    admin.clock.advance(5_000)  # two betting windows: a table left open would have opened one
    assert admin.call("GET", "/api/tables/standard").json()["round"]["id"] == last
    admin.as_role("operator", "POST", "/api/admin/tables/standard/open", json={"reason": "back"})
    admin.clock.sleepers = 2
    assert admin.open_round() > last


def test_a_change_applies_from_the_next_shoe(admin: Admin) -> None:
    table = admin.call("GET", "/api/tables/quick").json()
    shoe = table["shoe"]["id"]
    listed = admin.as_role("auditor", "GET", "/api/admin/tables").json()
    assert [t["id"] for t in listed["tables"]] == ["quick", "standard"]
    assert "ez" in listed["rulesets"]
    change = {
        "reason": "slower, face down, lower tie maximum",
        "betting_ms": 1_000,
        "dealing": "face-down",
        "limits": {"tie": {"min_stake": 100, "max_stake": 5_000}},
    }
    answer = admin.as_role("operator", "PUT", "/api/admin/tables/quick/next-shoe", json=change)
    assert answer.status_code == 200, answer.text
    pending = answer.json()["pending"]
    assert pending["settings"] == {"betting_ms": 1_000, "dealing": "face-down"}
    assert pending["limits"]["tie"] == {"min_stake": 100, "max_stake": 5_000}
    # The shoe in play goes on as it was.
    assert admin.call("GET", "/api/tables/quick").json()["settings"]["betting_ms"] == 2000

    def next_shoe() -> dict[str, Any] | None:
        now = admin.call("GET", "/api/tables/quick").json()
        return now if now["shoe"] and now["shoe"]["id"] != shoe else None

    after = admin.clock.advance_until(next_shoe, "the quick table's next shoe")
    assert after["settings"]["betting_ms"] == 1_000
    assert after["settings"]["dealing"] == "face-down"
    assert after["bets"]["tie"]["max_stake"] == 5_000
    assert admin.as_role("auditor", "GET", "/api/admin/tables/quick").json()["pending"] is None


def test_a_new_shoe_starts_after_the_round_in_play(admin: Admin) -> None:
    round_id = admin.open_round()
    shoe = admin.call("GET", "/api/tables/standard").json()["shoe"]["id"]
    asked = admin.as_role(
        "operator", "POST", "/api/admin/tables/standard/new-shoe", json={"reason": "cards worn"}
    )
    assert asked.status_code == 200, asked.text
    assert asked.json()["pending"] == {"new_shoe": True}
    # The round in play finishes in the shoe it opened in.
    assert admin.wait_final(round_id)["shoe_id"] == shoe

    def next_shoe() -> dict[str, Any] | None:
        now = admin.call("GET", "/api/tables/standard").json()
        return now if now["shoe"] and now["shoe"]["id"] != shoe else None

    admin.clock.advance_until(next_shoe, "the standard table's new shoe")
    ended = admin.call("GET", f"/api/shoes/{shoe}").json()
    assert ended["status"] == "ended"
    assert hashlib.sha256(bytes.fromhex(ended["server_seed"])).hexdigest() == ended["commitment"]
    rounds = admin.as_role(
        "auditor", "GET", "/api/admin/rounds", params={"table_id": "standard", "limit": 200}
    ).json()["rounds"]
    assert max(r["id"] for r in rounds if r["shoe_id"] == shoe) == round_id
    # The short shoe's record is complete: anyone can check its cards against its seeds.
    report = verify_record(admin.call("GET", f"/api/shoes/{shoe}/record").json())
    dealt = [r for r in rounds if r["shoe_id"] == shoe and r["phase"] == "settled"]
    assert report.ok and report.revealed and report.coups == len(dealt) > 0
    # Done: nothing waits any more, and the next shoe is not ended in its turn.
    assert admin.as_role("auditor", "GET", "/api/admin/tables/standard").json()["pending"] is None
    following = admin.open_round()
    assert admin.wait_final(following)["shoe_id"] == next_shoe()["shoe"]["id"]  # type: ignore[index]
    record = next(r for r in reversed(admin.audit()) if r["action"] == "table_new_shoe")
    assert record["actor"] == "staff:staff-operator"
    assert f'"shoe":"{shoe}"' in record["details"] and '"reason":"cards worn"' in record["details"]


def test_a_locked_or_closed_player_cannot_log_in(admin: Admin) -> None:
    password = "Correct-Horse-9"
    created = admin.call("POST", "/api/accounts", json={"username": "lockme", "password": password})
    player = created.json()["id"]
    login = {"username": "lockme", "password": password}
    token = admin.call("POST", "/api/sessions", json=login).json()["token"]
    locked = admin.as_role(
        "operator", "POST", f"/api/admin/players/{player}/lock", json={"reason": "fraud check"}
    )
    assert locked.json()["status"] == "locked"
    assert admin.call("GET", "/api/me", token).status_code == 401  # its session ended
    refused = admin.call("POST", "/api/sessions", json=login)
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "account_locked")
    admin.as_role(
        "operator", "POST", f"/api/admin/players/{player}/unlock", json={"reason": "cleared"}
    )
    assert admin.call("POST", "/api/sessions", json=login).status_code == 201
    admin.as_role(
        "admin", "POST", f"/api/admin/players/{player}/close", json={"reason": "asked to"}
    )
    refused = admin.call("POST", "/api/sessions", json=login)
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "account_closed")
    reopen = admin.as_role(
        "admin", "POST", f"/api/admin/players/{player}/unlock", json={"reason": "x"}
    )
    assert (reopen.status_code, reopen.json()["error"]["code"]) == (409, "player_closed")
    found = admin.as_role("auditor", "GET", "/api/admin/players", params={"q": "lockm"}).json()
    assert [(p["id"], p["status"]) for p in found["players"]] == [(player, "closed")]


def test_an_operator_limit_caps_the_players_own(admin: Admin) -> None:
    player, token = admin.guest()

    def set_own(amount: int | None) -> tuple[int, str | None]:
        body = {"kind": "loss", "period": "24h", "amount": amount}
        response = admin.call("PUT", "/api/me/limits", token, json=body)
        return response.status_code, response.json().get("error", {}).get("code")

    assert set_own(50_000) == (200, None)
    capped = admin.as_role(
        "operator",
        "PUT",
        f"/api/admin/players/{player}/operator-limits",
        json={"reason": "affordability", "kind": "loss", "period": "24h", "amount": 10_000},
    )
    assert capped.status_code == 200, capped.text
    assert capped.json()["limits"] == [{"kind": "loss", "period": "24h", "amount": 10_000}]
    assert set_own(20_000) == (422, "above_operator_limit")
    assert set_own(None) == (422, "above_operator_limit")
    assert set_own(5_000) == (200, None)
    detail = admin.as_role("auditor", "GET", f"/api/admin/players/{player}").json()
    assert detail["caps"] == [{"kind": "loss", "period": "24h", "amount": 10_000}]
    assert detail["limits"] == [{"kind": "loss", "period": "24h", "amount": 5_000}]


def test_the_command_creates_staff_and_refuses_bad_input_in_one_line(admin: Admin) -> None:
    command = ["admin", "create-user", "--db", admin.db_url, "--password-stdin"]
    made = CliRunner().invoke(
        app, [*command, "Pit.Boss", "--role", "operator"], input="Long-Enough-Pass-7\n"
    )
    assert made.exit_code == 0, made.output
    assert "created operator 'pit.boss'" in made.output
    assert admin.login("pit.boss", "Long-Enough-Pass-7")["role"] == "operator"
    record = admin.audit()[-2]  # the creation, then the login
    assert (record["actor"], record["action"]) == ("system:cli", "staff_create")
    for args, error in [
        (
            ["someone", "--role", "king"],
            "--role must be one of operator, auditor, admin, dealer, not 'king'",
        ),
        (["pit.boss", "--role", "auditor"], "the staff username 'pit.boss' is taken"),
    ]:
        bad = CliRunner().invoke(app, [*command, *args], input="Long-Enough-Pass-7\n")
        assert bad.exit_code == 2
        assert bad.output.strip().splitlines()[-1] == f"baccarat: error: {error}"


def test_a_change_keeps_the_servers_one_currency() -> None:
    rupiah = parse_ruleset("name = 'rp'\ncurrency = 'IDR'\nextends = 'standard'")
    refused = next_ruleset(rupiah, None, TableChange(reason="r", ruleset="standard"))
    assert isinstance(refused, Refusal) and refused.code is RefusalCode.INVALID_REQUEST
    assert "counts in USD" in refused.message
    lowered = TableChange(reason="r", limits={"tie": StakeLimits(min_stake=100, max_stake=900)})
    kept = next_ruleset(rupiah, None, lowered)
    assert isinstance(kept, RuleSet)
    assert (kept.currency, kept.bet("tie").max_stake) == ("IDR", 900)


def test_a_table_the_server_deals_has_no_studio_procedures_to_change(admin: Admin) -> None:
    for body in ({"exposed": "dummy"}, {"before_time": "burn"}, {"early_close": False}):
        answer = admin.as_role(
            "operator", "PUT", "/api/admin/tables/standard/next-shoe", json={"reason": "x", **body}
        )
        assert answer.status_code == 422, answer.text
        assert "no studio procedures" in answer.json()["error"]["message"]
    pending = admin.as_role("operator", "GET", "/api/admin/tables/standard").json()
    assert not (pending.get("next_shoe") or {}).get("settings")
