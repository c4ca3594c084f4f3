// @ts-check
// A studio shoe's record (`baccarat-studio-record/1`, docs/studio.md) checked in the browser:
// a studio shoe has no seed, so what is checked is that every card read from it, in order,
// follows the shoe's procedure (the burn by the first card's value, each coup's cards in the
// slots the tableau makes due, no card more often than the decks hold it, the cut card and the
// last-coup rule), and that each coup is exactly the cards read for its round, with its
// totals, winner and every wager's return. The same checks, in the same order, with the same
// JSON paths and the same words as `baccarat verify` (baccarat.verify_studio and
// baccarat.verify_parts); tests/web/test_web_studio_table.py holds the two to that.
//
// The wagers need the rule set's pay tables: the caller gives the rule set as the house
// publishes it (GET /api/rules/{name}, read by `rulesFromPage`), or nothing, and then the
// payouts are left to `baccarat verify` (the report says so). A custom rule set's TOML in the
// record is not read here: the published rule set of that name stands for it.
//
// Pure: no DOM, no network, no WebCrypto. The cards and the drawing rules are fairverify.js's.

import {
  bankerDraws,
  cardCode,
  cardPoint,
  dealCoup,
  describe,
  handTotal,
  isNatural,
  MAX_COUP_CARDS,
  playerDraws,
  RecordError,
} from "./fairverify.js";

export { describe, RecordError };

export const STUDIO_FORMAT = "baccarat-studio-record/1";

const RANKS = "A23456789TJQK";
const SUITS = "cdhs";
const USES = ["burn", "coup", "burned", "dummy"];
/** Reads that are cards of a coup: a round's, and a dummy hand's going on from it. */
const DEALT = ["coup", "dummy"];
/** The built-in bet types, in the catalogue's order (baccarat.bets.BET_TYPES). */
const BET_NAMES = [
  "player",
  "banker",
  "tie",
  "player_pair",
  "banker_pair",
  "either_pair",
  "perfect_pair",
  "dragon_bonus_player",
  "dragon_bonus_banker",
  "big",
  "small",
  "dragon_7",
  "panda_8",
  "super_6",
];

/** A value the Python verifier would refuse with an exception: said in its words. */
class PyError extends Error {}

// ---- Python's words for JSON values -----------------------------------------------------------

/**
 * A string as Python's repr writes it (quotes chosen as Python chooses them).
 * @param {string} text
 */
function reprString(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = "";
  for (const char of text) {
    const code = /** @type {number} */ (char.codePointAt(0));
    if (char === "\\") out += "\\\\";
    else if (char === quote) out += `\\${quote}`;
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char === "\t") out += "\\t";
    else if (code < 0x20 || (code >= 0x7f && code <= 0xa0) || code === 0xad)
      out += `\\x${code.toString(16).padStart(2, "0")}`;
    else out += char;
  }
  return `${quote}${out}${quote}`;
}

/**
 * A JSON value as Python's repr writes it (`None`, `True`, `'text'`, `[1, 2]`, `{'a': 1}`).
 * @param {unknown} value
 * @returns {string}
 */
export function pyRepr(value) {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "string") return reprString(value);
  if (typeof value === "number") return String(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  if (typeof value === "object") {
    const items = Object.entries(value).map(([key, item]) => `${reprString(key)}: ${pyRepr(item)}`);
    return `{${items.join(", ")}}`;
  }
  return String(value);
}

/** @param {unknown} value  Python's str() of a JSON value */
function pyStr(value) {
  return typeof value === "string" ? value : pyRepr(value);
}

/**
 * Python's `==` on JSON values (True == 1, a missing key is None).
 * @param {unknown} a
 * @param {unknown} b
 * @returns {boolean}
 */
function pyEq(a, b) {
  const x = a === undefined ? null : a;
  const y = b === undefined ? null : b;
  const numeric = (/** @type {unknown} */ v) => typeof v === "number" || typeof v === "boolean";
  if (numeric(x) && numeric(y)) return Number(x) === Number(y);
  if (Array.isArray(x) || Array.isArray(y)) {
    return Array.isArray(x) && Array.isArray(y) && x.length === y.length && x.every((v, i) => pyEq(v, y[i]));
  }
  if (isObject(x) && isObject(y)) {
    const keys = Object.keys(x);
    return keys.length === Object.keys(y).length && keys.every((k) => Object.hasOwn(y, k) && pyEq(x[k], y[k]));
  }
  return x === y;
}

/** @param {unknown} value  Python's truth of a JSON value */
function truthy(value) {
  if (Array.isArray(value)) return value.length > 0;
  if (isObject(value)) return Object.keys(value).length > 0;
  return Boolean(value);
}

/**
 * @param {unknown} value
 * @returns {value is Record<string, any>}
 */
function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** @param {unknown} value  a JSON integer (never true or false) */
function isInt(value) {
  return Number.isInteger(value);
}

