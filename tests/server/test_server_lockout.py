"""No lock-out of a known user, on a real ``baccarat serve`` (``server/devices.py``,
``server/guard.py``, ``server/hashing.py``): guesses from elsewhere fill a username's rate
limits, but its owner's device, which sends the device token of its last login, still logs in,
players and staff alike; an IPv6 /64 counts as one address; and a flood of wrong passwords from
rotating addresses does not hold up a known device's login."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from serving import TLS, ServerProcess, create_staff

PASSWORD = "Owner-Pass-1234"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("lockout")
    db_url = f"sqlite:///{folder / 'lockout.db'}"
    create_staff(db_url, "pitboss", "operator", PASSWORD)
    # The test speaks for many addresses through X-Forwarded-For, as a proxy would.
    process = ServerProcess(
        db_url,
        folder,
        virtual_clock=True,
        options=["--forwarded-allow-ips", "127.0.0.1", "--rate-limit-delay", "0"],
    )
    process.start()
    yield process
    process.stop()


def post(server: ServerProcess, path: str, body: dict[str, Any], address: str) -> httpx.Response:
    with server.client() as client:
        return client.post(path, json=body, headers={"X-Forwarded-For": address})


def _dev(login: httpx.Response) -> dict[str, str]:
    return {"device": login.json()["device"]}


def guess(server: ServerProcess, path: str, username: str, addresses: list[str]) -> list[int]:
    """Twelve wrong passwords for ``username``, from each of ``addresses`` in turn."""
    body = {"username": username, "password": "wrong-guess-0"}
    return [post(server, path, body, addresses[n % len(addresses)]).status_code for n in range(12)]


@pytest.mark.parametrize(
    ("path", "username"), [("/api/sessions", "ivy"), ("/api/admin/login", "pitboss")]
)
def test_guesses_from_elsewhere_do_not_lock_out_the_owners_device(
    server: ServerProcess, path: str, username: str
) -> None:
    home = "198.51.100.7"
    if path == "/api/sessions":
        registered = post(server, "/api/accounts", {"username": "ivy", "password": PASSWORD}, home)
        assert registered.status_code == 201, registered.text
    first = post(server, path, {"username": username, "password": PASSWORD}, home)
    assert first.status_code == 201, first.text
    device = first.json()["device"]

    answers = guess(server, path, username, ["203.0.113.5", "203.0.113.6"])
    assert answers[0] == 401 and answers[-1] == 429  # the username's limits are full
    # Without its device token even the right password waits, as any client would ...
    plain = post(server, path, {"username": username, "password": PASSWORD}, home)
    assert plain.status_code == 429
    # ... a token of another username is no token ...
    other = post(server, path, {"username": username, "password": PASSWORD, "device": "x"}, home)
    assert other.status_code == 422
    # ... and the owner's device logs in at once.
    started = time.monotonic()
    again = post(server, path, {"username": username, "password": PASSWORD, "device": device}, home)
    assert again.status_code == 201, again.text
    assert time.monotonic() - started < 1.0
    assert again.json()["device"] != device  # a fresh one for the next login
    if path == "/api/sessions":  # the player is told of the guesses, once
        assert again.json()["failed_logins"] == answers.count(401)
        third = post(
            server, path, {"username": username, "password": PASSWORD, **_dev(again)}, home
        )
        assert third.json()["failed_logins"] == 0
    # A wrong password from the known device is still a wrong password.
    wrong = {"username": username, "password": "wrong-guess-1", "device": again.json()["device"]}
    assert post(server, path, wrong, home).status_code == 401


def test_an_ipv6_64_is_one_address(server: ServerProcess) -> None:
    statuses = [
        post(
            server,
            "/api/sessions",
            {"username": f"nobody-{n}", "password": "wrong-guess-0"},
            f"2001:db8:7:7::{n + 1:x}",
        ).status_code
        for n in range(31)
    ]
    # 30 a minute per address: the 31st from the same /64 is refused, whatever its last bits.
    assert statuses[:30] == [401] * 30 and statuses[30] == 429
    elsewhere = post(
        server,
        "/api/sessions",
        {"username": "nobody-x", "password": "wrong-guess-0"},
        "2001:db8:7:8::1",
    )
    assert elsewhere.status_code == 401


def test_a_flood_of_wrong_passwords_does_not_hold_up_a_known_device(server: ServerProcess) -> None:
    home = "198.51.100.9"
    registered = post(server, "/api/accounts", {"username": "una", "password": PASSWORD}, home)
    assert registered.status_code == 201, registered.text
    device = post(server, "/api/sessions", {"username": "una", "password": PASSWORD}, home).json()[
        "device"
    ]

    async def flood(stop: asyncio.Event) -> int:
        sent = 0
        async with httpx.AsyncClient(base_url=server.url, timeout=30, verify=TLS) as client:

            async def attacker(n: int) -> None:
                nonlocal sent
                while not stop.is_set():
                    sent += 1
                    address = f"10.{n}.{sent % 250}.{sent % 199 + 1}"
                    await client.post(
                        "/api/sessions",
                        json={"username": f"victim-{n}-{sent}", "password": "wrong-guess-0"},
                        headers={"X-Forwarded-For": address},
                    )

            tasks = [asyncio.create_task(attacker(n)) for n in range(90)]
            await stop.wait()
            await asyncio.gather(*tasks)
        return sent

    async def scenario() -> tuple[float, int, int]:
        stop = asyncio.Event()
        flooding = asyncio.create_task(flood(stop))
        await asyncio.sleep(2.0)  # the pool is full of guesses by now
        started = time.monotonic()
        answer = await asyncio.to_thread(
            post,
            server,
            "/api/sessions",
            {"username": "una", "password": PASSWORD, "device": device},
            home,
        )
        took = time.monotonic() - started
        stop.set()
        return took, answer.status_code, await flooding

    took, status, sent = asyncio.run(scenario())
    assert status == 201
    assert sent > 90  # the flood was on
    assert took < 1.0, f"the known device waited {took:.2f} s"
