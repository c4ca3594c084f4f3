"""``DeviceClient`` against a real HTTP server of the contract (``studio_support.FakeStudio``):
answers, retries with the same ``scan_id``, refusals never retried."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from serving import free_port
from studio_support import DEVICE_TOKEN, TABLE, FakeStudio, running_studio

from baccarat.cards import Card
from baccarat.shoedevice.client import (
    Answer,
    Backoff,
    DeviceClient,
    RefusalError,
    Retry,
    StoppedError,
)

pytest_plugins = ("studio_support",)

AH, KD = Card.parse("Ah"), Card.parse("Kd")


def fast_wait(waits: list[float]) -> Callable[[float], bool]:
    """A pause that only records its length: a test waits for nothing."""

    def wait(seconds: float) -> bool:
        waits.append(seconds)
        return False

    return wait


def started(studio: FakeStudio) -> FakeStudio:
    studio.betting_polls = studio.result_polls = 0
    studio.start_foreign_shoe()
    return studio


def client(studio: FakeStudio, **options: object) -> DeviceClient:
    return DeviceClient(studio.url, TABLE, DEVICE_TOKEN, **options)  # type: ignore[arg-type]


def test_a_read_is_answered_with_where_the_card_went(studio: FakeStudio) -> None:
    started(studio)
    with client(studio) as device:
        answer = device.push(Card.parse("5d"), "shoe7:000001")  # the burn: 5 more cards
        assert answer == Answer(
            scan_id="shoe7:000001",
            card=Card.parse("5d"),
            position="burn_1",
            round_id=None,
            shoe_id="shoe-1",
            seq=1,
            repeat=False,
            next="burn",
        )
        for n in range(2, 7):
            answer = device.push(KD, f"shoe7:{n:06d}")
        assert (answer.position, answer.next) == ("burn_6", "player_1")
        answer = device.push(AH, "shoe7:000007")
        assert (answer.position, answer.seq, answer.round_id, answer.next) == (
            "player_1",
            7,
            1,
            "banker_1",
        )
    assert [a.status for a in studio.attempts] == [200] * 7


def test_a_server_error_is_retried_with_the_same_scan_id(studio: FakeStudio) -> None:
    started(studio)
    studio.faults["shoe7:1"] = ["500", "500"]
    retries: list[Retry] = []
    waits: list[float] = []
    with client(studio, wait=fast_wait(waits), on_retry=retries.append) as device:
        answer = device.push(AH, "shoe7:1")
    assert [(a.scan_id, a.card, a.status) for a in studio.attempts] == [
        ("shoe7:1", "Ah", 500),
        ("shoe7:1", "Ah", 500),
        ("shoe7:1", "Ah", 200),
    ]
    assert (answer.position, answer.repeat) == ("burn_1", False)
    assert [(r.scan_id, r.failures, r.why) for r in retries] == [
        ("shoe7:1", 1, "the server answered 500"),
        ("shoe7:1", 2, "the server answered 500"),
    ]
    assert waits == [0.25, 0.5]


def test_a_timeout_is_retried_and_the_server_answers_its_first_answer(
    studio: FakeStudio,
) -> None:
    started(studio)
    studio.faults["shoe7:1"] = ["timeout"]  # stored, then answered after the device gave up
    studio.answer_delay = 1.0
    retries: list[Retry] = []
    with client(studio, timeout=0.3, wait=fast_wait([]), on_retry=retries.append) as device:
        answer = device.push(AH, "shoe7:1")
    assert [r.why for r in retries] == ["no answer in time"]
    assert [(a.scan_id, a.status) for a in studio.attempts] == [("shoe7:1", 200)] * 2
    # The retry changed nothing: one card stored, the first answer given again.
    assert [(p.card, p.position) for p in studio.placed] == [(AH, "burn_1")]
    assert (answer.scan_id, answer.position, answer.seq, answer.repeat) == (
        "shoe7:1",
        "burn_1",
        1,
        True,
    )


def test_an_answer_about_another_read_is_not_taken(studio: FakeStudio) -> None:
    started(studio)
    studio.faults["shoe7:1"] = ["other"]
    retries: list[Retry] = []
    with client(studio, wait=fast_wait([]), on_retry=retries.append) as device:
        answer = device.push(AH, "shoe7:1")
    assert [r.why for r in retries] == ["an answer for another read (someone-else:1)"]
    assert (answer.scan_id, answer.repeat) == ("shoe7:1", True)


def test_rate_limited_waits_as_long_as_the_server_asks(studio: FakeStudio) -> None:
    started(studio)
    studio.faults["shoe7:1"] = ["429"]
    waits: list[float] = []
    with client(studio, wait=fast_wait(waits)) as device:
        assert device.push(AH, "shoe7:1").position == "burn_1"
    assert waits == [1.0]  # Retry-After: 1, more than the first backoff


def test_a_server_not_up_yet_is_waited_for() -> None:
    port = free_port()
    studio = started(FakeStudio())
    tries: list[Retry] = []
    answered: list[Answer] = []
    up = threading.Event()

    def wait(seconds: float) -> bool:
        if len(tries) >= 2:
            up.set()  # the server comes up after two refused connections
        return False

    device = DeviceClient(
        f"http://127.0.0.1:{port}",
        TABLE,
        DEVICE_TOKEN,
        backoff=Backoff(first=0.05, cap=0.2),
        wait=lambda s: wait(s) or threading.Event().wait(s),
        on_retry=tries.append,
    )
    pushing = threading.Thread(target=lambda: answered.append(device.push(AH, "shoe7:1")))
    pushing.start()
    assert up.wait(10)
    with running_studio(studio, port=port):
        pushing.join(10)
    device.close()
    assert not pushing.is_alive()
    assert answered[0].position == "burn_1"
    assert all(r.why.startswith("cannot reach the server (ConnectError") for r in tries)
    assert {a.scan_id for a in studio.attempts} == {"shoe7:1"}


@pytest.mark.parametrize(
    ("setup", "status", "code", "halted", "fatal"),
    [
        (lambda s: s.halt(), 409, "table_halted", True, False),
        (lambda s: s.end_shoe(), 409, "no_shoe", False, False),
    ],
)
def test_a_refusal_is_not_retried(
    studio: FakeStudio,
    setup: Callable[[FakeStudio], None],
    status: int,
    code: str,
    halted: bool,
    fatal: bool,
) -> None:
    started(studio)
    setup(studio)
    waits: list[float] = []
    with client(studio, wait=fast_wait(waits)) as device, pytest.raises(RefusalError) as refused:
        device.push(AH, "shoe7:1")
    assert (refused.value.status, refused.value.code) == (status, code)
    assert (refused.value.halted, refused.value.fatal) == (halted, fatal)
    assert len(studio.attempts) == 1
    assert waits == []
    assert studio.placed == []


def test_an_impossible_read_halts_the_table_and_is_refused(studio: FakeStudio) -> None:
    started(studio)
    with client(studio) as device:
        device.push(AH, "shoe7:1")
        with pytest.raises(RefusalError) as refused:
            device.push(KD, "shoe7:1")  # read before, with another card
    assert refused.value.halted
    assert str(refused.value) == "409 table_halted: an impossible read: the table is halted"


def test_a_wrong_token_or_table_is_fatal(studio: FakeStudio) -> None:
    started(studio)
    wrong_token = DeviceClient(studio.url, TABLE, "not-the-token")
    with wrong_token, pytest.raises(RefusalError) as refused:
        wrong_token.push(AH, "shoe7:1")
    assert (refused.value.status, refused.value.code, refused.value.fatal) == (
        401,
        "unauthorized",
        True,
    )
    other_table = DeviceClient(studio.url, "baccarat-2", DEVICE_TOKEN)
    with other_table, pytest.raises(RefusalError) as refused:
        other_table.push(AH, "shoe7:1")
    assert (refused.value.status, refused.value.fatal) == (404, True)


def test_being_told_to_stop_gives_the_read_up(studio: FakeStudio) -> None:
    started(studio)
    studio.faults["shoe7:1"] = ["500"] * 10
    stop = threading.Event()
    stop.set()
    with client(studio, wait=stop.wait) as device, pytest.raises(StoppedError, match="shoe7:1"):
        device.push(AH, "shoe7:1")
    assert len(studio.attempts) == 1


def test_the_waits_grow_to_a_cap(studio: FakeStudio) -> None:
    started(studio)
    studio.faults["shoe7:1"] = ["500"] * 8
    waits: list[float] = []
    with client(studio, wait=fast_wait(waits)) as device:
        device.push(AH, "shoe7:1")
    assert waits == [0.25, 0.5, 1.0, 2.0, 4.0, 5.0, 5.0, 5.0]


@pytest.mark.parametrize(
    "url", ["ftp://host", "host:8000", "http://", "http://host/?a=1", "http://host:99999"]
)
def test_a_bad_url_is_refused_at_once(url: str) -> None:
    with pytest.raises(ValueError, match="the server's URL"):
        DeviceClient(url, TABLE, DEVICE_TOKEN)
