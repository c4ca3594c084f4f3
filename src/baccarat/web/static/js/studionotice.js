// @ts-check
// A studio table's notices (docs/studio.md, "On the players' page"): what the dealer's
// procedures mean for the players, in words and never with a card (the feed's `studio`
// messages carry none). Two kinds:
//
// - a state, shown for as long as it lasts, from the snapshot's `studio` object and from each
//   `studio` message's: the table halted for a supervisor, a card typed by hand waiting for
//   one, a dummy hand dealt on, no shoe in play, the burn of a new one. A newcomer connecting
//   mid-halt sees it from the snapshot.
// - an event, shown for a while from a `studio` message's `notice`: the halt resolved, a card
//   confirmed, a card burned, a new shoe (who shuffled it), a new dealer (their name).
//
// A game-before-time void is told by the void notice (its reason), not twice. Each text is
// said once through the page's live region, as the void notice's is.

import { announce, h } from "./dom.js";
import { t } from "./i18n.js";
import { personName } from "./model.js";

/** How long an event's notice stays (a state's stays as long as the state). */
export const EVENT_MS = 8000;

/**
 * A studio table's desk as the feed shows it (docs/events.schema.json, `studio`).
 * @typedef {{next?: string, halted?: boolean, misscan?: boolean, dummy?: boolean, dealer?: string | null}} Desk
 */

/**
 * The notice a desk's state calls for, or null: [name, text, tone].
 * @param {Desk | null | undefined} desk
 * @returns {[string, string, "alert" | "info"] | null}
 */
export function stateNotice(desk) {
  if (!desk) return null;
  if (desk.halted || desk.next === "halted") return ["halted", t("studio.halted"), "alert"];
  if (desk.misscan || desk.next === "misscan_pending") return ["misscan", t("studio.misscan"), "alert"];
  if (desk.dummy) return ["dummy", t("studio.dummy"), "info"];
  if (desk.next === "shoe_change") return ["no_shoe", t("studio.no_shoe"), "info"];
  if (desk.next === "burn") return ["burn", t("studio.burn"), "info"];
  return null;
}

/** The events worded here, and the key of each. @type {Record<string, string>} */
const EVENTS = {
  resumed: "studio.resumed",
  misscan_confirmed: "studio.confirmed",
  card_burned: "studio.card_burned",
  shoe_change: "studio.shoe_change",
  shoe_change_next: "studio.shoe_next",
  dealer_change: "studio.dealer_change",
  dummy_done: "studio.dummy_done",
};

/**
 * The words of a `studio` message's notice (`detail`: who shuffled, or the dealer's name), or
 * null for one that is told otherwise (a void) or not known here.
 * @param {string | null | undefined} notice
 * @param {string | null | undefined} [detail]
 * @returns {string | null}
 */
export function eventText(notice, detail) {
  const key = EVENTS[notice ?? ""];
  return key ? t(key, { name: detail ? personName(detail) : "–" }) : null;
}

/** The notice element, fed by the snapshot and the `studio` messages. */
export function studioNotice() {
  const text = h("span", { class: "studio-notice__text" }, "");
  const el = h(
    "div",
    { class: "studio-notice", hidden: true },
    h("span", { class: "studio-notice__icon", "aria-hidden": "true" }),
    text,
  );
  /** @type {Desk | null} */
  let desk = null;
  /** @type {[string, string] | null} */
  let event = null;
  /** @type {number | undefined} */
  let timer;

  function draw() {
    const state = stateNotice(desk);
    // A halt or a card waiting for the supervisor outranks any passing event.
    const shown = state && state[2] === "alert" ? state : event ? [event[0], event[1], "info"] : state;
    if (!shown) {
      el.hidden = true;
      text.textContent = "";
      delete el.dataset.notice;
      delete el.dataset.tone;
      return;
    }
    const [name, words, tone] = shown;
    const changed = el.hidden || text.textContent !== words;
    el.dataset.notice = name;
    el.dataset.tone = tone;
    text.textContent = words;
    el.hidden = false;
    if (changed) announce(words);
  }

  return {
    el,
    /**
     * A snapshot's `studio` (null at a table the server deals).
     * @param {Desk | null | undefined} studio
     */
    fromSnapshot(studio) {
      desk = studio ?? null;
      draw();
    },
    /**
     * A `studio` message: the desk now, and what happened.
     * @param {{studio?: Desk, notice?: string, detail?: string}} message
     */
    update(message) {
      desk = message.studio ?? desk;
      const words = eventText(message.notice, message.detail);
      if (words !== null) {
        event = [/** @type {string} */ (message.notice), words];
        window.clearTimeout(timer);
        timer = window.setTimeout(() => {
          event = null;
          draw();
        }, EVENT_MS);
      }
      draw();
    },
    destroy() {
      window.clearTimeout(timer);
    },
  };
}