/**
 * Python's int() of a string; a ValueError's words otherwise.
 * @param {string} text
 */
function pyInt(text) {
  if (!/^\s*[+-]?\d+(?:_\d+)*\s*$/.test(text)) {
    throw new PyError(`invalid literal for int() with base 10: ${reprString(text)}`);
  }
  return Number.parseInt(text.replace(/_/g, ""), 10);
}

// ---- cards ------------------------------------------------------------------------------------

/**
 * `baccarat.cards.Card.parse`: a card code (`As`, `10h`, ` kd `) as its number (13 × suit +
 * rank, as in fairverify.js); the CardCodeError's words otherwise.
 * @param {unknown} code
 * @returns {number}
 */
function parseCard(code) {
  const bad = (/** @type {string} */ token, /** @type {string} */ reason) =>
    new PyError(`bad card code ${reprString(token)}: ${reason}`);
  if (typeof code !== "string") throw bad(pyRepr(code), "a card code is a string");
  const text = Array.from(code.trim());
  if (text.length < 2) throw bad(code, "a card code is a rank then a suit, like 'As' or '10h'");
  const rankText = text.slice(0, -1).join("");
  const suitText = text[text.length - 1];
  const upper = rankText.toUpperCase();
  const rank = upper === "10" ? 9 : upper.length === 1 ? RANKS.indexOf(upper) : -1;
  if (rank < 0) throw bad(code, `unknown rank ${reprString(rankText)}`);
  const suit = SUITS.indexOf(suitText.toLowerCase());
  if (suit < 0 || suitText.toLowerCase().length !== 1) {
    throw bad(code, `unknown suit ${reprString(suitText)} (use c, d, h or s)`);
  }
  return 13 * suit + rank;
}

/** @param {number} card */
const burnCount = (card) => 1 + (cardPoint(card) || 10);

/**
 * `baccarat.coup.due_slot`: where the next card of a coup goes after `cards` (in deal order),
 * or null when they are a whole coup; a DealError's words when they are more than one.
 * @param {number[]} cards
 * @returns {string | null}
 */
export function dueSlot(cards) {
  const n = cards.length;
  if (n < 4) return ["player_1", "banker_1", "player_2", "banker_2"][n];
  const player = handTotal([cards[0], cards[2]]);
  const banker = handTotal([cards[1], cards[3]]);
  /** @type {string[]} */
  const third = [];
  if (!(isNatural(player) || isNatural(banker))) {
    /** @type {number | null} */
    let playerThird = null;
    if (playerDraws(player)) {
      if (n === 4) return "player_3";
      third.push("player_3");
      playerThird = cardPoint(cards[4]);
    }
    if (bankerDraws(banker, playerThird)) third.push("banker_3");
  }
  const needed = 4 + third.length;
  if (n > needed) throw new PyError(`the coup uses ${needed} cards; ${n - needed} left over`);
  return n < needed ? third[n - 4] : null;
}

/**
 * @typedef {object} Coup  one coup dealt by the rules, with what the bets read of it
 * @property {number[]} player
 * @property {number[]} banker
 * @property {number} playerTotal
 * @property {number} bankerTotal
 * @property {"player" | "banker" | "tie"} winner
 * @property {number} cardsUsed
 */

/**
 * `baccarat.coup.deal`: exactly one coup from `cards` in deal order; a DealError's words when
 * the rules need more cards or leave some over.
 * @param {number[]} cards
 * @returns {Coup}
 */
function deal(cards) {
  let position = 0;
  const dealt = dealCoup(() => {
    if (position >= cards.length) throw new PyError(`the coup needs more cards than the ${cards.length} given`);
    position += 1;
    return cards[position - 1];
  });
  if (position < cards.length) {
    throw new PyError(`the coup uses ${position} cards; ${cards.length - position} left over`);
  }
  // Beyond four cards nobody had a natural: the fifth is the Player's if the Player drew.
  const playerDrew = cards.length > 4 && playerDraws(handTotal([cards[0], cards[2]]));
  return {
    player: [cards[0], cards[2], ...(playerDrew ? [cards[4]] : [])],
    banker: [cards[1], cards[3], ...cards.slice(playerDrew ? 5 : 4)],
    playerTotal: dealt.playerTotal,
    bankerTotal: dealt.bankerTotal,
    winner: dealt.winner,
    cardsUsed: cards.length,
  };
}

// ---- the bets and what they pay (baccarat.bets, baccarat.payout) -----------------------------

/** @param {Coup} coup @param {"player" | "banker"} side */
const handOf = (coup, side) => (side === "player" ? coup.player : coup.banker);
/** @param {number[]} hand */
const natural = (hand) => isNatural(handTotal(hand.slice(0, 2)));
/** @param {number[]} hand */
const pair = (hand) => hand[0] % 13 === hand[1] % 13;

/**
 * Which event a coup is for each bet type (baccarat.bets' classify), and the fallbacks of a
 * specific event on a general one.
 * @type {Record<string, {classify: (coup: Coup) => string, fallback?: Record<string, string>}>}
 */
