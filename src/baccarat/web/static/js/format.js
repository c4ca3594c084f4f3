// @ts-check
// Formatting for people: money, odds, bet names and durations, in the language shown (i18n.js).
// Money arrives as integer minor units; it is split with integer arithmetic, never divided
// into a float, so 1005 is always "10.05" (written "$10.05", or "$10,05" in Indonesian).

import { decimalMark, formatMoney, has, moneyDigits, t } from "./i18n.js";

/**
 * 123456 -> "$1,234.56"; negative amounts get a minus sign. In the money's own currency, or in
 * `currency` ({code, digits}: a rule set's, model.currency) when given.
 * @param {number | null | undefined} minor  an amount in minor units
 * @param {{code: string, digits: number}} [currency]
 * @returns {string}
 */
export function money(minor, currency) {
  return currency ? formatMoney(minor, currency.code, currency.digits) : formatMoney(minor);
}

/**
 * A chip face in the money shown: 100 -> "1", 2500 -> "25", 100000 -> "1K", 50 -> "0.50" in
 * cents; at a rupiah table (whole rupiah) 10000 -> "10rb", 1000000 -> "1jt" in Indonesian.
 * @param {number} minor
 * @param {number} [digits]  the money's minor-unit exponent (the money shown's by default)
 * @returns {string}
 */
export function chipLabel(minor, digits = moneyDigits()) {
  const unit = 10 ** digits;
  if (minor % unit !== 0)
    return `${Math.trunc(minor / unit)}${decimalMark()}${String(minor % unit).padStart(digits, "0")}`;
  const major = minor / unit;
  if (major >= 1_000_000 && major % 1_000_000 === 0) return t("chip.millions", { n: major / 1_000_000 });
  if (major >= 1000 && major % 1000 === 0) return t("chip.thousands", { n: major / 1000 });
  return String(major);
}

/**
 * The name of a bet spot in the language shown ("dragon_bonus_player" -> "Dragon Bonus Player"),
 * every spot's distinct; a bet the catalogues do not know keeps the API's label.
 * @param {string} bet
 * @param {string} [label]
 * @returns {string}
 */
export function betName(bet, label) {
  if (has(`bet.${bet}`)) return t(`bet.${bet}`);
  return label ?? bet.replaceAll("_", " ").replace(/\b\w/g, (c) => c.toUpperCase());
}

/**
 * An event of a pay table for people ("win_by_9" -> "win by 9"), in the language shown.
 * @param {string} event
 * @returns {string}
 */
export function eventName(event) {
  if (has(`event.${event}`)) return t(`event.${event}`);
  const by = /^win_by_(\d+)$/.exec(event);
  if (by) return t("event.win_by", { points: by[1] });
  const tie = /^tie_(\d+)$/.exec(event);
  if (tie) return t("event.tie_on", { total: tie[1] });
  return event.replaceAll("_", " ");
}

/**
 * @param {number} a
 * @param {number} b
 * @returns {number}
 */
function gcd(a, b) {
  return b === 0 ? a : gcd(b, a % b);
}

/**
 * Odds as live tables print them: the one house style wherever the page shows a payout (the
 * spots, their notes and titles, the rules page), as the server prints them too
 * (baccarat.rulespage.odds_text: the rules data's "odds", `baccarat rules`).
 * "19:20" -> "0.95:1", "3:2" -> "1.5:1", "8:1" -> "8:1", "half" -> "1:2" (the no-commission
 * Banker 6), "push" -> "push". Odds that are not a short decimal stay "a:b", in lowest terms.
 * @param {string} text
 * @returns {string}
 */
export function odds(text) {
  const printed = oddsText(text);
  // A decimal in the odds takes the language's decimal mark ("0.95:1", Indonesian "0,95:1").
  return decimalMark() === "." ? printed : printed.replace(".", decimalMark());
}

/**
 * @param {string} text
 * @returns {string}
 */
function oddsText(text) {
  if (text === "half") return "1:2";
  const match = /^(\d+):(\d+)$/.exec(String(text));
  if (!match) return String(text);
  let [win, stake] = [Number(match[1]), Number(match[2])];
  const d = gcd(win, stake);
  [win, stake] = [win / d, stake / d];
  if (stake === 1) return `${win}:1`;
  for (const places of [1, 2]) {
    const scale = 10 ** places;
    if ((win * scale) % stake === 0) {
      const hundredths = (win * scale) / stake;
      const whole = Math.trunc(hundredths / scale);
      const frac = String(hundredths % scale).padStart(places, "0");
      return `${whole}.${frac}:1`;
    }
  }
  return `${win}:${stake}`;
}

/**
 * Profit per unit of a pay-table entry, for ordering ("8:1" -> 8, "push" -> 0).
 * @param {string} text
 * @returns {number}
 */
export function oddsValue(text) {
  if (text === "half") return 0.5;
  const match = /^(\d+):(\d+)$/.exec(String(text));
  return match ? Number(match[1]) / Number(match[2]) : 0;
}

/**
 * Whole seconds left, rounded up, never negative.
 * @param {number} ms
 * @returns {number}
 */
export function secondsLeft(ms) {
  return Math.max(0, Math.ceil(ms / 1000));
}

/**
 * A long hex string shortened for display, the whole of it kept for copy and screen readers.
 * @param {string | null | undefined} hex
 * @param {number} [keep]  characters kept at each end
 * @returns {string}
 */
export function shortHex(hex, keep = 10) {
  if (typeof hex !== "string" || hex.length <= keep * 2 + 1) return hex ?? "";
  return `${hex.slice(0, keep)}…${hex.slice(-keep)}`;
}
