"""The system under a Jepsen-style test of provider mode, and the client that records its history.

A ``Casino`` is real processes: ``baccarat serve`` nodes (``serving.ServerProcess``: one on a
virtual clock, or a cluster's on the real one) and one operator's reference wallet
(``wallet_process``). The operator is added to the game's database as ``baccarat operator add``
adds it; its players are made at the wallet and launched at the game through the wallet's
signed launch (``POST /admin/launch``, then the page's ``POST /api/launch``). Players then bet
through the API, each request with an Idempotency-Key of its own; every request and what came
back (an answer, or nothing: its node was killed) is an ``Attempt`` of the ``history``, which
``jepsen_checks`` holds against both sides' books at the end (``jepsen_nemesis`` makes the
trouble in between).
"""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import httpx
from serving import TLS, ServerProcess
from wallet_process import WalletProcess

from baccarat.store import Database, db_now, upgrade
from baccarat.store.keyfile import KeySource
from baccarat.store.operators import add_operator
from baccarat.store.seal import SeedVault

__all__ = [
    "OPERATOR",
    "TABLE",
    "TRY_AGAIN",
    "Attempt",
    "Casino",
    "Seat",
    "add_jepsen_operator",
]

OPERATOR = "jepsen"
TABLE = "standard"
SPOTS = ("player", "banker", "tie", "player_pair", "banker_pair")
CHIPS = (100, 500, 1_000, 2_500)
#: The answer that asks the client to send the same request again.
TRY_AGAIN = "database_unavailable"
#: No answer (a killed node: the client retries), or one that is not JSON (the checks flag it).
_NO_ANSWER = (httpx.TransportError, ValueError)


def add_jepsen_operator(db_url: str, wallet_url: str, timeout_ms: int) -> bytes:
    """Add the operator to the game's database (migrated here); its secret, sealed with the
    seed key the servers are given (``BACCARAT_SEED_KEY``)."""
    database = Database(db_url)
    try:
        upgrade(database)
        with database.write() as c:
            secret = add_operator(
                c,
                SeedVault(KeySource(None).load),
                operator_id=OPERATOR,
                name="Jepsen Casino",
                wallet_url=wallet_url,
                currency="USD",
                timeout_ms=timeout_ms,
                at=db_now(c),
            )
    finally:
        database.dispose()
    return bytes.fromhex(secret)


@dataclass(frozen=True)
class Seat:
    """An operator's player: the operator's id for them, ours, their session, their first
    balance at the wallet, and the node they play through."""

    external_id: str
    player_id: str
    token: str
    start_balance: int
    node: int = 0


@dataclass
class Attempt:
    """One request of a player and what came back (``status`` ``None``: no answer at all)."""

    external_id: str
    player_id: str
    action: str
    round_id: int
    key: str
    bets: dict[str, int]
    status: int | None = None
    body: dict[str, Any] | None = None
    error: str | None = None
    #: How many times this request was sent, this one included.
    tries: int = 1

    @property
    def code(self) -> str | None:
        found = (self.body or {}).get("error")
        return found.get("code") if isinstance(found, dict) else None

    def again(self) -> Attempt:
        """The same request (key and body) to send again."""
        return Attempt(
            self.external_id,
            self.player_id,
            self.action,
            self.round_id,
            self.key,
            self.bets,
            tries=self.tries + 1,
        )


