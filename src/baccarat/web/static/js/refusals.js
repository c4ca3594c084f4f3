// @ts-check
// A refused request in words for people. The server's codes are stable; its messages speak in
// minor units, so limits are restated here as money from the table's own bet list.

import { betName, money } from "./format.js";

/**
 * The bet a limit refusal names: the server's message starts "tie: ...".
 * @param {string | undefined} message
 * @param {Record<string, import("./model.js").BetOffer>} offered
 * @returns {string | null}
 */
function spotOf(message, offered) {
  const name = /^([a-z0-9_]+):/.exec(message ?? "")?.[1];
  return name && offered[name] ? name : null;
}

/**
 * @param {{status: number, code: string, message: string}} error  an ApiError
 * @param {Record<string, import("./model.js").BetOffer>} offered  the table's bets ({name: {label, min_stake, max_stake}})
 * @param {number|null} balance  the balance last shown
 * @returns {string}
 */
export function explain(error, offered, balance) {
  const code = error?.code;
  const spot = spotOf(error?.message, offered);
  const rule = spot && offered[spot];
  switch (code) {
    case "betting_closed":
      return "Betting is closed for this round. Wait for the next one.";
    case "insufficient_funds":
      return Number.isInteger(balance)
        ? `Not enough balance for that bet: you have ${money(balance)}.`
        : "Not enough balance for that bet.";
    case "above_maximum":
      return rule
        ? `Limit exceeded: ${betName(spot, rule.label)} takes at most ${money(rule.max_stake)} per round.`
        : `Limit exceeded: ${error.message}`;
    case "below_minimum":
      return rule
        ? `Below the minimum: ${betName(spot, rule.label)} takes at least ${money(rule.min_stake)}.`
        : `Below the minimum: ${error.message}`;
    case "no_previous_bets":
      return "There are no bets from your previous round to repeat.";
    case "unauthorized":
      return "Your seat has expired. Take a seat again to bet.";
    case "limit_exceeded":
      return `Refused by your own limit: ${error.message}`;
    case "reality_check_due":
      return "A reality check is due: read it and continue before your next bet.";
    case "session_limit":
      return "Your session time limit is reached: bets placed settle, no new bets this session.";
    case "time_out":
    case "self_excluded":
      return `You are on a break: ${error.message}`;
    case "network":
      return "The table server cannot be reached. Nothing was placed.";
    default:
      return error?.message || "Something went wrong. Nothing was placed.";
  }
}
