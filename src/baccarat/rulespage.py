"""The rules page as data: what ``GET /api/rules/{ruleset}`` returns and the page shows.

One call gathers, for a rule set, the shoe procedure, the drawing table (from
``baccarat.tableau``), every offered bet with its pay table in words, its stake limits and
its house edge, then the rounding rule, the interruption policy and the fairness scheme.
It is pure data (JSON-ready: strings, integers, booleans, lists, dicts), so the API and a
static page render the same thing.

House edges are exact: ``-EV`` per unit staked with a full shoe of the rule set's decks,
ties pushing the main bets, computed by ``baccarat.analysis.exact`` (``house_edges``).

>>> from baccarat.rulesets import load_ruleset
>>> page = rules_page(load_ruleset("standard"), edges={})
>>> page["ruleset"]["name"], [bet["name"] for bet in page["bets"]][:3]
('standard', ['player', 'banker', 'tie'])
>>> banker = page["bets"][1]
>>> [(row["when"], row["pays"]) for row in banker["pays"]]
[('Banker wins', '19:20'), ('the coup is a tie', 'push'), ('anything else', 'lose')]
>>> page["drawing"]["banker"][3]["by_player_third"]["8"], page["drawing"]["banker"][3]["player_stood"]
('stands', 'draws')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from baccarat.bets import BetType
from baccarat.fair import ALGORITHM
from baccarat.payout import Payout, Result
from baccarat.rulesets import CURRENCIES, DEFAULT_CURRENCY, BetRule, RuleSet
from baccarat.tableau import banker_decision, player_decision

__all__ = [
    "FAIRNESS_LIMIT_TEXT",
    "FAIRNESS_TEXT",
    "INTERRUPTION_TEXT",
    "drawing_table",
    "event_text",
    "house_edges",
    "odds_text",
    "pay_table",
    "payout_text",
    "percent",
    "rounding_text",
    "rules_page",
]

INTERRUPTION_TEXT = (
    "If the table stops during a round (a crash or a restart), a round whose cards were "
    "already stored resumes after the restart with exactly those cards, and its bets settle "
    "as usual: the cards were fixed before any was shown, so nobody can have been favoured. "
    "A round stopped before its cards were drawn is voided and every stake is returned in "
    "full. A table taken out of play finishes its unfinished round by the same rule when the "
    "service restarts. A settled round is never changed."
)

FAIRNESS_TEXT = (
    f"Each shoe is provably fair ({ALGORITHM}). Before the shoe's first bet the server "
    "publishes a commitment, the SHA-256 of a secret 32-byte seed drawn from the operating "
    "system. When the first betting window closes, a client seed is fixed from the seeds "
    "players sent. The card order is derived from the secret seed, the client seed and the "
    "shoe id alone (HMAC-SHA256 stream, unbiased Fisher-Yates), so it cannot depend on any "
    "bet. After the shoe's last coup the seed is revealed: anyone can check it against the "
    "commitment, rebuild the order and replay every coup and payout (baccarat verify)."
)

FAIRNESS_LIMIT_TEXT = (
    "Known limit: an operator who also sent client seeds could try many of them against its "
    "own secret seed before the client seed is fixed; only a public value fixed after the "
    "commitment (a randomness beacon) would close that."
)

_MAIN_SIDES = {"player": "Player", "banker": "Banker"}


def _side(bet: BetType) -> str:
    return "Banker" if bet.name.endswith("banker") else "Player"


_FIXED_EVENTS = {
    "win_6": "Banker wins with a total of 6",
    "win_three_card_7": "Banker wins with a three-card 7",
    "tie": "the coup is a tie",
    "natural_tie": "both hands have a natural and tie",
    "big": "the coup uses 5 or 6 cards",
    "small": "the coup uses 4 cards",
    "win_two_cards": "Banker wins with a two-card 6",
    "win_three_cards": "Banker wins with a three-card 6",
}


def event_text(bet: BetType, event: str) -> str:
    """When ``event`` of ``bet`` happens, in words.

    >>> from baccarat.bets import BET_TYPES
    >>> event_text(BET_TYPES["tie"], "tie_6"), event_text(BET_TYPES["dragon_bonus_banker"], "win_by_9")
    ('a tie on 6', 'Banker wins by 9 points without a natural')
    """
    if event == "win":
        if bet.name in _MAIN_SIDES:
            return f"{_MAIN_SIDES[bet.name]} wins"
        return bet.description.rstrip(".")
    if event in ("pair", "perfect_pair"):
        return bet.description.rstrip(".")
    if event == "natural_win":
        return f"{_side(bet)} wins with a natural"
    if event.startswith("tie_"):
        return f"a tie on {event.removeprefix('tie_')}"
    if event.startswith("win_by_"):
        return f"{_side(bet)} wins by {event.removeprefix('win_by_')} points without a natural"
    return _FIXED_EVENTS.get(event, event.replace("_", " "))


def odds_text(payout: Payout) -> str:
    """A payout's odds as the tables print them, the house style wherever a payout is shown
    (the spots, the rules page, ``baccarat rules``; the page's ``format.js`` ``odds`` alike):
    whole odds ``N:1``, odds that are a short decimal ``D:1`` (as live tables print a
    commissioned Banker win), any other fraction in its lowest terms; a half pay ``1:2``;
    ``push`` and ``lose`` as they are.

    >>> [odds_text(Payout.parse(t)) for t in ("19:20", "27:50", "3:2", "8:1", "1:3", "half")]
    ['0.95:1', '0.54:1', '1.5:1', '8:1', '1:3', '1:2']
    """
    if payout.result is Result.HALF:
        return "1:2"
    if payout.result is not Result.WIN:
        return payout.result.value
    value = payout.odds
    for places in (0, 1, 2):
        scaled = value * 10**places
        if scaled.denominator == 1:
            whole, part = divmod(scaled.numerator, 10**places)
            return f"{whole}:1" if places == 0 else f"{whole}.{part:0{places}d}:1"
    return f"{value.numerator}:{value.denominator}"


def payout_text(payout: Payout) -> str:
    """A payout in words, its odds as ``odds_text`` prints them.

    >>> payout_text(Payout.parse("19:20")), payout_text(Payout.parse("push"))
    ('pays 0.95 to 1', 'pushes: the stake is returned')
    >>> payout_text(Payout.parse("half")), payout_text(Payout.parse("lose"))
    ('pays half: 1 to 2', 'loses')
    """
    if payout.result is Result.PUSH:
        return "pushes: the stake is returned"
    if payout.result is Result.LOSE:
        return "loses"
    win, stake = odds_text(payout).split(":")
    odds = f"{win} to {stake}"
    return f"pays half: {odds}" if payout.result is Result.HALF else f"pays {odds}"


def _event_order(bet: BetType) -> Callable[[str], int]:
    position = {event: i for i, event in enumerate(bet.events)}
    for specific, general in bet.fallback.items():
        # A general event ("tie" for the tie bet) sits where its first specific one does.
        position.setdefault(general, position.get(specific, len(position)))
    return lambda event: position.get(event, len(position))


def pay_table(rule: BetRule) -> list[dict[str, str]]:
    """The pay table of one bet as the table names it, in the bet's order, then what loses:
    each event with the payout in the rule set's own syntax (``pays``, ``"19:20"``), as
    printed for people (``odds``, ``"0.95:1"``) and in words (``text``)."""
    rows = [
        {"event": event, "when": event_text(rule.type, event), "pays": str(payout)}
        | {"odds": odds_text(payout), "text": payout_text(payout)}
        for event, payout in sorted(
            rule.pays.items(), key=lambda item: _event_order(rule.type)(item[0])
        )
    ]
    rows.append(
        {"event": "lose", "when": "anything else", "pays": "lose", "odds": "lose", "text": "loses"}
    )
    return rows


def drawing_table() -> dict[str, Any]:
    """The tableau: what Player does on each two-card total, and Banker's full table."""
    player = [
        {"total": total, "action": "draws" if d.draws else "stands", "rule": d.rule}
        for total in range(10)
        for d in [player_decision(total)]
    ]
    banker = []
    for total in range(8):
        stood = banker_decision(total, None)
        banker.append(
            {
                "total": total,
                "player_stood": "draws" if stood.draws else "stands",
                "by_player_third": {
                    str(value): "draws" if banker_decision(total, value).draws else "stands"
                    for value in range(10)
                },
            }
        )
    return {
        "natural": "a two-card 8 or 9 is a natural: neither hand draws a third card",
        "winner": "the higher total wins; equal totals are a tie",
        "player": player,
        "banker": banker,
        "banker_natural": "Banker stands on 8 and 9",
        "values": "aces count 1, 2 to 9 their face value, tens and faces 0; a total is the "
        "last digit of the sum",
    }


def _decimal(value: Fraction, places: int) -> str:
    scaled = round(value * 10**places)  # half to even, exact
    sign = "-" if scaled < 0 else ""
    whole, part = divmod(abs(scaled), 10**places)
    return f"{sign}{whole:,}.{part:0{places}d}" if places else f"{sign}{whole:,}"


def rounding_text(currency: str = DEFAULT_CURRENCY) -> str:
    """The rounding rule with an example computed by ``baccarat.payout``, in ``currency``'s
    counting unit (cents, or whole rupiah).

    >>> rounding_text().split(": ")[-1]
    'a stake of 1.05 on a 0.95:1 Banker win returns 2.04, not 2.0475.'
    >>> rounding_text("IDR").split(": ")[-1]
    'a stake of 10,005 on a 0.95:1 Banker win returns 19,509, not 19,509.75.'
    """
    cents = CURRENCIES[currency] > 0
    places, stake, units = (2, 105, "cents") if cents else (0, 10_005, "rupiah")
    back = Payout.parse("19:20").returned(stake)
    exact = Fraction(stake) * Fraction(39, 20) / 10**places
    return (
        f"Stakes and payouts are whole {units}. A payout that is not a whole number of {units} "
        "is rounded down, in the house's favour, and only once per bet: "
        f"a stake of {_decimal(Fraction(stake, 10**places), places)} on a 0.95:1 Banker win "
        f"returns {_decimal(Fraction(back, 10**places), places)}, not {_decimal(exact, places + 2)}."
    )


def percent(edge: Fraction, places: int = 4) -> str:
    """An exact fraction as a percentage rounded to ``places`` decimals (half to even).

    >>> percent(Fraction(1, 3)), percent(Fraction(-1, 200))
    ('33.3333', '-0.5000')
    """
    return _decimal(edge * 100, places)


def house_edges(ruleset: RuleSet) -> dict[str, Fraction]:
    """The exact house edge (``-EV`` per unit staked) of every bet of ``ruleset``, full shoe.

    >>> from baccarat.rulesets import load_ruleset
    >>> percent(house_edges(load_ruleset("standard"))["banker"])
    '1.0579'
    """
    # Imported here: the exact analysis is heavy to load, and ``odds_text`` (for
    # ``baccarat rules`` too) needs none of it.
    from baccarat.analysis.exact import bet_evs

    return {name: -ev for name, ev in bet_evs(ruleset).items()}


def _bet(rule: BetRule, edge: Fraction | None) -> dict[str, Any]:
    return {
        "name": rule.name,
        "label": rule.type.label,
        "description": rule.type.description,
        "min_stake": rule.min_stake,
        "max_stake": rule.max_stake,
        "pays": pay_table(rule),
        "house_edge": None
        if edge is None
        else {"exact": f"{edge.numerator}/{edge.denominator}", "percent": percent(edge)},
    }


def rules_page(ruleset: RuleSet, edges: Mapping[str, Fraction] | None = None) -> dict[str, Any]:
    """Everything the rules page shows for ``ruleset``.

    ``edges`` maps bet names to exact house edges; when left out they are computed by
    ``house_edges`` (a few hundredths of a second: cache the page per rule set). A bet
    without one has ``"house_edge": None`` and the page's ``house_edges`` field says
    ``"pending"``.
    """
    known = house_edges(ruleset) if edges is None else edges
    shoe = ruleset.shoe
    bets = [_bet(rule, known.get(name)) for name, rule in ruleset.bets.items()]
    return {
        "ruleset": {
            "name": ruleset.name,
            "title": ruleset.title,
            "description": ruleset.description,
            "currency": ruleset.currency,
            "minor_unit": ruleset.minor_unit,
        },
        "shoe": {
            "decks": shoe.decks,
            "burn": shoe.burn,
            "cut_card_from_end": shoe.cut_card_from_end,
            "last_coup": shoe.last_coup.value,
        },
        "chips": list(ruleset.chips),
        "drawing": drawing_table(),
        "bets": bets,
        "house_edges": "exact" if all(bet["house_edge"] is not None for bet in bets) else "pending",
        "house_edge_basis": "-EV per unit staked, full shoe, ties push the main bets",
        "rounding": rounding_text(ruleset.currency),
        "interruption": INTERRUPTION_TEXT,
        "fairness": {"algorithm": ALGORITHM, "scheme": FAIRNESS_TEXT, "limit": FAIRNESS_LIMIT_TEXT},
    }
