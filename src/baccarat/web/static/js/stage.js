// @ts-check
// The card area: the Player and Banker hands, their totals and marks, the round's phase and
// countdown, and the result banner. Cards arrive one at a time, only once the server reveals them.

import { fill, h, reducedMotion } from "./dom.js";
import { cardSlot, handTotal, parseCard, reveal } from "./cards.js";
import { msUntil } from "./clock.js";
import { secondsLeft } from "./format.js";
import { t } from "./i18n.js";
import { phaseWords } from "./model.js";

const RING = 2 * Math.PI * 26;
/** How long the shuffle between two shoes is shown (less if the new shoe's first card comes sooner). */
export const SHUFFLE_MS = 3500;
/** How long a win's celebration stays (its burst is over well before). */
const CELEBRATION_MS = 4000;

/**
 * The animations on a card that end (a card sliding in, a card turning over), not the endless
 * glow and peel of a squeeze.
 * @param {Element | undefined} card
 * @returns {Animation[]}
 */
function finiteAnimations(card) {
  if (!card) return [];
  return card
    .getAnimations({ subtree: true })
    .filter((motion) => motion.playState === "running" && motion.effect?.getComputedTiming().endTime !== Infinity);
}

/**
 * Whether a card is still moving: sliding in, or turning over.
 * @param {Element | undefined} card
 */
function moving(card) {
  return finiteAnimations(card).length > 0;
}

/**
 * One hand's view.
 * @typedef {object} Hand
 * @property {HTMLDivElement} el
 * @property {HTMLSpanElement} total
 * @property {HTMLDivElement} cards
 * @property {HTMLDivElement} marks
 * @property {HTMLElement[]} slots  card slots by position
 * @property {string[]} codes  revealed card codes by position (counted once fully shown)
 */

/**
 * @param {"player" | "banker"} side
 * @returns {Hand}
 */
function handView(side) {
  const total = h("span", { class: "hand__total" }, "");
  const cards = h("div", { class: "hand__cards" });
  const marks = h("div", { class: "hand__marks" });
  const el = h(
    "div",
    {
      class: `hand hand--${side}`,
      role: "group",
      "aria-label": t("stage.hand", { side: t(`side.${side}`) }),
      dataset: { hand: side },
    },
    h("div", { class: "hand__head" }, h("h2", { class: "hand__title" }, t(`side.${side}`)), total),
    cards,
    marks,
  );
  return { el, total, cards, marks, slots: [], codes: [] };
}

