"""The float path: the same odds as ``exact_odds``, compiled, for many shoes at once.

A rule set is prepared once (``FastOdds``): every bet whose event depends on the
signature only becomes a column over the 5,005 multisets of six values, so a shoe's
expectations are a weighted sum the kernel computes in microseconds; bets that depend
only on the pair levels use closed forms over the first four cards; a bet that would
depend on both (none does in the catalogue) is priced by the exact path. Columns that
are linear combinations of others (the Tie's net is one of Player's and Banker's,
Small's one of Big's) are not summed twice.

>>> from baccarat.rulesets import load_ruleset
>>> odds = fast_odds(CardCounts.full(8), load_ruleset("standard"))
>>> f"{odds.bets['banker'].house_edge_percent:.4f}", f"{odds.tie:.6f}"
('1.0579', '0.095156')
>>> engine = FastOdds(load_ruleset("standard"))
>>> shoe = known(CardCounts.full(8))
>>> evs = engine.evaluate(*engine.arrays([shoe]))
>>> round(float(evs[0, engine.columns.index(("player_pair", None))]), 6)
-0.103614
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Literal, TypeAlias

import numpy as np
from numpy.typing import NDArray

from baccarat.analysis.cache import function_key, source_stamp
from baccarat.analysis.exact.counts import (
    CardCounts,
    Detail,
    Known,
    ShoeCounts,
    ValueCounts,
    known,
)
from baccarat.analysis.exact.coup_table import SIGNATURES
from baccarat.analysis.exact.multiset_sums import (
    Reduced,
    kernel_levels,
    kernel_sums,
    leaf_table,
    numpy_sums,
)
from baccarat.analysis.exact.odds import Odds, bet_odds
from baccarat.analysis.exact.pair_levels import pair_level_probabilities
from baccarat.analysis.exact.prepared import NativePlan, Prepared, prepared
from baccarat.analysis.exact.pricing import BetPlan, rule_plan
from baccarat.analysis.exact.signature import representatives
from baccarat.analysis.exact.ways import ExactWays
from baccarat.analysis.native import library
from baccarat.rulesets import RuleSet
from baccarat.shoe import Composition

__all__ = ["CardCounts", "FastOdds", "composition_evs", "fast_engine", "fast_odds"]

Floats = NDArray[np.float64]
Mode: TypeAlias = Literal["ev", "events"]
#: A column of the output: (bet, event) for a probability, (bet, None) for an EV; the main
#: outcomes are ("", "banker"), ("", "player"), ("", "tie").
Column: TypeAlias = tuple[str, str | None]
_OUTCOMES = ("banker", "player", "tie")
#: Up to this many shoes, numpy sums the value columns (no numba start-up).
_SMALL_BATCH = 8


class FastOdds:
    """A rule set compiled for one level of detail of the counts.

    ``mode="ev"`` gives one column per priced bet, its EV per unit staked; ``mode="events"``
    gives the probability of each event of each priced bet and of the three outcomes.
    """

    def __init__(self, ruleset: RuleSet, detail: Detail = "cards", mode: Mode = "ev") -> None:
        self.ruleset = ruleset
        self.detail: Detail = detail
        self.mode: Mode = mode
        computed, self.omitted = rule_plan(ruleset).split(detail)
        self.bets: tuple[BetPlan, ...] = computed
        self._mixed = [p for p in computed if p.events.kind == "mixed"]
        prepared = _prepared(self)
        self._value_columns: list[Column] = prepared.value_columns
        self._pair_columns: list[Column] = prepared.pair_columns
        self._mixed_columns: list[Column] = prepared.mixed_columns
        self._constant = prepared.arrays["constant"]
        self._coefficients = prepared.arrays["coefficients"]
        self._table = prepared.arrays["table"]
        self._pairs = prepared.arrays["pairs"]
        self._order: list[int] = prepared.order
        #: What each column of ``evaluate`` holds, in order: the outcomes (``events`` mode),
        #: then the bets in the rule set's order.
        self.columns: list[Column] = prepared.columns
        self._native: NativePlan | bool | None = False  # False: not looked for yet

    def _build(self) -> Prepared:
        """The arrays of this engine, computed (a third of a second: see ``_prepared``)."""
        value = [p for p in self.bets if p.events.kind == "value"]
        pairs = [p for p in self.bets if p.events.kind == "pairs"]
        value_columns: list[Column] = []
        by_signature: list[Floats] = []
        if self.mode == "events":
            winner = representatives().winner
            for i, outcome in enumerate(_OUTCOMES):
                value_columns.append(("", outcome))
                by_signature.append((winner == i).astype(np.float64))
        for plan in value:
            for column, values in _columns(plan, plan.events.by_signature, self.mode):
                value_columns.append(column)
                by_signature.append(values)
        reduced = Reduced(np.array(by_signature).reshape(len(by_signature), SIGNATURES))
        pair_columns: list[Column] = []
        by_levels: list[Floats] = []
        for plan in pairs:
            for column, values in _columns(plan, plan.events.by_levels.ravel(), self.mode):
                pair_columns.append(column)
                by_levels.append(values)
        mixed_columns: list[Column] = []
        for plan in self._mixed:
            mixed_columns += [
                column for column, _ in _columns(plan, np.zeros(1, np.int64), self.mode)
            ]
        computed_order = value_columns + pair_columns + mixed_columns
        rank = {name: i for i, name in enumerate(("", *(plan.name for plan in self.bets)))}
        order = sorted(range(len(computed_order)), key=lambda i: rank[computed_order[i][0]])
        arrays = {
            "constant": np.asarray(reduced.constant, dtype=np.float64),
            "coefficients": np.asarray(reduced.coefficients, dtype=np.float64),
            "table": leaf_table(reduced.basis),
            "pairs": np.array(by_levels, dtype=np.float64).reshape(len(by_levels), 9),
        }
        return Prepared(value_columns, pair_columns, mixed_columns, order, arrays)

    def arrays(self, shoes: Sequence[Known]) -> tuple[Floats, Floats, Floats]:
        """Counts by value, rank and card of ``shoes`` as the arrays ``evaluate`` takes."""
        values = np.array([s.values for s in shoes], dtype=np.float64).reshape(len(shoes), 10)
        ranks = np.array([s.ranks or (0,) * 13 for s in shoes], dtype=np.float64)
        cards = np.array([s.cards or (0,) * 52 for s in shoes], dtype=np.float64)
        return values, ranks.reshape(len(shoes), 13), cards.reshape(len(shoes), 52)

    def evaluate(
        self,
        values: Floats,
        ranks: Floats | None = None,
        cards: Floats | None = None,
        *,
        compiled: bool | None = None,
    ) -> Floats:
        """Every column for every shoe: a row of counts by value (and by rank, by card) each.

        Ranks are needed when a pair bet is priced, cards when a suited pair is; the rows of
        the three arrays describe the same shoes. The value columns are summed by the
        compiled kernel, or by numpy when ``compiled`` is false (the default for a handful
        of shoes, where starting numba would cost more than it saves).
        """
        values = np.ascontiguousarray(values, dtype=np.float64)
        shoes = values.shape[0]
        if np.any(values.sum(axis=1) < 6):
            raise ValueError("a coup may need 6 cards; a shoe holds fewer")
        native = self.native()
        if native is not None and compiled is not False:
            given = {"values": values, "ranks": ranks, "cards": cards}[self.detail]
            if given is not None:
                return native.many(np.asarray(given, dtype=np.float64))
        parts = []
        use_kernel = shoes > _SMALL_BATCH if compiled is None else compiled
        if self._value_columns:
            sums = (
                kernel_sums(values, self._table) if use_kernel else numpy_sums(values, self._table)
            )
            parts.append(self._constant[None, :] + sums @ self._coefficients.T)
        if self._pair_columns:
            if ranks is None:
                raise ValueError("pair bets need counts by rank")
            suited = self.detail == "cards"
            if suited and cards is None:
                raise ValueError("a suited pair needs counts by card")
            levels = (
                kernel_levels(ranks, cards, suited)
                if use_kernel
                else pair_level_probabilities(ranks, cards, suited=suited)
            )
            parts.append(levels @ self._pairs.T)
        if self._mixed_columns:
            parts.append(self._mixed_exact(values, ranks, cards))
        if not parts:
            return np.zeros((shoes, 0))
        return np.concatenate(parts, axis=1)[:, self._order]

    def native(self) -> NativePlan | None:
        """The C path of this engine, or None (no compiler, or a bet priced the exact way)."""
        if self._native is False:
            self._native = None
            if not self._mixed_columns and (lib := library()) is not None:
                self._native = NativePlan(_prepared(self), self.detail, lib)
        return self._native if isinstance(self._native, NativePlan) else None

    def row(self, counts: Sequence[int]) -> list[float]:
        """Every column for one shoe, from its counts at this engine's detail (52 by card,
        13 by rank or 10 by value, tens first): the lean path, no numpy in the call.

        >>> from baccarat.rulesets import load_ruleset
        >>> engine = fast_engine(load_ruleset("standard"), "cards", "ev")
        >>> round(engine.row([8] * 52)[engine.columns.index(("banker", None))], 6)
        -0.010579
        """
        native = self.native()
        if native is not None:
            return native.row(counts)
        values, ranks, cards = self.arrays([_known(counts, self.detail)])
        out: list[float] = self.evaluate(values, ranks, cards)[0].tolist()
        return out

    def _mixed_exact(self, values: Floats, ranks: Floats | None, cards: Floats | None) -> Floats:
        rows = []
        for k in range(values.shape[0]):
            shoe = Known(
                tuple(int(x) for x in values[k]),
                None if ranks is None else tuple(int(x) for x in ranks[k]),
                None
                if cards is None or self.detail != "cards"
                else tuple(int(x) for x in cards[k]),
            )
            exact = ExactWays(shoe)
            row: list[float] = []
            for plan in self._mixed:
                probabilities = [Fraction(w, exact.total) for w in exact.event_ways(plan)]
                if self.mode == "ev":
                    row.append(
                        float(sum(p * net for p, net in zip(probabilities, plan.nets, strict=True)))
                    )
                else:
                    row += [float(p) for p in probabilities]
            rows.append(row)
        return np.array(rows, dtype=np.float64).reshape(values.shape[0], len(self._mixed_columns))


#: The modules whose code decides an engine's arrays (with each bet's own classifier).
_SOURCES = (
    "baccarat.analysis.exact.float_path",
    "baccarat.analysis.exact.multiset_sums",
    "baccarat.analysis.exact.coup_table",
    "baccarat.analysis.exact.signature",
    "baccarat.analysis.exact.pricing",
    "baccarat.bets",
    "baccarat.coup",
    "baccarat.payout",
    "baccarat.rulesets",
    "baccarat.tableau",
)
_built: dict[int, tuple[FastOdds, Prepared]] = {}


def _prepared(engine: FastOdds) -> Prepared:
    """The engine's arrays: from this process, from the disk cache, or computed."""
    done = _built.get(id(engine))
    if done is not None and done[0] is engine:
        return done[1]
    try:
        rules: str | None = engine.ruleset.to_toml()
    except Exception:  # a rule set that cannot be written out is just not cached
        rules = None
    if rules is None:
        made = engine._build()
    else:
        bets = engine.ruleset.bets.values()
        modules = sorted({getattr(rule.type.classify, "__module__", "") for rule in bets})
        key = [
            rules,
            engine.detail,
            engine.mode,
            [function_key(rule.type.classify) for rule in bets],
            source_stamp(*_SOURCES, *modules),
        ]
        made = prepared(key, engine._build)
    _built[id(engine)] = (engine, made)
    return made


