// @ts-check
// Playing cards drawn with HTML and CSS (no images), and the baccarat arithmetic the page
// shows while cards are turned. The server decides every outcome; these totals only mirror it.

import { h } from "./dom.js";
import { has, t } from "./i18n.js";

/** @type {Record<string, {glyph: string, red: boolean}>} */
const SUITS = {
  c: { glyph: "♣", red: false },
  d: { glyph: "♦", red: true },
  h: { glyph: "♥", red: true },
  s: { glyph: "♠", red: false },
};
const COURTS = new Set(["J", "Q", "K"]);

/**
 * A card read from its code.
 * @typedef {{rank: string, suit: string, point: number}} Card
 */

/**
 * "Td" -> {rank: "T", suit: "d", point: 0}; "10h" is read as "Th".
 * @param {string} code
 * @returns {Card | null}
 */
export function parseCard(code) {
  const text = String(code).trim();
  const rank = text.slice(0, -1).toUpperCase().replace("10", "T");
  const suit = text.slice(-1).toLowerCase();
  if (!SUITS[suit] || !/^[A2-9TJQK]$/.test(rank)) return null;
  return { rank, suit, point: point(rank) };
}

/**
 * @param {string} rank
 * @returns {number}
 */
function point(rank) {
  if (rank === "A") return 1;
  if ("TJQK".includes(rank)) return 0;
  return Number(rank);
}

/**
 * The baccarat total of some card codes: the units digit of the sum.
 * @param {string[]} codes
 * @returns {number}
 */
export function handTotal(codes) {
  return codes.reduce((sum, code) => sum + (parseCard(code)?.point ?? 0), 0) % 10;
}

/**
 * "Qh" -> "Queen of hearts" (in the language shown: "Queen hati").
 * @param {string} code
 * @returns {string}
 */
export function cardName(code) {
  const card = parseCard(code);
  if (!card) return String(code);
  const rank = card.rank === "T" ? "10" : has(`card.rank.${card.rank}`) ? t(`card.rank.${card.rank}`) : card.rank;
  return t("card.name", { rank, suit: t(`card.suit.${card.suit}`) });
}

/** @param {Card} card */
function face(card) {
  const suit = SUITS[card.suit];
  const rank = card.rank === "T" ? "10" : card.rank;
  const corner = (/** @type {string} */ where) =>
    h(
      "span",
      { class: `card__corner card__corner--${where}` },
      h("span", { class: "card__rank" }, rank),
      h("span", { class: "card__suit" }, suit.glyph),
    );
  const centre = COURTS.has(card.rank)
    ? h(
        "span",
        { class: "card__court" },
        h("span", { class: "card__court-rank" }, rank),
        h("span", { class: "card__court-suit" }, suit.glyph),
      )
    : h("span", { class: "card__pip" }, suit.glyph);
  return h("span", { class: "card__face card__face--front" }, corner("top"), centre, corner("bottom"));
}

/**
 * A card slot: its back is shown until reveal(code) turns it.
 * @param {{sideways?: boolean, label?: string}} [options]  a third card lies sideways, as dealt.
 * @returns {HTMLDivElement}
 */
export function cardSlot({ sideways = false, label = t("card.face_down") } = {}) {
  const el = h(
    "div",
    {
      class: `card${sideways ? " card--sideways" : ""}`,
      role: "img",
      "aria-label": label,
    },
    h("span", { class: "card__inner" }, h("span", { class: "card__face card__face--back", "aria-hidden": "true" })),
  );
  return el;
}

/**
 * Turn a slot to show `code`; `animate` flips it, otherwise it simply appears.
 * @param {HTMLElement} slot  from cardSlot()
 * @param {string} code
 * @param {{animate?: boolean}} [options]
 */
export function reveal(slot, code, { animate = true } = {}) {
  const card = parseCard(code);
  if (!card) return;
  const inner = /** @type {HTMLElement} */ (slot.querySelector(".card__inner"));
  inner.querySelector(".card__face--front")?.remove();
  inner.prepend(face(card));
  slot.dataset.card = `${card.rank}${card.suit}`;
  slot.classList.toggle("card--red", SUITS[card.suit].red);
  slot.setAttribute("aria-label", cardName(code));
  if (animate) {
    slot.classList.add("card--flipping");
    // Force a style flush so the flip starts from the back.
    void slot.offsetWidth;
  }
  slot.classList.add("card--revealed");
}

/**
 * A revealed card in one step.
 * @param {string} code
 * @param {{sideways?: boolean, label?: string}} [options]
 * @returns {HTMLDivElement}
 */
export function cardElement(code, options = {}) {
  const slot = cardSlot(options);
  reveal(slot, code, { animate: false });
  return slot;
}