const BETS = {
  player: { classify: (coup) => main(coup, "player") },
  banker: {
    classify: (coup) => main(coup, "banker"),
    fallback: { win_6: "win", win_three_card_7: "win" },
  },
  tie: {
    classify: (coup) => (coup.winner === "tie" ? `tie_${coup.playerTotal}` : "lose"),
    fallback: Object.fromEntries(Array.from({ length: 10 }, (_, n) => [`tie_${n}`, "tie"])),
  },
  player_pair: { classify: (coup) => (pair(coup.player) ? "pair" : "lose") },
  banker_pair: { classify: (coup) => (pair(coup.banker) ? "pair" : "lose") },
  either_pair: { classify: (coup) => (pair(coup.player) || pair(coup.banker) ? "pair" : "lose") },
  perfect_pair: {
    classify: (coup) =>
      coup.player[0] === coup.player[1] || coup.banker[0] === coup.banker[1] ? "perfect_pair" : "lose",
  },
  dragon_bonus_player: { classify: (coup) => dragonBonus(coup, "player") },
  dragon_bonus_banker: { classify: (coup) => dragonBonus(coup, "banker") },
  big: { classify: (coup) => (coup.cardsUsed === 4 ? "small" : "big") },
  small: { classify: (coup) => (coup.cardsUsed === 4 ? "small" : "big") },
  dragon_7: { classify: (coup) => threeCardWin(coup, "banker", 7) },
  panda_8: { classify: (coup) => threeCardWin(coup, "player", 8) },
  super_6: {
    classify: (coup) =>
      coup.winner !== "banker" || coup.bankerTotal !== 6
        ? "lose"
        : coup.banker.length === 3
          ? "win_three_cards"
          : "win_two_cards",
    fallback: { win_two_cards: "win", win_three_cards: "win" },
  },
};

/** @param {Coup} coup @param {"player" | "banker"} side */
function main(coup, side) {
  if (coup.winner === "tie") return "tie";
  if (coup.winner !== side) return "lose";
  if (side === "banker" && coup.bankerTotal === 6) return "win_6";
  if (side === "banker" && coup.bankerTotal === 7 && coup.banker.length === 3) return "win_three_card_7";
  return "win";
}

/** @param {Coup} coup @param {"player" | "banker"} side */
function dragonBonus(coup, side) {
  if (coup.winner === "tie") return natural(coup.player) && natural(coup.banker) ? "natural_tie" : "lose";
  if (coup.winner !== side) return "lose";
  if (natural(handOf(coup, side))) return "natural_win";
  const margin = Math.abs(coup.playerTotal - coup.bankerTotal);
  return margin >= 4 ? `win_by_${margin}` : "lose";
}

/** @param {Coup} coup @param {"player" | "banker"} side @param {number} total */
function threeCardWin(coup, side, total) {
  const hand = handOf(coup, side);
  return coup.winner === side && handTotal(hand) === total && hand.length === 3 ? "win" : "lose";
}

/**
 * A payout as a rule set writes it (`19:20`, `1.5:1`, `8 to 1`, `push`, `half`, `lose`):
 * its result and exact odds (profit per unit staked) as a fraction of integers.
 * @typedef {{result: "win" | "lose" | "push" | "half", num: bigint, den: bigint}} Payout
 */

/** @param {bigint} a @param {bigint} b @returns {bigint} */
function gcd(a, b) {
  return b === 0n ? a : gcd(b, a % b);
}

/**
 * @param {string} text
 * @returns {Payout}
 */
function parsePayout(text) {
  const word = text.trim().toLowerCase();
  if (word === "push") return { result: "push", num: 0n, den: 1n };
  if (word === "lose") return { result: "lose", num: 0n, den: 1n };
  if (word === "half") return { result: "half", num: 1n, den: 2n };
  const match = /^(\d+(?:\.\d+)?)\s*(?::|to)\s*(\d+(?:\.\d+)?)$/.exec(word);
  if (!match) throw new Error(`${reprString(text)} is not a payout`);
  const fraction = (/** @type {string} */ digits) => {
    const [whole, part = ""] = digits.split(".");
    return [BigInt(whole + part), 10n ** BigInt(part.length)];
  };
  const [a, b] = fraction(match[1]);
  const [c, d] = fraction(match[2]);
  const num = a * d;
  const den = b * c;
  const divisor = gcd(num, den);
  return { result: "win", num: num / divisor, den: den / divisor };
}

/** @param {Payout} payout */
function payoutText(payout) {
  return payout.result === "win" ? `${payout.num}:${payout.den}` : payout.result;
}

/**
 * What a stake gets back, stake included, rounded down to a whole minor unit.
 * @param {Payout} payout
 * @param {number} stake
 */
function returned(payout, stake) {
  if (payout.result === "lose") return 0n;
  const big = BigInt(stake);
  return big + (big * payout.num) / payout.den;
}

