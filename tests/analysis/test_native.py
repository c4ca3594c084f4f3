"""The C kernels against the numba ones, and the on-disk cache that start-up relies on.

The simulator's C loop must deal and tally exactly what the numba kernel does (the tests of
``test_simulate_kernel`` hold that one to ``baccarat.shoe.Shoe``), coup for coup; the float
path in C must agree with the exact path; a damaged cache entry must be computed again.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from baccarat.analysis import cache
from baccarat.analysis.exact import (
    CardCounts,
    Composition,
    ValueCounts,
    composition_evs,
    exact_odds,
)
from baccarat.analysis.exact.counts import known
from baccarat.analysis.exact.float_path import FastOdds, fast_engine
from baccarat.analysis.native import library
from baccarat.analysis.simulate import compile_job, kernel, native
from baccarat.analysis.simulate.batches import Job, batch_state
from baccarat.analysis.simulate.strategy import Strategy
from baccarat.analysis.trace import ev_traces
from baccarat.rulesets import load_ruleset

Ints = np.ndarray[Any, Any]

pytestmark = pytest.mark.skipif(library() is None, reason="no C compiler")


def _tallies(run: Callable[..., int], job: Job, shoes: int, seed: int) -> list[Ints]:
    count = job.strategies[0].shape[0]
    out = [
        np.zeros(6400, dtype=np.int64),
        np.zeros((count, shoes), dtype=np.int64),
        np.zeros((count, 61, 32), dtype=np.int64),
        np.zeros((count, 32), dtype=np.int64),
    ]
    coups = run(
        batch_state(seed, 0),
        shoes,
        job.decks,
        job.burn,
        job.cut_card_from_end,
        job.finish,
        job.strategies,
        *out,
    )
    return [np.array([coups]), *out]


@pytest.mark.parametrize(
    ("rules", "plays", "shoes"),
    [
        ("standard", ["flat:banker", "flat:tie"], 301),
        ("ez", ["count:dragon_7", "count:panda_8", "flat:player"], 200),
    ],
)
def test_c_simulator_tallies_what_the_numba_kernel_tallies(
    rules: str, plays: list[str], shoes: int
) -> None:
    ruleset = load_ruleset(rules)
    job, _ = compile_job(ruleset, shoes, 3, [Strategy.parse(p) for p in plays])
    c = _tallies(native.run_batch, job, shoes, 9)
    numba = _tallies(kernel.run_batch, job, shoes, 9)
    assert c[0][0] > 70 * shoes
    for mine, theirs in zip(c, numba, strict=True):
        np.testing.assert_array_equal(mine, theirs)


@pytest.mark.parametrize("decks", [1, 6, 8])
def test_c_shuffles_the_numba_kernels_orders(decks: int) -> None:
    np.testing.assert_array_equal(
        native.shuffled_orders(batch_state(4, 2), 5, decks),
        kernel.shuffled_orders(batch_state(4, 2), 5, decks),
    )


def _depleted(seed: int) -> CardCounts:
    rng = np.random.default_rng(seed)
    left = rng.permutation(416)[rng.integers(0, 380) :] % 52
    return CardCounts(tuple(int(x) for x in np.bincount(left, minlength=52)))


@pytest.mark.parametrize("seed", range(6))
def test_one_composition_in_c_agrees_with_the_exact_path(seed: int) -> None:
    ruleset = load_ruleset("ez" if seed % 2 else "standard")
    shoe = _depleted(seed)
    for counts in (
        shoe,
        shoe.by_rank(),
        ValueCounts(Composition(shoe.by_rank().counts).by_value()),
    ):
        exact = exact_odds(counts, ruleset)
        fast = composition_evs(counts, ruleset)
        assert set(fast) == set(exact.bets)
        for name, ev in fast.items():
            assert abs(ev - float(exact.bets[name].ev)) < 1e-12, name


def test_a_batch_in_c_is_each_shoe_alone() -> None:
    engine = FastOdds(load_ruleset("standard"), "cards", "events")
    shoes = [_depleted(s) for s in range(7)]
    values, ranks, cards = engine.arrays([known(shoe) for shoe in shoes])
    batch = engine.evaluate(values, ranks, cards)
    for row, shoe in zip(batch, shoes, strict=True):
        assert np.abs(row - np.array(engine.row(shoe.counts))).max() < 1e-13
    numpy_path = engine.evaluate(values, ranks, cards, compiled=False)
    assert np.abs(batch - numpy_path).max() < 1e-12


def test_bad_counts_on_the_lean_path_are_refused() -> None:
    engine = fast_engine(load_ruleset("standard"), "cards", "ev")
    with pytest.raises(ValueError, match="6 cards"):
        engine.row([0] * 51 + [5])
    with pytest.raises(ValueError, match="negative"):
        engine.row([8] * 51 + [-1])
    with pytest.raises(ValueError, match="52 counts"):
        engine.row([8] * 13)


def test_the_c_trace_deals_and_prices_as_the_numba_path(monkeypatch: pytest.MonkeyPatch) -> None:
    ruleset = load_ruleset("standard")
    rng = np.random.default_rng(3)
    orders = np.array([rng.permutation(416) % 52 for _ in range(12)])
    c = ev_traces(orders, ruleset.shoe, ruleset)
    monkeypatch.setattr(FastOdds, "native", lambda self: None)
    numba = ev_traces(orders, ruleset.shoe, ruleset)
    for field in ("shoe", "coup", "cards_left"):
        np.testing.assert_array_equal(getattr(c, field), getattr(numba, field))
    assert c.bets == numba.bets
    assert np.abs(c.evs - numba.evs).max() < 1e-12


def test_a_cache_entry_is_read_back_and_a_damaged_one_is_computed_again(tmp_path: Path) -> None:
    calls: list[int] = []

    def compute() -> dict[str, str]:
        calls.append(1)
        return {"ev": str(Fraction(-43, 415))}

    first = cache.cached_json("demo", ["key", 1], compute, directory=tmp_path)
    assert cache.cached_json("demo", ["key", 1], compute, directory=tmp_path) == first
    assert len(calls) == 1
    (entry,) = tmp_path.iterdir()
    for damage in (b"", entry.read_bytes()[:-3], entry.read_bytes().replace(b"-43", b"-42")):
        entry.write_bytes(damage)
        assert cache.cached_json("demo", ["key", 1], compute, directory=tmp_path) == first
    assert len(calls) == 4
    assert json.loads(cache.read_entry(entry) or b"null") == first
    # Another key, another entry; a directory that cannot be written only costs the time.
    cache.cached_json("demo", ["key", 2], compute, directory=tmp_path)
    assert len(list(tmp_path.iterdir())) == 2
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    assert cache.cached_json("demo", 3, compute, directory=blocked / "sub") == first


def test_the_library_is_built_once_into_the_cache(tmp_path: Path) -> None:
    from baccarat.analysis.native import build

    built = build(tmp_path)
    assert built is not None and built.parent == tmp_path
    assert build(tmp_path) == built
    assert [p.name for p in tmp_path.iterdir()] == [built.name]  # no temporary left behind


def test_a_library_another_user_could_write_is_never_loaded(tmp_path: Path) -> None:
    from baccarat.analysis.native import _ours

    library = tmp_path / "kernels-x.so"
    library.write_bytes(b"\x7fELF")
    library.chmod(0o644)
    assert _ours(library)
    for mode in (0o664, 0o646, 0o666):
        library.chmod(mode)
        assert not _ours(library), oct(mode)
    assert not _ours(tmp_path / "absent.so")
