"""The squeeze in a cluster: the squeezer watches through the node that does not deal the table;
their peel reaches a spectator on the dealing node, and their turn reaches the dealer (both
through the one command channel), which turns the card at once, long before its deadline."""

from __future__ import annotations

import json
import time
from typing import Any

from websockets.sync.client import connect

from .cluster_support import Cluster, bet, dealer_of, new_player, open_round

SQUEEZE_S = 60


def test_a_squeezer_on_the_other_node_peels_and_turns_for_the_dealing_node(
    cluster: Cluster,
) -> None:
    options = ["--dealing", "face-down", "--squeeze-seconds", str(SQUEEZE_S)]
    n1 = cluster.node("n1", betting_seconds=3.0, reveal_ms=200, options=options).start()
    n2 = cluster.node("n2", betting_seconds=3.0, reveal_ms=200, options=options).start()
    dealer = dealer_of([n1, n2])
    other = n2 if dealer is n1 else n1
    spectator = cluster.watch(dealer, "dealer")
    _, token = new_player(other)
    headers = {"Authorization": f"Bearer {token}"}
    with connect(f"{other.ws_url}/ws/tables/standard", additional_headers=headers) as mine:

        def receive(kind: str, timeout: float = 60.0, **fields: Any) -> dict[str, Any]:
            deadline = time.monotonic() + timeout
            while True:
                left = deadline - time.monotonic()
                assert left > 0, f"no {kind} {fields} on the squeezer's feed"
                message: dict[str, Any] = json.loads(mine.recv(timeout=left))
                if message["type"] == kind and all(message.get(k) == v for k, v in fields.items()):
                    return message

        round_id = open_round(other, min_left_ms=1_500, timeout=60)
        assert bet(other, token, round_id, {"player": 500}).status_code == 200
        squeeze = receive("squeeze", round_id=round_id, hand="player", position=0)
        assert squeeze["yours"] is True
        place = {"round_id": round_id, "hand": "player", "position": 0}
        mine.send(json.dumps({"type": "peel", **place, "edge": "top-right", "progress": 0.3}))
        peel = spectator.wait_event(
            lambda seen: seen.type == "peel" and seen.message["round_id"] == round_id,
            30,
            "the peel on the dealing node",
        )
        assert (peel.message["edge"], peel.message["progress"]) == ("top-right", 0.3)
        mine.send(json.dumps({"type": "turn", **place}))
        card = spectator.wait_event(
            lambda seen: seen.type == "card" and seen.message["round_id"] == round_id,
            30,
            "the card on the dealing node",
        )
        assert card.message["now"] < squeeze["deadline_ms"] - (SQUEEZE_S - 30) * 1000
        # The squeezer turns the rest of the Player's cards; the round ends.
        while True:
            message: dict[str, Any] = json.loads(mine.recv(timeout=60))
            if message["type"] == "round_result" and message["round_id"] == round_id:
                break
            if message["type"] == "squeeze" and message.get("yours"):
                turn = {k: message[k] for k in ("round_id", "hand", "position")}
                mine.send(json.dumps({"type": "turn", **turn}))
    assert not spectator.gaps
