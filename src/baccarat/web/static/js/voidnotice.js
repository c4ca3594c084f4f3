// @ts-check
// The notice of a voided round: "Shoe 2 · Round 1 void — stakes returned", the round named as the
// table names it (its shoe's number at the table and its number in that shoe; the server-wide
// round id only tells rounds apart). It comes from a `round_void` event, or from a snapshot's
// `last_round`: a restart voids a round before the server listens,
// so a page that reconnects learns of it only from its snapshot. It stays until the table's
// next result, or until the player dismisses it (that round's notice is then not shown again).

import { announce, h } from "./dom.js";
import { t } from "./i18n.js";

// The server's reasons (baccarat.table.recovery), by what they say; any other is worded plainly.
/** @type {Record<string, string>} */
const REASONS = {
  "the table restarted before the cards were drawn; every stake is returned": "void.restart",
  "the table is no longer dealt and its cards were not drawn; every stake is returned": "void.undealt",
};

// A studio table's procedures (baccarat.live.studio_desk), by how their reasons begin.
/** @type {[string, string][]} */
const STUDIO_REASONS = [
  ["game before time:", "void.before_time"],
  ["misdeal:", "void.misdeal"],
  ["impossible card:", "void.impossible"],
];

/**
 * Why a round was voided, in the language shown (the server writes its reasons in English).
 * @param {string | null | undefined} reason
 * @returns {string}
 */
export function voidReason(reason) {
  const text = reason ?? "";
  const studio = STUDIO_REASONS.find(([start]) => text.startsWith(start));
  return t(REASONS[text] ?? studio?.[1] ?? "void.other");
}

/**
 * A finished round as a snapshot's `last_round` gives it: its server-wide `id`, the number of its
 * shoe at the table (`shoe_number`) and its `number` in that shoe.
 * @typedef {{id: number, shoe_number?: number | null, number?: number, phase: string, void_reason?: string | null}} LastRound
 */

/**
 * The notice for the table's last finished round, or null when it was not voided.
 * @param {LastRound | null | undefined} lastRound
 * @returns {string | null}
 */
export function voidText(lastRound) {
  if (lastRound?.phase !== "voided" || !Number.isInteger(lastRound.id)) return null;
  const shoe = Number.isInteger(lastRound.shoe_number) ? lastRound.shoe_number : "–";
  const round = Number.isInteger(lastRound.number) ? lastRound.number : "–";
  return t("void.notice", { shoe, round });
}

/** The notice element and its three inputs: a snapshot, a `round_void` event, a result. */
export function voidNotice() {
  const text = h("strong", { class: "void-notice__text" }, "");
  const reason = h("span", { class: "void-notice__reason" }, "");
  /** @type {Set<number>} */
  const dismissed = new Set();
  /** @type {number | null} */
  let current = null;
  const close = h(
    "button",
    {
      type: "button",
      class: "void-notice__close",
      "aria-label": t("void.dismiss"),
      onclick: () => {
        if (current !== null) dismissed.add(current);
        hide();
      },
    },
    "✕",
  );
  // Spoken through the page's one live region (the announcer), like every other result.
  const el = h("div", { class: "void-notice", hidden: true }, text, reason, close);

  /** @param {LastRound | null | undefined} round */
  function show(round) {
    const line = voidText(round);
    if (line === null || dismissed.has(round.id)) {
      hide();
      return;
    }
    current = round.id;
    text.textContent = line;
    reason.textContent = voidReason(round.void_reason);
    el.dataset.round = String(round.id);
    if (el.hidden) announce(`${line}. ${reason.textContent}`.trim());
    el.hidden = false;
  }

  function hide() {
    current = null;
    el.hidden = true;
    text.textContent = "";
    reason.textContent = "";
    delete el.dataset.round;
  }

  return {
    el,
    /** A snapshot's `last_round` (null, settled or voided). */
    fromSnapshot: (/** @type {LastRound | null | undefined} */ lastRound) => show(lastRound),
    /** A `round_void` event. */
    voided: (/** @type {{round_id: number, shoe_number?: number | null, number?: number, reason: string}} */ event) =>
      show({
        id: event.round_id,
        shoe_number: event.shoe_number,
        number: event.number,
        phase: "voided",
        void_reason: event.reason,
      }),
    /** A later round's result: the notice has had its time. */
    resulted: () => hide(),
  };
}