def _known(counts: Sequence[int], detail: Detail) -> Known:
    numbers = tuple(int(c) for c in counts)
    if detail == "cards":
        return known(CardCounts(numbers))
    if detail == "ranks":
        return known(Composition(numbers))
    return known(ValueCounts(numbers))


def _columns(plan: BetPlan, events: NDArray[np.int64], mode: Mode) -> list[tuple[Column, Floats]]:
    """A bet's columns over signatures (or pair levels): its net, or each event's indicator."""
    if mode == "ev":
        nets = np.array([float(net) for net in plan.nets] + [0.0])
        return [((plan.name, None), nets[events])]  # event -1 (no coup) takes the 0 at the end
    return [
        ((plan.name, event), (events == i).astype(np.float64))
        for i, event in enumerate(plan.rule.type.events)
    ]


_engines: dict[tuple[int, str, str], FastOdds] = {}


def fast_engine(ruleset: RuleSet, detail: Detail = "cards", mode: Mode = "ev") -> FastOdds:
    """The ``FastOdds`` of a rule set (prepared once per process)."""
    key = (id(ruleset), detail, mode)
    engine = _engines.get(key)
    if engine is None or engine.ruleset is not ruleset:
        engine = _engines[key] = FastOdds(ruleset, detail, mode)
    return engine