// ---- the rule set ------------------------------------------------------------------------------

/**
 * A rule set as this verifier reads it: the shoe's procedure and every bet's pay table.
 * @typedef {object} Rules
 * @property {string} name
 * @property {boolean} burn
 * @property {string} lastCoup  one-more or finish
 * @property {Record<string, Record<string, string>>} pays  bet -> event -> payout
 */

/**
 * A rules page (GET /api/rules/{name}) as the rule set this verifier checks by.
 * @param {any} page
 * @returns {Rules}
 */
export function rulesFromPage(page) {
  /** @type {Record<string, Record<string, string>>} */
  const pays = {};
  for (const bet of page.bets ?? []) {
    pays[bet.name] = Object.fromEntries(
      (bet.pays ?? []).filter((row) => row.event !== "lose").map((row) => [row.event, row.pays]),
    );
  }
  return { name: page.ruleset.name, burn: page.shoe.burn, lastCoup: page.shoe.last_coup, pays };
}

// ---- the studio shoe (baccarat.table.studio_shoe) ---------------------------------------------

/**
 * A shuffle certificate, as `Certificate.from_json` reads it.
 * @typedef {{shuffledBy: string, decks: number, serials: string[], cutCard: number, burn: boolean, lastCoup: string}} Certificate
 */

/**
 * `Certificate.from_json`: the certificate, or a PyError with the words Python's error has.
 * @param {Record<string, any>} data
 * @returns {Certificate}
 */
function readCertificate(data) {
  const key = (/** @type {string} */ name) => {
    if (!Object.hasOwn(data, name)) throw new PyError(reprString(name));
    return data[name];
  };
  const got = (/** @type {string} */ name, /** @type {unknown} */ fallback) =>
    Object.hasOwn(data, name) ? data[name] : fallback;
  const serials = truthy(got("deck_serials", null)) ? data.deck_serials : [];
  // Python asserts a list here (an AssertionError, not a failure): said as a failure.
  if (!Array.isArray(serials)) throw new PyError(`deck_serials is a list, not ${pyRepr(serials)}`);
  const shuffledBy = pyStr(key("shuffled_by"));
  pyInt(pyStr(key("shuffled_at")));
  const decks = pyInt(pyStr(got("decks", 8)));
  const serialTexts = serials.map(pyStr);
  const cutCard = pyInt(pyStr(got("cut_card", 14)));
  const burn = truthy(got("burn", true));
  const lastCoup = pyStr(got("last_coup", "one-more"));
  if (lastCoup !== "one-more" && lastCoup !== "finish") {
    throw new PyError(`${reprString(lastCoup)} is not a valid LastCoupRule`);
  }
  if (decks < 1 || decks > 8) throw new PyError(`a shoe holds 1 to 8 decks, not ${decks}`);
  if (!shuffledBy.trim()) throw new PyError("a shuffle certificate names who shuffled");
  if (cutCard < 0 || cutCard > 52 * decks - MAX_COUP_CARDS) {
    throw new PyError(`the cut card must be 0 to ${52 * decks - MAX_COUP_CARDS} cards from the end`);
  }
  if (serialTexts.length > decks) throw new PyError(`${serialTexts.length} deck serials for ${decks} decks`);
  return { shuffledBy, decks, serials: serialTexts, cutCard, burn, lastCoup };
}

/** A physical shoe as its reads tell it (`StudioShoe`), changed in place. */
class StudioShoe {
  /** @param {Certificate} certificate */
  constructor(certificate) {
    this.certificate = certificate;
    /** @type {{scanId: string, card: number, use: string}[]} */
    this.reads = [];
    this.left = new Array(52).fill(certificate.decks);
    this.total = 52 * certificate.decks;
    this.cutCardOut = false;
    this.lastCoupDue = false;
    this.ended = false;
  }

  get burnDue() {
    if (!this.certificate.burn) return 0;
    const burned = this.reads.filter((read) => read.use === "burn");
    return burned.length === 0 ? 1 : burnCount(burned[0].card) - burned.length;
  }

  get finished() {
    return this.ended || this.total < MAX_COUP_CARDS;
  }

  /**
   * @param {string} scanId
   * @param {number} card
   * @param {string} use
   */
  read(scanId, card, use) {
    if (this.left[card] === 0) {
      throw new PyError(`the shoe holds no more ${cardCode(card)} (${this.certificate.decks} decks)`);
    }
    if (this.reads.some((read) => read.scanId === scanId))
      throw new PyError(`scan ${reprString(scanId)} was read already`);
    if (use === "burn" && this.burnDue <= 0) throw new PyError("the burn is done");
    this.reads.push({ scanId, card, use });
    this.left[card] -= 1;
    this.total -= 1;
    this.cutCardOut = this.cutCardOut || this.total < this.certificate.cutCard;
  }

