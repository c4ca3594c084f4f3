"""Benchmark: deriving an 8-deck ``baccarat-shoe-v1`` order (target: at most 2 ms).

Prints the median time of ``baccarat.fair.derive_order`` beside a plain naive baseline
(one ``hmac.new`` per block, a bytes buffer, a simple loop) measured in the same run,
and as its last line a JSON object for ``make bench``.

    .venv/bin/python bench/bench_fair.py
"""

from __future__ import annotations

import hashlib
import hmac
import json
import statistics
import time
from collections.abc import Callable

from baccarat.fair import derive_order

DECKS = 8
TARGET_MS = 2.0


def naive_order(server_seed: bytes, client_seed: str, shoe_id: str, decks: int) -> list[int]:
    """The scheme read literally: a new HMAC object per block, words cut from a buffer."""
    key = hmac.new(server_seed, f"baccarat-shoe-v1|{shoe_id}|{client_seed}".encode(), "sha256")
    k = key.digest()
    buffer, block, read = b"", 0, 0
    deck = list(range(52 * decks))
    for i in range(52 * decks - 1, 0, -1):
        n = i + 1
        limit = (2**32 // n) * n
        while True:
            while len(buffer) < read + 4:
                buffer += hmac.new(k, block.to_bytes(8, "big"), hashlib.sha256).digest()
                block += 1
            u = int.from_bytes(buffer[read : read + 4], "big")
            read += 4
            if u < limit:
                break
        j = u % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def median_seconds(run: Callable[[int], object], repeats: int) -> float:
    """Median wall time of ``run(k)`` over ``repeats`` calls, each with fresh inputs."""
    for k in range(20):  # warm-up
        run(k)
    times = []
    for k in range(repeats):
        start = time.perf_counter()
        run(k)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    seed = bytes(range(32))
    for k in range(10):
        fast = derive_order(seed, f"bench-{k}", "bench", DECKS)
        assert list(fast) == naive_order(seed, f"bench-{k}", "bench", DECKS)
    fast_s = median_seconds(lambda k: derive_order(seed, f"bench-{k}", "bench", DECKS), 3000)
    naive_s = median_seconds(lambda k: naive_order(seed, f"bench-{k}", "bench", DECKS), 500)
    print(f"derive_order, {DECKS} decks ({52 * DECKS} cards), median of 3000 runs (naive: 500):")
    print(f"  baccarat.fair.derive_order  {fast_s * 1e6:9.1f} µs  = {fast_s * 1e3:.4f} ms")
    print(f"  naive per-block hmac.new    {naive_s * 1e6:9.1f} µs  = {naive_s * 1e3:.4f} ms")
    print(f"  speed-up {naive_s / fast_s:.1f}x; target <= {TARGET_MS} ms: ", end="")
    print("met" if fast_s * 1e3 <= TARGET_MS else "MISSED")
    result = {
        "fair_order_8_decks_ms": round(fast_s * 1e3, 4),
        "fair_order_8_decks_naive_ms": round(naive_s * 1e3, 4),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
