// @ts-check
// A refused request in words for people, in the language shown. The server's codes are stable;
// its messages are English sentences in minor units, and the page never shows them: each code is
// worded from the catalogues (i18n.js), with the values the page knows (the table's stake limits,
// the balance) and those the refusal's `details` carry (a limit's amounts, a break's end, a spot's
// bound, a deposit bound). Only a body without `details` (an older server) has them read from its
// message, where its wording is fixed.

import { breakEndOf } from "./breakmemo.js";
import { betName, money } from "./format.js";
import { has, t, utcStamp } from "./i18n.js";

const PERIODS = { "24 hours": "24h", "7 days": "7d", "30 days": "30d" };

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
 * "1,234.56" (the server's major units) -> 123456.
 * @param {string} text
 * @returns {number}
 */
function minorOf(text) {
  const [whole, part] = text.replaceAll(",", "").split(".");
  return Number(whole) * 100 + Number(part);
}

/**
 * A limit's name in the language shown: "loss limit (24 hours)".
 * @param {string} kind  deposit, loss or wager
 * @param {string} period  24h, 7d or 30d
 * @returns {string}
 */
export function limitName(kind, period) {
  return t("limit.name_message", { kind: t(`limit.kind.${kind}`), period: t(`limit.period.${period}`) });
}

/**
 * @param {unknown} value
 * @returns {value is number}
 */
function isAmount(value) {
  return Number.isInteger(value) && /** @type {number} */ (value) >= 0;
}

/**
 * limit_exceeded in words, from the refusal's details (kind, period, limit, left); without
 * them, from "loss limit (24 hours) reached: 5.00 left of 15.00", how the server writes it.
 * @param {string | undefined} message
 * @param {import("./api.js").RefusalDetails | null} details
 * @returns {string}
 */
function limitWords(message, details) {
  if (
    details &&
    typeof details.kind === "string" &&
    typeof details.period === "string" &&
    isAmount(details.limit) &&
    isAmount(details.left) &&
    has(`limit.kind.${details.kind}`) &&
    has(`limit.period.${details.period}`)
  ) {
    const name = limitName(details.kind, details.period);
    return t("error.limit_exceeded", {
      name: name.charAt(0).toLocaleLowerCase() + name.slice(1),
      left: money(details.left),
      limit: money(details.limit),
    });
  }
  const found =
    /^(deposit|loss|wager) limit \((24 hours|7 days|30 days)\) reached: ([\d,]+\.\d\d) left of ([\d,]+\.\d\d)/.exec(
      message ?? "",
    );
  if (!found) return t("error.limit_exceeded_plain");
  const name = limitName(found[1], PERIODS[found[2]]);
  return t("error.limit_exceeded", {
    name: name.charAt(0).toLocaleLowerCase() + name.slice(1),
    left: money(minorOf(found[3])),
    limit: money(minorOf(found[4])),
  });
}

/**
 * The words of a refusal's code, with whatever the page can say about it.
 * @param {{status?: number, code?: string, message?: string, details?: import("./api.js").RefusalDetails | null}} error  an ApiError
 * @param {{offered?: Record<string, import("./model.js").BetOffer>, balance?: number | null, bet?: boolean}} context
 * @returns {string}
 */
function words(error, { offered = {}, balance = null, bet = false }) {
  const code = error?.code ?? "";
  const message = error?.message ?? "";
  const details = error?.details && typeof error.details === "object" ? error.details : null;
  const named = typeof details?.spot === "string" ? details.spot : null;
  const spot = named ?? spotOf(message, offered);
  const rule = spot ? offered[spot] : undefined;
  // The bound of the spot: the refusal's own, else the table's as the page knows it.
  const bound = isAmount(details?.limit) ? details.limit : null;
  switch (code) {
    case "insufficient_funds":
      return Number.isInteger(balance)
        ? t("error.insufficient_funds", { balance: money(/** @type {number} */ (balance)) })
        : t("error.insufficient_funds_plain");
    case "above_maximum": {
      const most = bound ?? rule?.max_stake;
      return spot && (rule || named) && most !== undefined
        ? t("error.above_maximum", { bet: betName(spot, rule?.label), amount: money(most) })
        : t("error.above_maximum_plain");
    }
    case "below_minimum": {
      const least = bound ?? rule?.min_stake;
      return spot && (rule || named) && least !== undefined
        ? t("error.below_minimum", { bet: betName(spot, rule?.label), amount: money(least) })
        : t("error.below_minimum_plain");
    }
    case "bet_not_offered":
      return t("error.unknown_bet");
    case "wallet_refused":
      // An operator's wallet said no; its own code is the details' kind.
      return details?.kind === "insufficient_funds" ? t("error.insufficient_funds_plain") : t("error.wallet_refused");
    case "limit_exceeded":
      return limitWords(message, details);
    case "time_out":
    case "self_excluded": {
      const until = breakEndOf(error);
      return until === null ? t("error.break_plain") : t(`error.${code}`, { time: utcStamp(until) });
    }
    case "deposit_too_large": {
      if (bound !== null) return t("error.deposit_too_large", { amount: money(bound) });
      const most = /at most (\d+)/.exec(message);
      return most
        ? t("error.deposit_too_large", { amount: money(Number(most[1])) })
        : t("error.deposit_too_large_plain");
    }
    case "balance_limit": {
      if (bound !== null && isAmount(details?.left)) {
        return t("error.balance_limit", { amount: money(bound), room: money(details.left) });
      }
      const bounds = /at most (\d+): you may deposit up to (\d+)/.exec(message);
      return bounds
        ? t("error.balance_limit", { amount: money(Number(bounds[1])), room: money(Number(bounds[2])) })
        : t("error.balance_limit_plain");
    }
    case "rate_limited": {
      const seconds = /in (\d+) s/.exec(message);
      return seconds ? t("error.rate_limited", { seconds: seconds[1] }) : t("error.rate_limited_plain");
    }
    case "network":
      return t(bet ? "error.network_bet" : "error.network");
    case "blocked":
      // The page's own refusal (no demo play during a break), already in words.
      return message;
    default:
      if (code && has(`error.${code}`)) return t(`error.${code}`);
      return t(bet ? "error.other_bet" : "error.other", { code: code || error?.status || "?" });
  }
}

/**
 * A refused bet request in words.
 * @param {{status: number, code: string, message: string, details?: import("./api.js").RefusalDetails | null}} error  an ApiError
 * @param {Record<string, import("./model.js").BetOffer>} offered  the table's bets ({name: {label, min_stake, max_stake}})
 * @param {number|null} balance  the balance last shown
 * @returns {string}
 */
export function explain(error, offered, balance) {
  return words(error, { offered, balance, bet: true });
}

/**
 * Any refused or failed request (a login, a deposit, a limit, a list that cannot be read) in
 * words. An error that is not the API's (a script's own) says only that something went wrong.
 * @param {any} error
 * @returns {string}
 */
export function errorText(error) {
  return words(error ?? {}, {});
}