  coupDone() {
    if (this.lastCoupDue) this.ended = true;
    else if (this.cutCardOut) {
      if (this.certificate.lastCoup === "finish") this.ended = true;
      else this.lastCoupDue = true;
    }
  }
}

// ---- the record -------------------------------------------------------------------------------

/**
 * One thing a record gets wrong, as in fairverify.js (and baccarat.verify_parts.Failure).
 * @typedef {import("./fairverify.js").Failure} Failure
 * @typedef {import("./fairverify.js").Check} Check
 * @typedef {import("./fairverify.js").CoupCheck} CoupCheck
 */

/**
 * @typedef {object} StudioReport
 * @property {boolean} ok  everything checked holds
 * @property {string} shoeId
 * @property {number} reads  cards read, in the record
 * @property {number} wagers  wagers the record's coups hold (checked when `payouts.ok` is not null)
 * @property {Certificate | null} certificate
 * @property {Check} certificateCheck
 * @property {Check} readsCheck
 * @property {Check} payouts  ok null: not checked here (no rule set to check them by)
 * @property {CoupCheck[]} coups  one per coup of the record
 * @property {Failure[]} failures  every failure, record-level and per coup
 * @property {string} summary  one line
 */

/** @type {[string, (value: unknown) => boolean][]} */
const REQUIRED = [
  ["shoe_id", (v) => typeof v === "string"],
  ["decks", isInt],
  ["ruleset", isObject],
  ["certificate", isObject],
  ["reads", Array.isArray],
  ["coups", Array.isArray],
];

/**
 * @param {number | null} coup
 * @param {number | null} card
 * @param {string} field
 */
function pathOf(coup, card, field) {
  const inner = card === null ? field : `${field}[${card}]`;
  if (coup === null) return inner;
  return inner ? `coups[${coup}].${inner}` : `coups[${coup}]`;
}

/** Collects failures while the record is walked (`baccarat.verify_parts.Checker`). */
class Checker {
  constructor() {
    /** @type {Failure[]} */
    this.failures = [];
  }

  /**
   * @param {string} field
   * @param {string} message
   * @param {number | null} [coup]
   * @param {number | null} [card]
   */
  fail(field, message, coup = null, card = null) {
    this.failures.push({ coup, card, field, path: pathOf(coup, card, field), message });
  }

  /**
   * @param {string} field
   * @param {unknown} expected
   * @param {unknown} found
   * @param {number | null} [coup]
   */
  same(field, expected, found, coup = null) {
    if (pyEq(expected, found)) return true;
    this.fail(field, `should be ${pyRepr(expected)}, the record says ${pyRepr(found)}`, coup);
    return false;
  }
}

/**
 * Check a studio shoe's record. `rules`: the record's rule set as the house publishes it
 * (`rulesFromPage`), null when the house publishes none by that name, undefined when it was
 * not looked up (then the payouts are not checked here). Throws RecordError when the object
 * is not a studio shoe's record at all.
 * @param {any} record
 * @param {Rules | null} [rules]
 * @returns {StudioReport}
 */
export function verifyStudioRecord(record, rules) {
  if (!isObject(record)) throw new RecordError("not a studio shoe record: a JSON object is needed");
  if (record.format !== STUDIO_FORMAT) {
    throw new RecordError(`not a studio shoe record: format is ${pyRepr(record.format)}, not '${STUDIO_FORMAT}'`);
  }
  for (const [name, ofType] of REQUIRED) {
    if (!Object.hasOwn(record, name)) throw new RecordError(`not a complete studio shoe record: '${name}' is missing`);
    if (!ofType(record[name])) throw new RecordError(`'${name}' has the wrong type: ${pyRepr(record[name])}`);
  }
  const check = new Checker();
  const ruleset = rulesetOf(record.ruleset, rules, check);
  /** @type {Certificate | null} */
  let certificate = null;
  try {
    certificate = readCertificate(record.certificate);
  } catch (error) {
    if (!(error instanceof PyError)) throw error;
    check.fail("certificate", `not a shuffle certificate: ${error.message}`);
  }
  let wagers = 0;
  if (certificate !== null) {
    check.same("certificate.decks", record.decks, certificate.decks);
    if (ruleset) {
      check.same("certificate.burn", ruleset.burn, certificate.burn);
      check.same("certificate.last_coup", ruleset.lastCoup, certificate.lastCoup);
    }
    const drawn = replay(record.reads, certificate, check);
    /** @type {Set<number>} */
    const seen = new Set();
    record.coups.forEach((/** @type {unknown} */ entry, /** @type {number} */ number) => {
      wagers += checkStudioCoup(number, entry, drawn, seen, ruleset, check);
    });
    for (const round of [...drawn.keys()].filter((n) => !seen.has(n)).sort((a, b) => a - b)) {
      check.fail("coups", `the cards read for round ${round} are in no coup`);
    }
  }
  return report(record, certificate, ruleset, check.failures, wagers);
}

