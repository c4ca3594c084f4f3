// @ts-check
// Reads the API's table JSON (GET /api/tables/{id}, the feed's snapshot) into the few things
// the views draw. Views never reach into the server's JSON themselves, so a renamed field is a
// change in this file alone.

import { has, t } from "./i18n.js";

/**
 * A bet the table offers, as the API describes it.
 * @typedef {object} BetOffer
 * @property {string} [label]
 * @property {string} [description]
 * @property {Record<string, string>} pays  event -> payout, e.g. {win: "19:20", tie: "push"}
 * @property {number} min_stake  minor units
 * @property {number} max_stake  minor units
 */
/**
 * A round as the API gives it; `closes_at` is epoch ms once read by `currentRound`.
 * @typedef {object} Round
 * @property {number} [id]
 * @property {number} [number]
 * @property {string} [phase]  open, closed, dealt, settled or voided
 * @property {any} [closes_at]
 * @property {number} [closes_at_ms]
 */
/**
 * A card revealed in the current round.
 * @typedef {object} RevealedCard
 * @property {"player" | "banker"} hand
 * @property {number} position
 * @property {string} card  a card code such as "Td"
 */
/**
 * The API's table JSON (GET /api/tables/{id}, the feed's snapshot), read only through this module.
 * @typedef {object} Table
 * @property {string} id
 * @property {{name?: string, title?: string, description?: string, currency?: string, minor_unit?: number}} [ruleset]
 * @property {Record<string, any>} [settings]
 * @property {{min?: number, max?: number}} [limits]
 * @property {Record<string, BetOffer>} [bets]
 * @property {number[]} [chips]
 * @property {Round | null} [round]
 * @property {RevealedCard[]} [cards]
 * @property {any} [result]
 * @property {any} [last_round]
 * @property {any} [roads]
 * @property {any} [shoe]
 * @property {any} [previous_shoe]
 * @property {number} [watching]
 * @property {Record<string, number>} [stakes]  every player's stakes on the round, per spot
 * @property {import("./studionotice.js").Desk | null} [studio]  a studio table's desk
 * @property {number} [now]
 */

const PHASES = new Set(["open", "closed", "dealt", "settled", "voided"]);

/**
 * Words for a round phase, in the language shown.
 * @param {string | null | undefined} phase
 * @returns {string}
 */
export function phaseWords(phase) {
  return t(PHASES.has(phase) ? `phase.${phase}` : "phase.waiting");
}

/** @param {Table} table */
export function tableId(table) {
  return table.id;
}

/**
 * The rule set's {name, title, description}.
 * @param {Table} table
 */
export function ruleset(table) {
  return table.ruleset ?? {};
}

/**
 * The money the table counts in: {code, digits} (ISO 4217 and its minor-unit exponent).
 * @param {Table} table
 * @returns {{code: string, digits: number}}
 */
export function currency(table) {
  const set = /** @type {Record<string, any>} */ (ruleset(table));
  return {
    code: typeof set.currency === "string" ? set.currency : "USD",
    digits: Number.isInteger(set.minor_unit) ? set.minor_unit : 2,
  };
}

/**
 * The table's display name: its rule set's title, in the language shown for a built-in rule
 * set (another keeps the title its file gives).
 * @param {Table} table
 * @returns {string}
 */
export function tableName(table) {
  const set = ruleset(table);
  const key = `ruleset.${set.name}.title`;
  return set.name && has(key) ? t(key) : (set.title ?? table.id);
}

/**
 * The rule set's description, in the language shown for a built-in rule set.
 * @param {Table} table
 * @returns {string}
 */
export function rulesetDescription(table) {
  const set = ruleset(table);
  const key = `ruleset.${set.name}.description`;
  return set.name && has(key) ? t(key) : (set.description ?? "");
}

/**
 * The bets offered: {name: {label, description, pays, min_stake, max_stake}}, in catalogue order.
 * @param {Partial<Table>} table
 * @returns {Record<string, BetOffer>}
 */
export function offeredBets(table) {
  return table.bets ?? {};
}

/**
 * Chip denominations in minor units, smallest first.
 * @param {Table} table
 * @returns {number[]}
 */
export function chips(table) {
  return [...(table.chips ?? [])].sort((a, b) => a - b);
}

/**
 * The table-wide limits: {min, max} in minor units (null when unknown).
 * @param {Table} table
 * @returns {{min: number | null, max: number | null}}
 */
export function limits(table) {
  return { min: table.limits?.min ?? null, max: table.limits?.max ?? null };
}

/**
 * Take a round's limits (round_open's `limits`: an operator may change them between rounds)
 * into the table: the table-wide range and each offered bet's minimum and maximum.
 * @param {Table} table
 * @param {{min: number, max: number, bets: Record<string, {min_stake: number, max_stake: number}>} | null | undefined} given
 */
export function useLimits(table, given) {
  if (!given) return;
  table.limits = { min: given.min, max: given.max };
  const offered = table.bets ?? {};
  for (const [name, range] of Object.entries(given.bets ?? {})) {
    if (offered[name]) offered[name] = { ...offered[name], min_stake: range.min_stake, max_stake: range.max_stake };
  }
}

/**
 * The dealer's settings: {betting_ms, reveal_ms, result_ms, dealing}.
 * @param {Partial<Table>} table
 * @returns {Record<string, any>}
 */
export function settings(table) {
  return table.settings ?? {};
}

/**
 * The video of a studio table (its HLS playlist: an http(s) URL or a path on this server), or
 * null at a table the server deals and at a studio table without a stream.
 * @param {Partial<Table>} table
 * @returns {string | null}
 */
