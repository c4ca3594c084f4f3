// @ts-check
// What the dealer does next, read from the console's answer (GET /api/studio/tables/{t}): its
// kind (the colour and icon) and its words, catalogue keys with their values. The server says
// what is due (`next`: a slot such as "banker_3", "burn", "wait_bets", "result",
// "shoe_change", "halted", "misscan_pending"); the tableau's verdict on the hand that does not
// draw is implied by it (next "banker_3" after four cards: the Player stood and the Banker
// draws), and this module only says so in words. Nothing here decides anything.

import { cardName, handTotal } from "../cards.js";

/** @typedef {import("../i18n.js").Value} Value */
/**
 * A catalogue key and its values; `english` names the values that are the server's own words
 * (in English whatever the language shown: the page marks them so).
 * @typedef {{key: string, values?: Record<string, Value>, english?: string[]}} Words
 */
/**
 * What is due: `kind` is deal, draw, burn, wait, bets, shoe, halt, misscan or result.
 * @typedef {{kind: string, next: string, headline: Words, detail: Words | null}} Due
 */
/** @typedef {{player: string[], banker: string[]}} Hands */

const SLOT = /^(player|banker)_([1-3])$/;

/**
 * The cards shown so far, by hand, in their places.
 * @param {{hand: string, position: number, card: string}[] | null | undefined} cards
 * @returns {Hands}
 */
export function hands(cards) {
  /** @type {Hands} */
  const found = { player: [], banker: [] };
  const sorted = [...(cards ?? [])].sort((a, b) => a.position - b.position);
  for (const card of sorted) {
    if (card.hand === "player" || card.hand === "banker") found[card.hand].push(card.card);
  }
  return found;
}

/**
 * The read waiting for a supervisor of `kind` ("misscan" or "impossible"), if one is.
 * @param {any} view
 * @param {string} kind
 * @returns {{id: number, card: string, reason: string, read_by?: string} | null}
 */
export function waitingRead(view, kind) {
  return (view?.pending ?? []).find((/** @type {any} */ read) => read.kind === kind) ?? null;
}

/**
 * Whether a round is in play (not between rounds): open, closed or dealt.
 * @param {any} round
 * @returns {boolean}
 */
export function inPlay(round) {
  return Boolean(round) && !["settled", "voided"].includes(round.phase);
}

/**
 * What is due at the table whose console answer is `view`.
 * @param {any} view
 * @returns {Due}
 */
export function dueOf(view) {
  const next = String(view?.next ?? "shoe_change");
  const studio = view?.studio ?? {};
  const round = view?.round ?? null;
  const { player, banker } = hands(view?.cards);
  /**
   * @param {string} kind
   * @param {string} key
   * @param {Words | null} [detail]
   * @param {Record<string, Value>} [values]
   * @returns {Due}
   */
  const due = (kind, key, detail = null, values = {}) => ({ kind, next, headline: { key, values }, detail });

  /** The coup is complete: the stand that ended it, and the totals. */
  const complete = () => {
    const totals = { player: handTotal(player), banker: handTotal(banker) };
    const why = { key: "studio.why.result", values: totals };
    const natural = player.length === 2 && banker.length === 2 && (totals.player >= 8 || totals.banker >= 8);
    if (natural) return due("result", "studio.due.result_natural", why);
    if (banker.length === 2 && player.length === 2) return due("result", "studio.due.result_both_stand", why);
    if (banker.length === 2) return due("result", "studio.due.result_banker_stands", why);
    return due("result", "studio.due.result", why);
  };

  const slot = SLOT.exec(next);
  if (slot && studio.dummy) {
    // A dummy hand (the house's rule after a misdeal): its cards are not shown, so no totals.
    return due(slot[2] === "3" ? "draw" : "deal", `studio.due.${next}`, { key: "studio.why.dummy" });
  }
  if (slot) {
    const [, hand, place] = slot;
    const totals = { player: handTotal(player), banker: handTotal(banker) };
    if (place !== "3") return due("deal", `studio.due.${next}`);
    if (hand === "player")
      return due("draw", "studio.due.player_3", { key: "studio.why.player_draws", values: totals });
    if (player.length === 2) {
      return due("draw", "studio.due.banker_3", { key: "studio.why.player_stands_banker_draws", values: totals });
    }
    const third = player[2];
    return due("draw", "studio.due.banker_3", {
      key: "studio.why.banker_draws",
      values: { ...totals, card: () => cardName(third) },
    });
  }
  switch (next) {
    case "halted": {
      const read = waitingRead(view, "impossible");
      const detail = read && {
        key: "studio.why.halted",
        values: { card: () => cardName(read.card), reason: read.reason },
        english: ["reason"],
      };
      return due("halt", "studio.due.halted", detail);
    }
    case "misscan_pending": {
      const read = waitingRead(view, "misscan");
      const detail = read && {
        key: "studio.why.misscan",
        values: { card: () => cardName(read.card), reason: read.reason },
      };
      return due("misscan", "studio.due.misscan", detail);
    }
    case "shoe_change":
      return due("shoe", "studio.due.shoe", { key: view?.shoe ? "studio.why.shoe_finished" : "studio.why.shoe_none" });
    case "burn": {
      const count = Number(studio.burn_due ?? 0);
      if (!studio.reads) return due("burn", "studio.due.burn_first", { key: "studio.why.burn_first" });
      return due("burn", "studio.due.burn", { key: "studio.why.burn" }, { count });
    }
    case "wait_bets":
      // A settled coup whose result is still shown: complete, until the next round opens.
      if (round?.phase === "settled" && view?.result) return complete();
      if (round?.phase === "open") {
        const burns = view?.settings?.before_time === "burn";
        return due("bets", "studio.due.betting", { key: burns ? "studio.why.betting_burn" : "studio.why.betting" });
      }
      return due("wait", "studio.due.wait", { key: "studio.why.wait" });
    case "result":
      return complete();
    default:
      return due("wait", "studio.due.other", null, { next });
  }
}

/**
 * Where a card read went, in words: "burn_2", "player_1", "burned", "dummy_3".
 * @param {string} position
 * @returns {Words}
 */
export function positionWords(position) {
  const slot = SLOT.exec(position);
  if (slot) return { key: `studio.position.${position}` };
  const burn = /^burn_(\d+)$/.exec(position);
  if (burn) return { key: "studio.position.burn", values: { count: Number(burn[1]) } };
  const dummy = /^dummy_(\d+)$/.exec(position);
  if (dummy) return { key: "studio.position.dummy", values: { count: Number(dummy[1]) } };
  if (position === "burned") return { key: "studio.position.burned" };
  return { key: "studio.position.other", values: { position } };
}