/**
 * `ruleset_of`: the rule set to check by; null when the record's entry is wrong (a failure) or
 * none is known here (`rules` undefined, or a custom rule set the house does not publish).
 * @param {Record<string, any>} entry
 * @param {Rules | null | undefined} rules
 * @param {Checker} check
 * @returns {Rules | null}
 */
function rulesetOf(entry, rules, check) {
  const { name, toml } = entry;
  if (typeof name !== "string" || !(toml === undefined || toml === null || typeof toml === "string")) {
    check.fail("ruleset", "needs a string 'name' and, for a custom rule set, a string 'toml'");
    return null;
  }
  if (rules === null && typeof toml !== "string") {
    check.fail("ruleset", `${reprString(name)} is not built in and the record holds no 'toml'`);
    return null;
  }
  return rules && rules.name === name ? rules : null;
}

/**
 * `_replay`: every read through the shoe's procedure; the cards read for each round, in order.
 * @param {unknown[]} reads
 * @param {Certificate} certificate
 * @param {Checker} check
 * @returns {Map<number, number[]>}
 */
function replay(reads, certificate, check) {
  const shoe = new StudioShoe(certificate);
  /** @type {Map<number, number[]>} */
  const coups = new Map();
  /** @type {number | null} */
  let current = null;
  for (const [index, entry] of reads.entries()) {
    const where = `reads[${index}]`;
    if (!isObject(entry)) {
      check.fail(where, `a read is a JSON object, not ${pyRepr(entry)}`);
      return coups;
    }
    const { seq, card: code, use, position, round, scan_id: scanId } = entry;
    if (!pyEq(seq, index + 1)) check.fail(`${where}.seq`, `should be ${index + 1}: reads are numbered in order`);
    /** @type {number} */
    let card;
    try {
      card = parseCard(code);
    } catch (error) {
      check.fail(`${where}.card`, `${pyRepr(code)} is not a card: ${error.message}`);
      return coups;
    }
    if (!USES.includes(use) || typeof scanId !== "string") {
      check.fail(where, "needs a string scan_id and use 'burn', 'coup' or 'burned'");
      return coups;
    }
    const roundNumber = round ?? null;
    if (roundNumber !== null && !isInt(roundNumber)) {
      check.fail(`${where}.round`, `a round number or null, not ${pyRepr(roundNumber)}`);
      return coups;
    }
    const why = unexpected(shoe, coups.get(current || -1), use, roundNumber, current);
    if (why !== null) {
      check.fail(where, why);
      return coups;
    }
    let expected = "burned";
    if (DEALT.includes(use)) {
      if (use === "dummy" && roundNumber !== current) {
        check.fail(where, "a dummy hand goes on the coup of the round misdealt");
        return coups;
      }
      if (roundNumber !== current) {
        if (shoe.finished) {
          check.fail(where, "a coup begun after the shoe's last one (last-coup rule)");
          return coups;
        }
        current = roundNumber;
      }
      if (!coups.has(roundNumber)) coups.set(roundNumber, []);
      const slot = dueSlot(/** @type {number[]} */ (coups.get(roundNumber)));
      if (slot === null) {
        // Back to a round whose coup is complete.
        check.fail(where, `round ${roundNumber}'s coup was complete: no card is due`);
        return coups;
      }
      expected = slot;
    } else if (use === "burn") expected = `burn_${shoe.reads.length + 1}`;
    if (!pyEq(position, expected)) {
      check.fail(`${where}.position`, `should be ${reprString(expected)}, not ${pyRepr(position)}`);
    }
    try {
      shoe.read(scanId, card, use);
    } catch (error) {
      if (!(error instanceof PyError)) throw error;
      check.fail(where, error.message);
      return coups;
    }
    if (DEALT.includes(use)) {
      const cards = /** @type {number[]} */ (coups.get(roundNumber));
      cards.push(card);
      if (dueSlot(cards) === null) shoe.coupDone();
    }
  }
  return coups;
}

/**
 * `_expected`: why a read of `use` cannot come now (null: it can).
 * @param {StudioShoe} shoe
 * @param {number[] | undefined} coup  the current round's cards
 * @param {string} use
 * @param {number | null} round
 * @param {number | null} current
 * @returns {string | null}
 */
function unexpected(shoe, coup, use, round, current) {
  const due = shoe.burnDue;
  if (due > 0) return use === "burn" ? null : `the burn is not done (${due} to go)`;
  if (use === "burn") return "the burn is done: this card is not a burn card";
  if (round === null) return `a ${use} card belongs to a round`;
  if (DEALT.includes(use) && round === current && coup !== undefined && dueSlot(coup) === null) {
    return `round ${round}'s coup was complete: no card is due`;
  }
  return null;
}

/**
 * `read_cards`: a coup's card codes as cards (a failure at the first that is not one).
 * @param {number} number
 * @param {Record<string, any>} entry
 * @param {Checker} check
 * @returns {number[] | null}
 */