/** The card area; returns its element and what the table view tells it. */
export function stage() {
  /** @type {Record<string, Hand>} */
  const hands = { player: handView("player"), banker: handView("banker") };
  const ring = h("span", { class: "countdown__ring", "aria-hidden": "true" });
  ring.innerHTML = `<svg viewBox="0 0 60 60" width="60" height="60"><circle class="countdown__track" cx="30" cy="30" r="26"/><circle class="countdown__arc" cx="30" cy="30" r="26" stroke-dasharray="${RING}" stroke-dashoffset="0" transform="rotate(-90 30 30)"/></svg>`;
  const seconds = h("span", { class: "countdown__seconds" }, "");
  const countdown = h("div", { class: "countdown", role: "timer" }, ring, seconds);
  // Phases and results are spoken once, by the page's announcer, not by these elements.
  const phase = h("p", { class: "stage__phase" }, "");
  const roundId = h("p", { class: "stage__round" }, "");
  const result = h("div", { class: "result", hidden: true });
  const staked = h("span", { class: "stage__staked" }, "");
  // Between two shoes: the shuffle, with the new shoe's commitment. Spoken by the announcer.
  // The new shoe's first round takes bets at once, so the notice lies over the hands only:
  // the news on the Player's side, the commitment on the Banker's, and the centre (the
  // countdown, the phase, the round) stays in sight above it.
  const shuffleShoe = h("p", { class: "shuffle__shoe" }, "");
  const shuffleCommitment = h("code", { class: "shuffle__commitment" }, "");
  const shuffleNote = h(
    "div",
    { class: "shuffle", hidden: true },
    h(
      "div",
      { class: "shuffle__news" },
      h("div", { class: "shuffle__deck", "aria-hidden": "true" }, h("span", {}), h("span", {}), h("span", {})),
      h("p", { class: "shuffle__title" }, t("shuffle.title")),
      shuffleShoe,
    ),
    h(
      "div",
      { class: "shuffle__proof" },
      h("p", { class: "shuffle__label" }, t("shuffle.commitment")),
      shuffleCommitment,
    ),
  );
  /** @type {number | undefined} */
  let shuffleTimer;
  function endShuffle() {
    window.clearTimeout(shuffleTimer);
    shuffleNote.hidden = true;
    el.classList.remove("is-shuffling");
  }
  const el = h(
    "section",
    { class: "stage", "aria-label": t("stage.label") },
    hands.player.el,
    h("div", { class: "stage__centre" }, countdown, phase, roundId, staked, result),
    hands.banker.el,
    shuffleNote,
  );

  /** @type {number | null} */
  let deadline = null;
  let windowMs = 15000;
  /** @type {string | null | undefined} */
  let currentPhase = null;

  function tick() {
    if (currentPhase !== "open" || !deadline) {
      seconds.textContent = "";
      countdown.classList.add("is-idle");
      return;
    }
    const left = Math.max(0, msUntil(deadline));
    countdown.classList.remove("is-idle");
    countdown.classList.toggle("is-urgent", left <= 5000);
    seconds.textContent = String(secondsLeft(left));
    countdown.setAttribute("aria-label", t("stage.seconds", { count: secondsLeft(left) }));
    /** @type {Element} */ (ring.querySelector(".countdown__arc")).setAttribute(
      "stroke-dashoffset",
      String(RING * (1 - Math.min(1, left / windowMs))),
    );
  }
  const ticker = window.setInterval(tick, 100);

  /**
   * The cards of a hand fully shown, by position (undefined where none is yet): turned, and
   * nothing on them still moving (sliding in from the shoe, or turning over). A total, a
   * natural and a pair count only these, never a card the player cannot read yet.
   * @param {Hand} hand
   * @returns {(string | undefined)[]}
   */
  function shownCodes(hand) {
    return hand.codes.map((code, position) => (code && !moving(hand.slots[position]) ? code : undefined));
  }

  /** @param {string} side */
  function updateHand(side) {
    const hand = hands[side];
    const shown = shownCodes(hand);
    const codes = shown.filter((code) => code !== undefined);
    hand.total.textContent = codes.length ? String(handTotal(codes)) : "";
    const marks = [];
    const [first, second] = shown;
    if (first && second) {
      const two = handTotal([first, second]);
      if (two >= 8) marks.push(h("span", { class: "mark mark--natural" }, t("stage.natural", { total: two })));
      if (parseCard(first).rank === parseCard(second).rank)
        marks.push(h("span", { class: "mark mark--pair" }, t("stage.pair")));
    }
    fill(hand.marks, ...marks);
  }

  // The result waits for the cards: shown once every card lies face up and still, so the banner
  // ("Player 5 – Banker 7") never runs ahead of the totals beside the hands. Lines for it (the
  // player's own win) wait with it. A new round (clear) drops what still waits.
  let rounds = 0;
  let resultWaits = false;
  /** @type {HTMLElement[]} */
  let waitingLines = [];

  /**
   * Call `then` once no card on the table is moving (at once if none is), unless the table is
   * cleared first.
   * @param {() => void} then
   */
  function afterCards(then) {
    const motions = Object.values(hands).flatMap((hand) => hand.slots.flatMap((slot) => finiteAnimations(slot)));
    if (!motions.length) {
      then();
      return;
    }
    const round = rounds;
    Promise.allSettled(motions.map((motion) => motion.finished)).then(() => {
      if (round === rounds) afterCards(then);
    });
  }

  /**
   * The result banner, and the winning hand's glow.
   * @param {Record<string, any>} r
   */
  function drawResult(r) {
    const winner = r.winner;
    const title = winner === "tie" ? t("result.tie") : t("result.wins", { side: t(`side.${winner}`) });
    for (const side of ["player", "banker"]) hands[side].el.classList.toggle("is-winner", side === winner);
    const marks = [
      r.natural && t("result.natural"),
      r.player_pair && t("result.player_pair"),
      r.banker_pair && t("result.banker_pair"),
    ].filter(Boolean);
    result.className = `result result--${winner}`;
    result.dataset.winner = winner;
    fill(
      result,
      h("span", { class: "result__title" }, title),
      h("span", { class: "result__score" }, t("result.score", { player: r.player_total, banker: r.banker_total })),
      marks.length ? h("span", { class: "result__marks" }, marks.join(" · ")) : null,
    );
    result.hidden = false;
    el.classList.add("has-result");
  }

  /**
   * The slot of a card, made on first use.
   * @param {string} side
   * @param {number} position
   * @returns {HTMLElement}
   */
  function slotAt(side, position) {
    const hand = hands[side];
    if (!hand.slots[position]) {
      const label = t("stage.card_back", { side: t(`side.${side}`), position: position + 1 });
      const slot = cardSlot({ sideways: position === 2, label });
      slot.dataset.position = String(position);
      if (!reducedMotion()) slot.classList.add("card--dealt");
      hand.slots[position] = slot;
      // Keep slots in position order whatever order they arrive in.
      const after = hand.slots.slice(position + 1).find(Boolean);
      hand.cards.insertBefore(slot, after ?? null);
    }
    return hand.slots[position];
  }

  return {
    el,
    clear() {
      for (const hand of Object.values(hands)) {
        hand.slots = [];
        hand.codes = [];
        fill(hand.cards);
        hand.el.classList.remove("is-winner");
        updateHand(/** @type {string} */ (hand.el.dataset.hand));
      }
      rounds += 1;
      resultWaits = false;
      waitingLines = [];
      result.hidden = true;
      fill(result);
      el.classList.remove("has-result");
    },
    /**
     * The slot of a card (its back until it is turned), made if need be: the squeeze peels it.
     * @param {string} side
     * @param {number} position
     * @returns {HTMLElement}
     */
    slot(side, position) {
      return slotAt(side, position);
    },
    /**
     * Face-down dealing: show a card's back before it is turned.
     * @param {string} side
     * @param {number} position
     */
    placeBack(side, position) {
      slotAt(side, position);
    },
    /**
     * Turn one card; `animate` false when catching up from a snapshot.
     * @param {{hand: string, position: number, card: string}} revealed
     * @param {boolean} [animate]
     */
    showCard({ hand, position, card }, animate = true) {
      if (!hands[hand] || !card) return;
      endShuffle();
      const slot = slotAt(hand, position);
      slot.classList.remove("card--squeeze", "card--peel");
      reveal(slot, card, { animate: animate && !reducedMotion() });
      hands[hand].codes[position] = card;
      updateHand(hand);
      // A card still sliding in or turning counts once it lies face up (if it is still this
      // round's: a new round or a snapshot may have cleared the hand meanwhile).
      const motions = finiteAnimations(slot);
      if (motions.length)
        Promise.allSettled(motions.map((motion) => motion.finished)).then(() => {
          if (hands[hand].slots[position] === slot) updateHand(hand);
        });
    },
    /**
     * Face-down dealing: the squeeze of one card before its reveal; its corner peels up
     * (not when motion is reduced: then the card only glows until it is turned).
     * @param {string} side
     * @param {number} position
     */
    squeeze(side, position) {
      const slot = slotAt(side, position);
      slot.classList.add("card--squeeze");
      slot.classList.toggle("card--peel", !reducedMotion());
    },
    /**
     * The round shown: its id, its label ("Shoe 12 · Round 34") and phase, the betting deadline
     * (epoch ms) and window.
     * @param {{id?: number, label?: string, phase?: string, closesAt?: number, bettingMs?: number}} round
     */
    setRound({ id, label, phase: next, closesAt, bettingMs }) {
      currentPhase = next;
      if (Number.isFinite(closesAt)) deadline = closesAt;
      if (Number.isFinite(bettingMs) && bettingMs > 0) windowMs = bettingMs;
      phase.textContent = phaseWords(next);
      phase.dataset.phase = next ?? "";
      roundId.textContent = id ? (label ?? "") : "";
      roundId.dataset.round = id ? String(id) : "";
      tick();
    },
    /**
     * r: {winner, player_total, banker_total, natural, player_pair, banker_pair}.
     * @param {Record<string, any>} r
     */
    showResult(r) {
      resultWaits = true;
      afterCards(() => {
        resultWaits = false;
        // The totals first (each card's own count may not have run yet): then the banner.
        for (const side of Object.keys(hands)) updateHand(side);
        drawResult(r);
        result.append(...waitingLines);
        waitingLines = [];
      });
    },
    /**
     * The player's total stake on the round (0 hides it).
     * @param {string} text
     */
    setStaked(text) {
      staked.textContent = text;
    },
    /**
     * A line under the result, e.g. the player's own win: {text, tone}.
     * @param {{text: string, tone: string}} line
     */
    addResultLine({ text, tone }) {
      const line = h("span", { class: `result__line result__line--${tone}`, dataset: { tone } }, text);
      if (resultWaits) waitingLines.push(line);
      else result.append(line);
    },
    /**
     * A win for the seated player: a short burst of gold from the result banner, once the
     * banner shows (a still glow when motion is reduced: CSS), gone in a few seconds.
     */
    celebrate() {
      const burst = h(
        "span",
        { class: "celebration", "aria-hidden": "true" },
        Array.from({ length: 12 }, () => h("span", { class: "celebration__bit" })),
      );
      if (resultWaits) waitingLines.push(burst);
      else result.append(burst);
      window.setTimeout(() => burst.remove(), CELEBRATION_MS);
    },
    /**
     * A new shoe after the last one ended: "Shuffling — new shoe", its number and commitment, for
     * a moment (still, without the riffle, when motion is reduced).
     * @param {{number?: number, commitment?: string}} shoe
     */
    shuffle(shoe) {
      shuffleShoe.textContent = t("shuffle.shoe", { shoe: shoe.number ?? "–" });
      shuffleCommitment.textContent = shoe.commitment ?? "";
      shuffleNote.classList.toggle("shuffle--still", reducedMotion());
      shuffleNote.hidden = false;
      el.classList.add("is-shuffling");
      window.clearTimeout(shuffleTimer);
      shuffleTimer = window.setTimeout(endShuffle, SHUFFLE_MS);
    },
    destroy() {
      endShuffle();
      window.clearInterval(ticker);
    },
  };
}