export function videoStream(table) {
  const { mode, stream_url: url } = settings(table);
  return mode === "studio" && typeof url === "string" && url !== "" ? url : null;
}

/**
 * Whether a person deals the table from a card-reading shoe (a studio table).
 * @param {Partial<Table>} table
 */
export function isStudio(table) {
  return settings(table).mode === "studio";
}

/**
 * A studio table's desk: what it waits for (`next`), a halt, a card waiting for the supervisor,
 * the dealer seated; null at a table the server deals.
 * @param {Partial<Table>} table
 * @returns {import("./studionotice.js").Desk | null}
 */
export function studioDesk(table) {
  return table.studio ?? null;
}

/**
 * A person's name as the page shows it: a login name (the server keeps staff usernames in lower
 * case, "dana") with a capital first letter, "Dana"; a name written otherwise as it was written.
 * @param {string} name
 * @returns {string}
 */
export function personName(name) {
  return name === name.toLocaleLowerCase() ? name.charAt(0).toLocaleUpperCase() + name.slice(1) : name;
}

/**
 * The dealer seated at a studio table (a name, as shown), or null.
 * @param {Partial<Table>} table
 * @returns {string | null}
 */
export function dealerName(table) {
  const name = studioDesk(table)?.dealer;
  return typeof name === "string" && name !== "" ? personName(name) : null;
}

/**
 * Whether a shoe (the one in play, or an ended one) is a studio's: read as it left a physical
 * shoe, with a shuffle certificate instead of a seed.
 * @param {any} shoe
 */
export function isStudioShoe(shoe) {
  return shoe?.kind === "studio";
}

/**
 * "face-up" or "face-down".
 * @param {Table} table
 * @returns {"face-up" | "face-down"}
 */
export function dealing(table) {
  return settings(table).dealing === "face-down" ? "face-down" : "face-up";
}

/**
 * The current round: {id, number, phase, closes_at (epoch ms)}, or null.
 * @param {{round?: Round | null}} table
 * @returns {Round | null}
 */
export function currentRound(table) {
  const round = table.round;
  if (!round) return null;
  // The API gives the deadline as ISO text (closes_at) and as epoch ms (closes_at_ms).
  const closes = Number.isFinite(round.closes_at_ms) ? round.closes_at_ms : Date.parse(round.closes_at);
  return { ...round, closes_at: closes };
}

/**
 * The round in an event (round_open carries closes_at_ms too).
 * @param {Record<string, any>} event
 * @returns {Round | null}
 */
export function roundFromEvent(event) {
  return currentRound({
    round: {
      id: event.round_id,
      number: event.number,
      phase: "open",
      closes_at: event.closes_at,
      closes_at_ms: event.closes_at_ms,
    },
  });
}

/**
 * The round as people at this table count it, "Shoe 12 · Round 34": the shoe's number at the
 * table and the round's number in its shoe (the server-wide round id is for history details).
 * Empty without a round.
 * @param {Partial<Table>} table
 * @param {Round | null | undefined} round
 * @returns {string}
 */
export function roundLabel(table, round) {
  if (!round?.number) return "";
  return t("stage.round", { shoe: table.shoe?.number ?? "–", round: round.number });
}

/**
 * The cards of the current round revealed so far: [{hand, position, index, card}].
 * @param {Table} table
 * @returns {RevealedCard[]}
 */
export function revealedCards(table) {
  return table.cards ?? [];
}

/**
 * The current round's result once all its cards are revealed, else null.
 * @param {Table} table
 */
export function result(table) {
  return table.result ?? null;
}

/**
 * The roads snapshot.
 * @param {Table} table
 */
export function roads(table) {
  return table.roads ?? null;
}

/**
 * The shoe in play: {id, number, algorithm, decks, commitment, cards_left}.
 * @param {Table} table
 */
export function shoe(table) {
  return table.shoe ?? null;
}

/**
 * The last ended shoe with its revealed seed ({id, server_seed, digest}), or null.
 * @param {Table} table
 */
export function finishedShoe(table) {
  return table.previous_shoe ?? null;
}

/**
 * How many connections watch the table.
 * @param {Table} table
 * @returns {number}
 */
export function watching(table) {
  return table.watching ?? 0;
}

/**
 * Every player's stakes on the table's round, summed per spot (minor units).
 * @param {Table} table
 * @returns {Record<string, number>}
 */
export function allStakes(table) {
  return table.stakes ?? {};
}

/**
 * Each spot's share (0 to 1) of all players' stakes on the round; empty while nobody staked.
 * @param {Record<string, number>} totals  {spot: minor}
 * @returns {Record<string, number>}
 */
export function stakeShares(totals) {
  const entries = Object.entries(totals).filter(([, stake]) => Number.isFinite(stake) && stake > 0);
  const sum = entries.reduce((all, [, stake]) => all + stake, 0);
  /** @type {Record<string, number>} */
  const shares = {};
  if (sum > 0) for (const [spot, stake] of entries) shares[spot] = stake / sum;
  return shares;
}

/**
 * The caller's stakes still in play, from GET /api/rounds/{id}'s bets: {spot: minor}.
 * @param {{bets?: {spot: string, stake: number, outcome?: string | null}[]} | null | undefined} roundView
 * @returns {Record<string, number>}
 */
export function openStakes(roundView) {
  /** @type {Record<string, number>} */
  const stakes = {};
  for (const bet of roundView?.bets ?? []) {
    if (bet.outcome === null || bet.outcome === undefined) stakes[bet.spot] = (stakes[bet.spot] ?? 0) + bet.stake;
  }
  return stakes;
}
