// @ts-check
// Formatting for people: money, odds, bet names and durations.
// Money arrives as integer minor units; it is split with integer arithmetic, never divided
// into a float, so 1005 is always "10.05".

const grouping = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
let currencySymbol = "$";

/**
 * Use the symbol the server names (when it names one).
 * @param {unknown} symbol
 */
export function setCurrency(symbol) {
  if (typeof symbol === "string") currencySymbol = symbol;
}

/**
 * 123456 -> "$1,234.56"; negative amounts get a minus sign.
 * @param {number | null | undefined} minor  an amount in minor units
 * @returns {string}
 */
export function money(minor) {
  if (!Number.isSafeInteger(minor)) return "–";
  const sign = minor < 0 ? "−" : "";
  const abs = Math.abs(minor);
  const major = Math.trunc(abs / 100);
  const cents = String(abs % 100).padStart(2, "0");
  return `${sign}${currencySymbol}${grouping.format(major)}.${cents}`;
}

/**
 * A chip face: 100 -> "1", 2500 -> "25", 100000 -> "1K", 50 -> "0.50".
 * @param {number} minor
 * @returns {string}
 */
export function chipLabel(minor) {
  if (minor % 100 !== 0) return `${Math.trunc(minor / 100)}.${String(minor % 100).padStart(2, "0")}`;
  const major = minor / 100;
  if (major >= 1_000_000 && major % 1_000_000 === 0) return `${major / 1_000_000}M`;
  if (major >= 1000 && major % 1000 === 0) return `${major / 1000}K`;
  return String(major);
}

const NAMES = {
  player: "Player",
  banker: "Banker",
  tie: "Tie",
  player_pair: "Player Pair",
  banker_pair: "Banker Pair",
  either_pair: "Either Pair",
  perfect_pair: "Perfect Pair",
  // The side is told by the spot's colour and place (and by its spoken label).
  dragon_bonus_player: "Dragon Bonus",
  dragon_bonus_banker: "Dragon Bonus",
  big: "Big",
  small: "Small",
  dragon_7: "Dragon 7",
  panda_8: "Panda 8",
  super_6: "Super 6",
};

/**
 * The short name of a bet spot ("dragon_bonus_player" -> "Dragon Bonus P"); else the API's label.
 * @param {string} bet
 * @param {string} [label]
 * @returns {string}
 */
export function betName(bet, label) {
  return NAMES[bet] ?? label ?? bet.replaceAll("_", " ").replace(/\b\w/g, (c) => c.toUpperCase());
}

const EVENTS = {
  win: "win",
  tie: "tie",
  win_6: "Banker win on 6",
  win_three_card_7: "Banker three-card 7",
  natural_win: "natural win",
  natural_tie: "natural tie",
  pair: "pair",
  perfect_pair: "perfect pair",
};

/**
 * An event of a pay table for people ("win_by_9" -> "win by 9").
 * @param {string} event
 * @returns {string}
 */
export function eventName(event) {
  return EVENTS[event] ?? event.replaceAll("_", " ");
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
 * Odds as casinos print them. "19:20" -> "0.95:1", "3:2" -> "1.5:1", "8:1" -> "8:1",
 * "half" -> "1:2" (the no-commission Banker 6), "push" -> "push". Odds that are not a short
 * decimal stay "a:b".
 * @param {string} text
 * @returns {string}
 */
export function odds(text) {
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