@dataclass
class Casino:
    """The game's nodes, the operator's wallet, the players and their history."""

    nodes: list[ServerProcess]
    wallet: WalletProcess
    #: The game's database, read by the test (never written).
    database: Database
    #: The operator's wallet timeout (``operators.timeout_ms``).
    timeout_ms: int
    seats: list[Seat] = field(default_factory=list)
    history: list[Attempt] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _clients: dict[tuple[str, str], httpx.Client] = field(default_factory=dict)

    @property
    def server(self) -> ServerProcess:
        return self.nodes[0]

    def close(self) -> None:
        for client in self._clients.values():
            client.close()

    # -- players and their requests ----------------------------------------------------

    def seat(self, external_id: str, balance: int, node: int = 0) -> Seat:
        """Make the player at the wallet and launch them at the game, as the operator would."""
        self.wallet.player(external_id, balance)
        launched = self.wallet.launch(external_id, table_id=TABLE)
        assert launched.status_code == 201, launched.text
        token = httpx.URL(launched.json()["launch_url"]).params["token"]
        with self.nodes[node].client() as page:
            traded = page.post("/api/launch", json={"token": token})
        assert traded.status_code == 201, traded.text
        data = traded.json()
        assert data["balance"] == balance and data["operator"] == "Jepsen Casino", data
        seat = Seat(external_id, data["player_id"], data["token"], balance, node)
        self.seats.append(seat)
        return seat

    def _http(self, seat: Seat, node: ServerProcess) -> httpx.Client:
        """The player's client of the node as it runs now (kept alive between requests)."""
        with self._lock:
            client = self._clients.get((seat.external_id, node.url))
            if client is None:
                client = httpx.Client(base_url=node.url, timeout=30.0, verify=TLS)
                self._clients[seat.external_id, node.url] = client
            return client

    def send(self, attempt: Attempt, node: int | None = None) -> Attempt:
        """Send the attempt's request (through the player's node, or ``node``) and record
        what came back; a 503 ``database_unavailable`` ("try again") is sent again, as a
        client does, each answer recorded."""
        seat = next(s for s in self.seats if s.external_id == attempt.external_id)
        http = self._http(seat, self.nodes[seat.node if node is None else node])
        headers = {"Authorization": f"Bearer {seat.token}", "Idempotency-Key": attempt.key}
        path = f"/api/tables/{TABLE}/bets"
        try:
            if attempt.action == "undo_last":
                query = f"?round_id={attempt.round_id}&last=true"
                response = http.delete(path + query, headers=headers)
            else:
                suffix = "" if attempt.action == "place" else f"/{attempt.action}"
                body: dict[str, Any] = {"round_id": attempt.round_id}
                if attempt.action == "place":
                    body["bets"] = attempt.bets
                response = http.post(path + suffix, json=body, headers=headers)
            attempt.status = response.status_code
            attempt.body = response.json()
        except _NO_ANSWER as error:
            attempt.error = f"{type(error).__name__}: {error}"
        with self._lock:
            self.history.append(attempt)
        if attempt.code == TRY_AGAIN and attempt.tries < 5:
            time.sleep(0.1 * attempt.tries)  # a client's backoff, in real time
            return self.send(attempt.again(), node)
        return attempt

    def bets_of_round(self, rng: random.Random, round_id: int) -> list[Attempt]:
        """What each player asks this round: most place a chip or two, a few rebet, some sit
        the round out."""
        wanted = []
        for seat in self.seats:
            draw = rng.random()
            if draw < 0.15:
                continue
            action = "rebet" if draw > 0.93 else "place"
            spots = rng.sample(SPOTS[:3], rng.choice((1, 1, 2)))
            if rng.random() < 0.2:
                spots.append(rng.choice(SPOTS[3:]))
            bets = {spot: rng.choice(CHIPS) for spot in spots} if action == "place" else {}
            attempt = Attempt(seat.external_id, seat.player_id, action, round_id, _key(), bets)
            wanted.append(attempt)
        return wanted

    def play(self, attempts: Sequence[Attempt], pool: ThreadPoolExecutor) -> list[Attempt]:
        """Send the attempts at once (a thread each)."""
        return list(pool.map(self.send, attempts))

    def retry(self, attempt: Attempt, node: int | None = None) -> Attempt:
        """The same request again (its key and body), as a client does after no answer."""
        return self.send(attempt.again(), node)

    def undo_last(self, attempt: Attempt) -> Attempt:
        """Take back the player's last accepted request of the round (its debit is credited)."""
        undo = Attempt(
            attempt.external_id, attempt.player_id, "undo_last", attempt.round_id, _key(), {}
        )
        return self.send(undo)


def _key() -> str:
    return uuid.uuid4().hex