function readCards(number, entry, check) {
  const codes = entry.cards;
  if (!Array.isArray(codes)) {
    check.fail("cards", `must be a list of card codes, not ${pyRepr(codes)}`, number);
    return null;
  }
  /** @type {number[]} */
  const cards = [];
  for (const [index, code] of codes.entries()) {
    /** @type {number} */
    let card;
    try {
      card = parseCard(code);
    } catch (error) {
      check.fail("cards", `${pyRepr(code)} is not a card: ${error.message}`, number, index);
      return null;
    }
    if (cardCode(card) !== code) {
      check.fail("cards", `${pyRepr(code)} is not canonical (write ${reprString(cardCode(card))})`, number, index);
    }
    cards.push(card);
  }
  return cards;
}

/**
 * `compare_cards`: the first card that differs (or the first missing or extra one).
 * @param {string} field
 * @param {string[]} expected
 * @param {string[]} found
 * @param {Checker} check
 * @param {number | null} coup
 */
function compareCards(field, expected, found, check, coup) {
  for (let index = 0; index < Math.min(expected.length, found.length); index += 1) {
    if (expected[index] !== found[index]) {
      check.fail(
        field,
        `the shoe dealt ${reprString(expected[index])}, the record says ${reprString(found[index])}`,
        coup,
        index,
      );
      return;
    }
  }
  if (expected.length !== found.length) {
    const index = Math.min(expected.length, found.length);
    check.fail(field, `the shoe dealt ${expected.length} cards here, the record has ${found.length}`, coup, index);
  }
}

/**
 * `_check_coup`: one coup of the record against the cards read for its round; how many wagers
 * it holds.
 * @param {number} number
 * @param {unknown} entry
 * @param {Map<number, number[]>} drawn
 * @param {Set<number>} seen
 * @param {Rules | null} ruleset
 * @param {Checker} check
 */
function checkStudioCoup(number, entry, drawn, seen, ruleset, check) {
  if (!isObject(entry) || !isInt(entry.round)) {
    check.fail("", "a coup is a JSON object with its round number", number);
    return 0;
  }
  const round = entry.round;
  if (seen.has(round)) {
    check.fail("round", `round ${round}'s coup is listed twice`, number);
    return 0;
  }
  seen.add(round);
  const read = drawn.get(round);
  if (read === undefined) {
    check.fail("round", `no card was read for round ${round}`, number);
    return 0;
  }
  const cards = readCards(number, entry, check);
  if (cards === null) return 0;
  compareCards("cards", read.map(cardCode), cards.map(cardCode), check, number);
  if (entry.dummy === true && (entry.voided !== true || truthy(entry.wagers))) {
    check.fail("dummy", "a dummy hand is a voided round's coup and settles no wager", number);
    return 0;
  }
  if (dueSlot(read) !== null) {
    // Voided part-way: its cards left the shoe, nothing settled.
    if (entry.voided !== true) check.fail("voided", "a coup read part-way must be voided", number);
    if (truthy(entry.wagers)) check.fail("wagers", "a voided coup settles no wager", number);
    return 0;
  }
  return checkCoup(number, entry, ruleset, check);
}

/**
 * `check_coup` (without an order to deal from): the coup by the drawing rules, its totals,
 * winner and wagers; how many wagers it holds.
 * @param {number} number
 * @param {Record<string, any>} entry
 * @param {Rules | null} ruleset
 * @param {Checker} check
 */
function checkCoup(number, entry, ruleset, check) {
  const cards = readCards(number, entry, check);
  if (cards === null) return 0;
  /** @type {Coup} */
  let coup;
  try {
    coup = deal(cards);
  } catch (error) {
    if (!(error instanceof PyError)) throw error;
    check.fail("cards", error.message, number);
    return 0;
  }
  check.same("player_total", coup.playerTotal, entry.player_total, number);
  check.same("banker_total", coup.bankerTotal, entry.banker_total, number);
  check.same("winner", coup.winner, entry.winner, number);
  const wagers = Object.hasOwn(entry, "wagers") ? entry.wagers : [];
  if (!Array.isArray(wagers)) {
    check.fail("wagers", `must be a list, not ${pyRepr(wagers)}`, number);
    return 0;
  }
  const voided = Object.hasOwn(entry, "voided") ? entry.voided : false;
  if (typeof voided !== "boolean") check.fail("voided", `must be true or false, not ${pyRepr(voided)}`, number);
  else if (voided && wagers.length > 0) {
    check.fail("wagers", "a voided coup settles no wager: every stake was returned", number);
    return 0;
  }
  if (ruleset) {
    for (const [index, wager] of wagers.entries()) checkWager(number, index, wager, coup, ruleset, check);
  }
  return wagers.length;
}

/**
 * `check_wager`: one wager's return (and result and event, where given) settled again.
 * @param {number} number
 * @param {number} index
 * @param {unknown} wager
 * @param {Coup} coup
 * @param {Rules} ruleset
 * @param {Checker} check
 */