def composition_evs(counts: ShoeCounts, ruleset: RuleSet) -> dict[str, float]:
    """The EV per unit staked of every bet ``ruleset`` offers that the counts can price, for
    the shoe ``counts`` describes: the lean path for one shoe per call (the live table, the
    integrity monitor), a few microseconds in C, no numpy in the call.

    Bets the counts cannot price (pairs by value, the suited pair by rank) are left out,
    as ``fast_odds`` leaves them out. For the least overhead, keep
    ``fast_engine(ruleset, detail, "ev")`` and call its ``row`` with the counts alone.

    >>> from baccarat.rulesets import load_ruleset
    >>> evs = composition_evs(CardCounts.full(8), load_ruleset("standard"))
    >>> round(evs["banker"], 6), round(evs["player_pair"], 6), len(evs)
    (-0.010579, -0.103614, 11)
    """
    detail: Detail
    if isinstance(counts, CardCounts):
        detail = "cards"
    elif isinstance(counts, Composition):
        detail = "ranks"
    else:
        detail = "values"
    engine = fast_engine(ruleset, detail, "ev")
    row = engine.row(counts.counts)
    return {name: value for (name, _), value in zip(engine.columns, row, strict=True)}


def fast_odds(counts: ShoeCounts, ruleset: RuleSet) -> Odds[float]:
    """The odds of every bet ``ruleset`` offers, in floating point (agrees with ``exact_odds``)."""
    shoe = known(counts)
    engine = fast_engine(ruleset, shoe.detail, "events")
    row = engine.evaluate(*engine.arrays([shoe]))[0]
    value = dict(zip(engine.columns, row.tolist(), strict=True))
    bets = {
        plan.name: bet_odds(plan, [value[plan.name, e] for e in plan.rule.type.events], 0.0)
        for plan in engine.bets
    }
    return Odds(
        rules=ruleset.name,
        cards_left=shoe.total,
        banker=value["", "banker"],
        player=value["", "player"],
        tie=value["", "tie"],
        bets=bets,
        omitted=engine.omitted,
    )
