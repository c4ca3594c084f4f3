"""The signed launch and the trade of its link, through the app: what an operator's launch
makes, the session it opens, the wallet's balance on the page's reads, and every refusal
(a 4xx with the one error body) leaving every row as it was."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from launch_support import (
    OPERATOR,
    LaunchApp,
    counts,
    db_url_fixture,
    launch_app,
    launch_body,
)
from sqlalchemy import select

from baccarat.store.keyfile import KeySource
from baccarat.store.launches import LAUNCH_TTL_MS
from baccarat.store.operators import add_operator, disable_operator, rotate_secret
from baccarat.store.player_status import PlayerStatus, save_status
from baccarat.store.schema import launch_tokens, operator_players
from baccarat.store.seal import SeedVault

__all__ = ["db_url_fixture"]

WINDOW_MS = 300_000


@pytest.fixture(name="app")
def app_fixture(db_url: str) -> Iterator[LaunchApp]:
    with launch_app(db_url, balances={"ext-1": 125_000}) as running:
        yield running


def _refused(
    app: LaunchApp, response: object, status: int, code: str, before: dict[str, int]
) -> None:
    """A refusal: its status, the one error body with its code, and not a row changed."""
    import httpx

    assert isinstance(response, httpx.Response)
    assert response.status_code == status, response.text
    assert response.json()["error"]["code"] == code, response.text
    assert counts(app.database()) == before


def test_a_launch_seats_the_player_and_its_link_opens_a_session(app: LaunchApp) -> None:
    before = counts(app.database())
    launched = app.launch(launch_body(table_id="standard"))
    token = app.token_of(launched)
    assert launched.json()["launch_url"].startswith("http://testserver/launch?token=")
    after = counts(app.database())
    assert after == {
        **before,
        "players": before["players"] + 1,
        "operator_players": 1,
        "launch_tokens": 1,
        "launch_requests": 1,
    }
    with app.database().read() as c:
        stored = c.execute(select(launch_tokens)).one()
    assert token not in stored.token_hash and stored.expires_at - stored.created_at == LAUNCH_TTL_MS

    traded = app.trade(token)
    assert traded.status_code == 201, traded.text
    seat = traded.json()
    assert seat["language"] == "id" and seat["table_id"] == "standard"
    assert seat["operator"] == f"Casino {OPERATOR}" and seat["username"] == "Budi"
    assert seat["balance"] == 125_000 and seat["currency"] == "USD"
    assert seat["previous_login_at"] is None and seat["session"]["started_at"]
    session = seat["token"]
    me = app.read("/api/me", session)
    assert me.status_code == 200, me.text
    assert me.json() == {
        "id": seat["player_id"],
        "balance": 125_000,
        "demo": False,
        "operator": f"Casino {OPERATOR}",
    }
    # The wallet was asked for the operator's own id of its player, in its currency.
    assert app.wallet.calls[-1] == {"player_id": "ext-1", "currency": "USD"}
    app.wallet.balances["ext-1"] = 99_000
    assert app.read("/api/me", session).json()["balance"] == 99_000
    # Their money is the operator's: the cashier refuses them.
    for path in ("/api/me/deposits", "/api/me/withdrawals"):
        cashier = app.client.post(
            path, json={"amount": 100}, headers={"Authorization": f"Bearer {session}"}
        )
        assert cashier.status_code == 403, cashier.text
        assert cashier.json()["error"]["code"] == "operator_player"


def test_a_wallet_that_does_not_answer(app: LaunchApp) -> None:
    token = app.token_of(app.launch())
    app.wallet.down = True
    traded = app.trade(token)
    assert traded.status_code == 201 and traded.json()["balance"] is None
    me = app.read("/api/me", traded.json()["token"])
    assert me.status_code == 503 and me.json()["error"]["code"] == "wallet_unavailable"
    app.wallet.down = False
    assert app.read("/api/me", traded.json()["token"]).json()["balance"] == 125_000


def test_a_second_launch_finds_the_player_and_updates_it(app: LaunchApp) -> None:
    first = app.trade(app.token_of(app.launch())).json()
    second = app.trade(
        app.token_of(app.launch(launch_body(display_name="Budi S.", language="en")))
    ).json()
    assert first["player_id"] == second["player_id"]
    assert (second["username"], second["language"], second["table_id"]) == ("Budi S.", "en", None)
    with app.database().read() as c:
        row = c.execute(select(operator_players)).one()
    assert (row.display_name, row.language, row.external_id) == ("Budi S.", "en", "ext-1")
    other = app.trade(app.token_of(app.launch(launch_body(player_id="ext-2")))).json()
    assert other["player_id"] != first["player_id"]


def test_a_wrong_signature_is_refused(app: LaunchApp) -> None:
    before = counts(app.database())
    _refused(app, app.launch(secret=b"x" * 32), 401, "invalid_signature", before)
    raw, headers = app.request()
    _refused(app, app.send(raw + b" ", headers), 401, "invalid_signature", before)
    for name in ("X-Signature", "X-Timestamp", "X-Operator-Id"):
        _refused(
            app,
            app.send(raw, {k: v for k, v in headers.items() if k != name}),
            401,
            "invalid_signature",
            before,
        )
    _refused(
        app, app.send(raw, {**headers, "X-Timestamp": "soon"}), 401, "invalid_signature", before
    )
    _refused(
        app, app.send(raw, {**headers, "X-Signature": "AB" * 32}), 401, "invalid_signature", before
    )
    # The same request sent to another operator's path: its id is not the signed one.
    _refused(app, app.send(raw, headers, "casino-2"), 401, "invalid_signature", before)
    # Sent whole, the request is good: none of the above was a replay of it.
    assert app.send(raw, headers).status_code == 201


def test_another_operators_secret_does_not_sign_for_this_one(app: LaunchApp) -> None:
    vault = SeedVault(KeySource(None).load)
    with app.database().write() as c:
        other = bytes.fromhex(
            add_operator(
                c,
                vault,
                operator_id="casino-2",
                name="Other",
                wallet_url="http://127.0.0.1:9",
                currency="USD",
                timeout_ms=2000,
                at=app.now_ms(),
            )
        )
    before = counts(app.database())
    _refused(app, app.launch(secret=other), 401, "invalid_signature", before)
    # Signed by casino-2 for casino-2's own path: good.
    raw, headers = app.request(secret=other, operator_id="casino-2")
    assert app.send(raw, headers, "casino-2").status_code == 201


def test_the_previous_secret_works_within_its_grace_only(app: LaunchApp) -> None:
    vault = SeedVault(KeySource(None).load)
    old = app.secret
    with app.database().write() as c:
        new = bytes.fromhex(rotate_secret(c, vault, OPERATOR, app.now_ms(), 3_600_000))
    assert app.launch(secret=old).status_code == 201
    assert app.launch(launch_body(player_id="ext-2"), secret=new).status_code == 201
    app.advance(3_600_000)
    before = counts(app.database())
    _refused(
        app,
        app.launch(launch_body(player_id="ext-3"), secret=old),
        401,
        "invalid_signature",
        before,
    )
    assert app.launch(launch_body(player_id="ext-3"), secret=new).status_code == 201


def test_a_timestamp_outside_the_window_is_refused_either_side(app: LaunchApp) -> None:
    before = counts(app.database())
    for offset in (-WINDOW_MS - 1, WINDOW_MS + 1, -10 * WINDOW_MS, 10 * WINDOW_MS):
        response = app.launch(at=app.now_ms() + offset)
        _refused(app, response, 401, "invalid_signature", before)
        assert "300 s" in response.json()["error"]["message"]
    # The edges are in.
    for offset in (-WINDOW_MS, WINDOW_MS):
        assert app.launch(at=app.now_ms() + offset).status_code == 201


def test_a_replay_is_refused(app: LaunchApp) -> None:
    raw, headers = app.request()
    assert app.send(raw, headers).status_code == 201
    before = counts(app.database())
    _refused(app, app.send(raw, headers), 409, "replayed_request", before)
    # Still refused at the end of the window; after it, the clock refuses it.
    app.advance(WINDOW_MS)
    _refused(app, app.send(raw, headers), 409, "replayed_request", before)
    app.advance(1)
    _refused(app, app.send(raw, headers), 401, "invalid_signature", before)


def test_copies_sent_at_once_launch_once(app: LaunchApp) -> None:
    raw, headers = app.request()
    with ThreadPoolExecutor(4) as pool:
        statuses = sorted(pool.map(lambda _: app.send(raw, headers).status_code, range(4)))
    assert statuses == [201, 409, 409, 409]
    assert counts(app.database())["launch_tokens"] == 1


BAD_BODIES: list[tuple[dict[str, object], int, str]] = [
    ({"currency": "IDR"}, 422, "invalid_request"),  # not the operator's
    ({"currency": "usd"}, 422, "invalid_request"),
    ({"language": "fr"}, 422, "invalid_request"),
    ({"table_id": "nowhere"}, 404, "table_not_found"),
    ({"player_id": ""}, 422, "invalid_request"),
    ({"display_name": "a\u0000b"}, 422, "invalid_request"),
    ({"player_id": "x" * 101}, 422, "invalid_request"),
    ({"player_id": 7}, 422, "invalid_request"),
    ({"extra": 1}, 422, "invalid_request"),
    ({"currency": None}, 422, "invalid_request"),
]


def test_a_bad_body_is_refused(app: LaunchApp) -> None:
    before = counts(app.database())
    for changes, status, code in BAD_BODIES:
        _refused(app, app.launch(launch_body(**changes)), status, code, before)
    for raw in (b"\xff{not json", b"[]", b"", b"null"):
        _refused(app, app.launch(raw), 422, "invalid_request", before)


def test_a_currency_no_table_plays_is_refused(app: LaunchApp) -> None:
    vault = SeedVault(KeySource(None).load)
    with app.database().write() as c:
        secret = bytes.fromhex(
            add_operator(
                c,
                vault,
                operator_id="rupiah",
                name="Rupiah",
                wallet_url="http://127.0.0.1:9",
                currency="IDR",
                timeout_ms=2000,
                at=app.now_ms(),
            )
        )
    before = counts(app.database())
    raw, headers = app.request(launch_body(currency="IDR"), secret=secret, operator_id="rupiah")
    response = app.send(raw, headers, "rupiah")
    _refused(app, response, 422, "invalid_request", before)
    assert "IDR" in response.json()["error"]["message"]


def test_a_disabled_operator_launches_nobody(app: LaunchApp) -> None:
    session = app.trade(app.token_of(app.launch())).json()["token"]
    waiting = app.token_of(app.launch(launch_body(player_id="ext-2")))
    with app.database().write() as c:
        disable_operator(c, OPERATOR, app.now_ms())
    before = counts(app.database())
    _refused(app, app.launch(launch_body(player_id="ext-3")), 401, "invalid_signature", before)
    _refused(app, app.trade(waiting), 401, "launch_expired", before)
    assert app.read("/api/me", session).status_code == 401


def test_a_link_works_once_and_within_its_time(app: LaunchApp) -> None:
    token = app.token_of(app.launch())
    assert app.trade(token).status_code == 201
    before = counts(app.database())
    _refused(app, app.trade(token), 409, "launch_used", before)
    late = app.token_of(app.launch(launch_body(player_id="ext-2")))
    app.advance(LAUNCH_TTL_MS)
    before = counts(app.database())
    _refused(app, app.trade(late), 401, "launch_expired", before)
    _refused(app, app.trade("A" * 43), 401, "launch_expired", before)
    _refused(app, app.trade("short"), 422, "invalid_request", before)


def test_a_locked_player_is_not_launched(app: LaunchApp) -> None:
    seat = app.trade(app.token_of(app.launch())).json()
    # Another request (the same one at the same moment would be a replay of the first).
    waiting = app.token_of(app.launch(launch_body(display_name="Budi 2")))
    with app.database().write() as c:
        save_status(c, seat["player_id"], PlayerStatus(locked_at=app.now_ms()), app.now_ms())
    before = counts(app.database())
    _refused(app, app.launch(launch_body(display_name="Budi 3")), 403, "account_locked", before)
    _refused(app, app.trade(waiting), 403, "account_locked", before)
    with app.database().read() as c:
        unused = c.execute(select(launch_tokens).where(launch_tokens.c.used_at.is_(None))).all()
    assert len(unused) == 1  # the refused trade left its token as it was