function checkWager(number, index, wager, coup, ruleset, check) {
  const field = `wagers[${index}]`;
  if (!isObject(wager)) {
    check.fail(field, `a wager is a JSON object, not ${pyRepr(wager)}`, number);
    return;
  }
  const { player, bet, returned: back, stake } = wager;
  if (typeof player !== "string" || typeof bet !== "string") {
    check.fail(field, "needs a string 'player' and a string 'bet'", number);
    return;
  }
  if (!isInt(back)) {
    check.fail(`${field}.returned`, `must be an integer of minor units, not ${pyRepr(back)}`, number);
    return;
  }
  let why = null;
  if (!BET_NAMES.includes(bet)) why = `unknown bet ${reprString(bet)} (bets: ${BET_NAMES.join(", ")})`;
  else if (!Object.hasOwn(ruleset.pays, bet)) {
    why = `rule set ${reprString(ruleset.name)} does not offer ${reprString(bet)}`;
  } else if (!isInt(stake) || stake <= 0) {
    why = `stake on ${reprString(bet)} must be a positive integer of minor units, not ${pyRepr(stake)}`;
  }
  if (why !== null) {
    check.fail(field, why, number);
    return;
  }
  const { classify, fallback = {} } = BETS[bet];
  const event = classify(coup);
  const pays = ruleset.pays[bet];
  let paid = event;
  while (!Object.hasOwn(pays, paid)) {
    if (!Object.hasOwn(fallback, paid)) {
      paid = "lose";
      break;
    }
    paid = fallback[paid];
  }
  const payout = Object.hasOwn(pays, paid) ? parsePayout(pays[paid]) : parsePayout("lose");
  const back2 = returned(payout, stake);
  if (back2 !== BigInt(back)) {
    check.fail(
      `${field}.returned`,
      `${bet} staking ${stake} falls on ${reprString(event)}, which pays ${payoutText(payout)} and returns ${back2}; the record says ${back}`,
      number,
    );
  }
  for (const [key, expected] of [
    ["result", payout.result],
    ["event", event],
  ]) {
    if (Object.hasOwn(wager, key)) check.same(`${field}.${key}`, expected, wager[key], number);
  }
}

/**
 * @param {Record<string, any>} record
 * @param {Certificate | null} certificate
 * @param {Rules | null} ruleset
 * @param {Failure[]} failures
 * @param {number} wagers
 * @returns {StudioReport}
 */
function report(record, certificate, ruleset, failures, wagers) {
  const recordLevel = failures.filter((f) => f.coup === null);
  const first = (/** @type {(f: Failure) => boolean} */ test) => recordLevel.find(test);
  const certificateFailure = first((f) => f.path.startsWith("certificate"));
  const readsFailure = first((f) => f.path.startsWith("reads") || f.path === "coups");
  const wagerFailure = failures.find((f) => f.coup !== null && f.field.startsWith("wagers"));
  const coups = record.coups.map((/** @type {unknown} */ _, /** @type {number} */ number) => {
    const own = failures.filter((f) => f.coup === number);
    return { number: number + 1, ok: own.length === 0, reason: own.map(describe).join("; ") };
  });
  const reads = record.reads.length;
  /** @type {StudioReport} */
  const result = {
    ok: failures.length === 0,
    shoeId: record.shoe_id,
    reads,
    wagers,
    certificate,
    certificateCheck: certificateFailure
      ? { ok: false, message: describe(certificateFailure) }
      : { ok: true, message: "the shuffle certificate is whole and matches the shoe" },
    readsCheck: readsFailure
      ? { ok: false, message: describe(readsFailure) }
      : { ok: true, message: `all ${reads} cards read follow the shoe's procedure` },
    payouts: !ruleset
      ? { ok: null, message: "not checked here: no rule set to check them by" }
      : wagerFailure
        ? { ok: false, message: describe(wagerFailure) }
        : { ok: true, message: `all ${wagers} wagers are paid as the rule set pays them` },
    coups,
    failures,
    summary: "",
  };
  result.summary = summarize(result);
  return result;
}

/** @param {StudioReport} report */
function summarize(report) {
  const good = report.coups.filter((coup) => coup.ok).length;
  const total = report.coups.length;
  if (report.ok) {
    const paid = report.payouts.ok ? ", with every payout" : "";
    return `Verified: all ${report.reads} cards read follow the shoe's procedure, and all ${total} coups are the cards read for them${paid}.`;
  }
  const parts = [];
  if (report.certificateCheck.ok === false) parts.push("the shuffle certificate differs");
  if (report.readsCheck.ok === false) parts.push("the reads break the shoe's procedure");
  if (good < total) parts.push(`${total - good} of ${total} coups differ from the cards read`);
  parts.push(
    ...report.failures
      .filter((f) => f.coup === null && !f.path.startsWith("certificate") && !f.path.startsWith("reads"))
      .filter((f) => f.path !== "coups")
      .map(describe),
  );
  return `Not verified: ${parts.join("; ")}.`;
}
