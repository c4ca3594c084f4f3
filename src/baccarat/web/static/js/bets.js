// @ts-check
// The betting layout: one button per bet the table's rule set offers, each with its payout,
// the amount the player has on it and its share of all players' stakes on the round (live). Offered bets and pay tables come from the API, so a
// rule set with other side bets gets other spots without a change here.

import { fill, h } from "./dom.js";
import { chipFace } from "./chips.js";
import { betName, chipLabel, eventName, money, odds, oddsValue } from "./format.js";
import { formatNumber, t } from "./i18n.js";

const MAIN = ["player", "banker"];
const MIDDLE = ["player_pair", "tie", "banker_pair"];
// Side bets left to right: Player's at the left, Banker's at the right, neutral ones between.
const SIDE_ORDER = [
  "dragon_bonus_player",
  "panda_8",
  "either_pair",
  "perfect_pair",
  "big",
  "small",
  "super_6",
  "dragon_7",
  "dragon_bonus_banker",
];
/** @type {Record<string, string>} */
const TONES = {
  player: "player",
  player_pair: "player",
  dragon_bonus_player: "player",
  panda_8: "player",
  banker: "banker",
  banker_pair: "banker",
  dragon_bonus_banker: "banker",
  dragon_7: "banker",
  super_6: "banker",
  tie: "tie",
};
const MAIN_EVENTS = ["win", "tie", "pair", "perfect_pair", "big", "small"];

/**
 * A pay table in one glance: {headline, note, detail}.
 * {win: "19:20", tie: "push"} -> headline "0.95:1"; many win events -> "up to 30:1".
 * @param {Record<string, string> | null | undefined} pays
 * @returns {{headline: string, note: string, detail: string}}
 */
export function payoutSummary(pays) {
  const entries = Object.entries(pays ?? {});
  const wins = entries.filter(([, text]) => oddsValue(text) > 0);
  const detail = entries
    .map(([event, text]) =>
      t("odds.event", { event: eventName(event), odds: text === "push" ? t("odds.push") : odds(text) }),
    )
    .join(" · ");
  if (wins.length > 2) {
    const best = wins.reduce((a, b) => (oddsValue(b[1]) > oddsValue(a[1]) ? b : a));
    return { headline: t("odds.up_to", { odds: odds(best[1]) }), note: "", detail };
  }
  const main = entries.find(([event]) => MAIN_EVENTS.includes(event)) ?? entries[0];
  if (!main) return { headline: "", note: "", detail };
  const notes = entries
    .filter(([event, text]) => event !== main[0] && !(event === "tie" && text === "push"))
    .map(([event, text]) =>
      text === "push"
        ? t("odds.pushes", { event: eventName(event) })
        : t("odds.pays", { event: eventName(event), odds: odds(text) }),
    );
  return { headline: odds(main[1]), note: notes.join("; "), detail };
}

/**
 * A spot's limits in a glance, as its chips are written: "1 – 2K", at a rupiah table "10rb – 5jt".
 * @param {import("./model.js").BetOffer} rule
 * @returns {string}
 */
export function limitsText(rule) {
  return `${chipLabel(rule.min_stake)} – ${chipLabel(rule.max_stake)}`;
}

/**
 * @param {string} name
 * @param {import("./model.js").BetOffer} rule
 * @param {number} stake
 * @param {{headline: string, note: string}} summary
 * @param {string | null} share  the spot's share of all stakes, as written ("45%"), or null
 * @param {number} [pending]  chips laid but not yet confirmed (the confirm step)
 */
function spotLabel(name, rule, stake, summary, share, pending = 0) {
  // What the spot shows comes first and in its order (a name that holds the visible text, so
  // speech control by the words on screen finds the spot: WCAG 2.5.3), then what it does not show.
  const parts = [t("spot.label", { name: betName(name, rule.label), odds: summary.headline })];
  if (summary.note) parts.push(summary.note);
  if (share !== null) parts.push(t("spot.share", { percent: share }));
  // In the order the amounts are drawn: a stake, else chips laid (their amount where the
  // stake's would be), else none.
  if (stake) parts.push(t("spot.stake", { amount: money(stake) }));
  if (pending) parts.push(t("spot.pending", { amount: money(pending) }));
  if (!stake && !pending) parts.push(t("spot.no_stake"));
  return `${parts.join(", ")}. ${t("spot.limits", { min: money(rule.min_stake), max: money(rule.max_stake) })}`;
}

/**
 * The layout. `onBet(name)` is called when a spot is chosen.
 * Returns {el, update({bets, stakes, shares, open, outcome})}.
 * @param {(name: string) => void} onBet
 */
