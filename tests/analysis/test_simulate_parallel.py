"""The same seed gives the same totals on one thread, on two, and on a Dask cluster."""

from __future__ import annotations

import numpy as np
import pytest

from baccarat.analysis.simulate import (
    BATCH_SHOES,
    PATH_SHOES,
    SimulationError,
    Tally,
    batch_state,
    compile_job,
    run_chunk,
    simulate,
)
from baccarat.analysis.simulate.results import Simulation
from baccarat.analysis.simulate.strategy import Strategy
from baccarat.rulesets import load_ruleset

STRATEGIES = [Strategy.parse("count:dragon_7"), Strategy.parse("flat:banker")]
# Not a whole number of batches: the short last batch is covered too.
SHOES = 5 * BATCH_SHOES + 321


def same(a: Simulation, b: Simulation) -> None:
    assert (a.shoes, a.coups) == (b.shoes, b.coups)
    x, y = a.tally, b.tally
    assert (x.key_counts == y.key_counts).all()
    assert (x.tc_events == y.tc_events).all()
    assert (x.bet_events == y.bet_events).all()
    assert (x.first_shoes == y.first_shoes).all()
    for (values_a, counts_a), (values_b, counts_b) in zip(x.shoe_nets, y.shoe_nets, strict=True):
        assert values_a.tolist() == values_b.tolist()
        assert counts_a.tolist() == counts_b.tolist()
    assert a.to_json() == b.to_json()


@pytest.fixture(scope="module")
def one_thread() -> Simulation:
    return simulate(load_ruleset("ez"), SHOES, seed=42, strategies=STRATEGIES, workers=1)


def test_two_threads_give_the_same_totals(one_thread: Simulation) -> None:
    two = simulate(load_ruleset("ez"), SHOES, seed=42, strategies=STRATEGIES, workers=2)
    same(one_thread, two)
    assert one_thread.shoes == SHOES and one_thread.tally.first_shoes.shape == (2, SHOES)
    other = simulate(load_ruleset("ez"), SHOES, seed=43, strategies=STRATEGIES, workers=2)
    assert (other.tally.key_counts != one_thread.tally.key_counts).any()


def test_a_dask_cluster_gives_the_same_totals(one_thread: Simulation) -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        on_cluster = simulate(
            load_ruleset("ez"),
            SHOES,
            seed=42,
            strategies=STRATEGIES,
            scheduler=cluster.scheduler_address,
        )
    same(one_thread, on_cluster)


def test_a_batch_depends_only_on_the_seed_and_its_number() -> None:
    job, _ = compile_job(load_ruleset("standard"), 4 * BATCH_SHOES, 9, STRATEGIES[1:])
    together = run_chunk(job, 0, 4)
    apart = {index: run_chunk(job, index, 1) for index in (3, 1, 0, 2)}
    merged = Tally.merge([apart[index] for index in range(4)])
    assert (merged.key_counts == together.key_counts).all()
    assert (merged.first_shoes == together.first_shoes).all()
    assert merged.coups == together.coups and merged.shoes == together.shoes
    # Batch 2 of a longer run is batch 2 of this one.
    longer, _ = compile_job(load_ruleset("standard"), 9 * BATCH_SHOES, 9, STRATEGIES[1:])
    assert (run_chunk(longer, 2, 1).key_counts == apart[2].key_counts).all()
    child = np.random.SeedSequence(9).spawn(3)[2].generate_state(4, np.uint64)
    assert (batch_state(9, 2) == child).all()


def test_histograms_and_first_shoes_merge_in_order() -> None:
    job, _ = compile_job(load_ruleset("standard"), 3 * BATCH_SHOES, 1, STRATEGIES[1:])
    parts = [run_chunk(job, index, 1) for index in range(3)]
    whole = Tally.merge(parts)
    firsts = np.concatenate([p.first_shoes for p in parts], axis=1)
    assert (whole.first_shoes == firsts[:, :PATH_SHOES]).all()
    # The histogram of the whole is the histogram of every shoe's net.
    values, counts = whole.shoe_nets[0]
    assert values.tolist() == sorted(set(firsts[0].tolist()))
    assert dict(zip(values.tolist(), counts.tolist(), strict=True)) == {
        v: int((firsts[0] == v).sum()) for v in values.tolist()
    }


def test_bad_requests_are_refused() -> None:
    ez = load_ruleset("ez")
    with pytest.raises(SimulationError, match="positive integer"):
        simulate(ez, 0, seed=1)
    with pytest.raises(SimulationError, match="non-negative"):
        simulate(ez, 10, seed=-1)
    with pytest.raises(SimulationError, match="workers"):
        simulate(ez, 10, seed=1, workers=0)
    with pytest.raises(SimulationError, match="does not offer 'big'"):
        simulate(ez, 10, seed=1, strategies=[Strategy.parse("big")])


def test_only_the_first_shoes_are_kept_in_order() -> None:
    shoes = PATH_SHOES + 2 * BATCH_SHOES + 17
    run = simulate(load_ruleset("standard"), shoes, seed=4, strategies=STRATEGIES[1:], workers=2)
    job, _ = compile_job(load_ruleset("standard"), shoes, 4, STRATEGIES[1:])
    batches = [run_chunk(job, index, 1) for index in range(job.batches)]
    assert [b.first_shoes.shape[1] for b in batches[-3:]] == [0, 0, 0]
    firsts = np.concatenate([b.first_shoes for b in batches], axis=1)
    assert firsts.shape == run.tally.first_shoes.shape == (1, PATH_SHOES)
    assert (firsts == run.tally.first_shoes).all()
    assert run.tally.shoe_nets[0][1].sum() == shoes
