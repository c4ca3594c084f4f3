// @ts-check
// The icon of each kind of step the console shows (due.js): simple SVG shapes, drawn in the
// panel's own text colour, so each kind is told apart by shape as well as by colour.

import { s } from "../dom.js";

/** @type {Record<string, string[]>} each kind's paths, on a 48×48 grid */
const PATHS = {
  // A card with an arrow out of the shoe.
  deal: ["M12 8h18a3 3 0 0 1 3 3v26a3 3 0 0 1-3 3H12a3 3 0 0 1-3-3V11a3 3 0 0 1 3-3z", "M30 24h13m-5-5 5 5-5 5"],
  // A card and a plus: a third card.
  draw: ["M8 8h18a3 3 0 0 1 3 3v26a3 3 0 0 1-3 3H8a3 3 0 0 1-3-3V11a3 3 0 0 1 3-3z", "M38 16v16m-8-8h16"],
  // A flame.
  burn: ["M24 5c2 8 11 12 11 23a11 11 0 0 1-22 0c0-6 3-9 5-12 1 4 3 6 5 6-1-7 0-12 1-17z"],
  // An hourglass: betting runs.
  bets: ["M13 6h22M13 42h22M15 6c0 10 9 12 9 18s-9 8-9 18M33 6c0 10-9 12-9 18s9 8 9 18"],
  // Two bars: wait.
  wait: ["M17 12v24M31 12v24"],
  // Stacked cards: a new shoe.
  shoe: ["M10 14h22v26H10z", "M16 8h22v26", "M22 2h22v26"],
  // A stop sign with an exclamation mark.
  halt: ["M17 4h14l13 13v14L31 44H17L4 31V17z", "M24 13v14m0 6v2"],
  // A warning triangle with a question mark.
  misscan: ["M24 5 45 42H3z", "M19 22a5 5 0 1 1 7 5c-2 1-2 2-2 4m0 5v1"],
  // A tick in a circle.
  result: ["M24 4a20 20 0 1 1 0 40 20 20 0 0 1 0-40z", "M14 24l7 7 13-14"],
};

/**
 * The icon of `kind` (a decoration: hidden from screen readers, the words say it).
 * @param {string} kind
 * @returns {SVGElement}
 */
export function icon(kind) {
  return s(
    "svg",
    {
      class: "due__svg",
      viewBox: "0 0 48 48",
      "aria-hidden": "true",
      focusable: "false",
      fill: "none",
      stroke: "currentColor",
      "stroke-width": "3.5",
      "stroke-linecap": "round",
      "stroke-linejoin": "round",
    },
    (PATHS[kind] ?? PATHS.wait).map((d) => s("path", { d })),
  );
}