export function betLayout(onBet) {
  const el = h("section", { class: "bets", "aria-label": t("spots.label") });
  /** @type {Map<string, HTMLButtonElement>} */
  const spots = new Map();
  /** @type {Map<string, string>} */
  const drawn = new Map();
  let offered = "";

  /** @param {Record<string, import("./model.js").BetOffer>} bets */
  function build(bets) {
    spots.clear();
    drawn.clear();
    const names = Object.keys(bets);
    const spot = (/** @type {string} */ name, /** @type {string} */ size) => {
      const button = h("button", {
        type: "button",
        class: `spot spot--${TONES[name] ?? "neutral"} spot--${size}`,
        dataset: { bet: name },
        onclick: () => onBet(name),
      });
      spots.set(name, button);
      return button;
    };
    const side = SIDE_ORDER.filter((name) => names.includes(name)).concat(
      names.filter((name) => !SIDE_ORDER.includes(name) && !MAIN.includes(name) && !MIDDLE.includes(name)),
    );
    fill(
      el,
      side.length
        ? h(
            "div",
            { class: "bets__row bets__row--side" },
            side.map((name) => spot(name, "side")),
          )
        : null,
      h(
        "div",
        { class: "bets__row bets__row--middle" },
        MIDDLE.filter((n) => names.includes(n)).map((n) => spot(n, n === "tie" ? "tie" : "pair")),
      ),
      h(
        "div",
        { class: "bets__row bets__row--main" },
        MAIN.filter((n) => names.includes(n)).map((n) => spot(n, "main")),
      ),
    );
  }

  /**
   * @param {{bets: Record<string, import("./model.js").BetOffer>, stakes?: Record<string, number>,
   *   shares?: Record<string, number>, open?: boolean, winners?: Set<string>, offline?: boolean,
   *   pending?: Record<string, number>}} view
   *   shares: each spot's share (0 to 1) of all players' stakes; offline: the feed is down,
   *   every spot is disabled (not only marked unavailable); pending: chips laid but not yet
   *   confirmed, which the server has not seen
   */
  function update({
    bets,
    stakes = {},
    shares = {},
    open = false,
    winners = new Set(),
    offline = false,
    pending = {},
  }) {
    const key = JSON.stringify(bets);
    if (key !== offered) {
      offered = key;
      build(bets);
    }
    el.classList.toggle("is-closed", !open);
    for (const [name, button] of spots) {
      const rule = bets[name];
      const stake = stakes[name] ?? 0;
      button.setAttribute("aria-disabled", String(!open));
      button.disabled = offline;
      button.classList.toggle("has-stake", stake > 0);
      button.classList.toggle("is-winner", winners.has(name));
      // Rebuild a spot's insides only when they change: a click that lands while its
      // children are being replaced could otherwise be lost.
      const part = shares[name];
      // Whole percents as the language writes them ("45%", "45 %"); none while nobody staked.
      const share = part === undefined ? null : formatNumber(part, { style: "percent" });
      const laid = pending[name] ?? 0;
      const key = `${stake}|${laid}|${share}|${JSON.stringify(rule)}`;
      if (drawn.get(name) === key) continue;
      drawn.set(name, key);
      const summary = payoutSummary(rule.pays);
      button.setAttribute("aria-label", spotLabel(name, rule, stake, summary, share, laid));
      button.classList.toggle("has-pending", laid > 0);
      button.title = t("spot.title", {
        name: betName(name, rule.label),
        detail: summary.detail,
        min: money(rule.min_stake),
        max: money(rule.max_stake),
      });
      // Spaces between the parts: the words of the spot read apart ("Tie 8:1", not "Tie8:1"),
      // as its name says them (spotLabel).
      fill(
        button,
        h("span", { class: "spot__name" }, betName(name, rule.label)),
        " ",
        h("span", { class: "spot__odds" }, summary.headline),
        " ",
        summary.note ? h("span", { class: "spot__note" }, summary.note) : null,
        " ",
        share === null
          ? null
          : h("span", { class: "spot__share", dataset: { share: String(part) } }, t("spot.share", { percent: share })),
        " ",
        stake
          ? h(
              "span",
              { class: "spot__stake", dataset: { stake: String(stake) } },
              chipFace(stake, "chip--stake", true),
              h("span", { class: "spot__amount" }, money(stake)),
              // Chips laid on a stake and not confirmed lie across it: the spot does not grow.
              laid
                ? h(
                    "span",
                    { class: "spot__laid", dataset: { pending: String(laid) } },
                    chipFace(laid, "chip--stake chip--pending", true),
                  )
                : null,
            )
          : null,
        // Chips laid but not confirmed: drawn apart (dashed, translucent), never as a stake.
        laid && !stake
          ? h(
              "span",
              { class: "spot__stake spot__stake--pending", dataset: { pending: String(laid) } },
              chipFace(laid, "chip--stake chip--pending", true),
              h("span", { class: "spot__amount" }, money(laid)),
            )
          : null,
        // The limits on the spot's edge, drawn by CSS: as text they would be words that its
        // name (which says them in full) lacks.
        h("span", { class: "spot__limits", "aria-hidden": "true", dataset: { limits: limitsText(rule) } }),
      );
    }
  }

  return { el, update };
}
