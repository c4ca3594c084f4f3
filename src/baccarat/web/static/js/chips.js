// @ts-check
// The chip selector: one radio button per denomination of the table's `chips`.
// Native radios give arrow-key selection and a spoken "1 of 6" for free.

import { h } from "./dom.js";
import { chipLabel, money } from "./format.js";
import { moneyCurrency, moneyDigits, t } from "./i18n.js";

// Casino colours by value (in whole units of the money); anything else takes the colour of the
// next lower one. Dollar chips follow the casino scale ($1 white … $5,000 brown); rupiah chips
// their own, so that a rupiah table's 10rb, 50rb, 100rb, 500rb, 1jt and 5jt all differ.
/** @type {[number, string][]} */
const COLOURS = [
  [1, "white"],
  [5, "red"],
  [10, "blue"],
  [25, "green"],
  [100, "black"],
  [500, "purple"],
  [1000, "gold"],
  [5000, "brown"],
];
/** @type {[number, string][]} */
const RUPIAH_COLOURS = [
  [1_000, "white"],
  [5_000, "red"],
  [10_000, "blue"],
  [50_000, "green"],
  [100_000, "black"],
  [500_000, "purple"],
  [1_000_000, "gold"],
  [5_000_000, "brown"],
];

/**
 * The colour name of a chip worth `minor` units of the money shown.
 * @param {number} minor
 * @returns {string}
 */
export function chipColour(minor) {
  const rupiah = moneyCurrency() === "IDR" && moneyDigits() === 0;
  const unit = 10 ** moneyDigits();
  let colour = "white";
  for (const [major, name] of rupiah ? RUPIAH_COLOURS : COLOURS) if (minor >= major * unit) colour = name;
  return colour;
}

/**
 * A chip picture showing `minor` (used on bet spots too).
 * @param {number} minor
 * @param {string} [extraClass]
 * @param {boolean} [painted]  the value drawn by CSS rather than written as text
 * @returns {HTMLSpanElement}
 */
export function chipFace(minor, extraClass = "", painted = false) {
  // A painted face writes its value from CSS (attr), not as text: inside a control named by
  // its words (a spot) the chip's "25" would otherwise be text the control's name lacks.
  const value = painted
    ? h("span", { class: "chip__value", dataset: { face: chipLabel(minor) } })
    : h("span", { class: "chip__value" }, chipLabel(minor));
  return h("span", { class: `chip chip--${chipColour(minor)} ${extraClass}`, "aria-hidden": "true" }, value);
}

/**
 * The rack. `onChange(minor)` is told the chosen denomination.
 * Returns {el, value(), update(chips, balance)}.
 * @param {(minor: number) => void} onChange
 */
export function chipRack(onChange) {
  const name = `chip-${Math.random().toString(36).slice(2, 8)}`;
  const list = h("div", { class: "chip-rack__chips" });
  const el = h("fieldset", { class: "chip-rack" }, h("legend", { class: "visually-hidden" }, t("chips.legend")), list);
  /** @type {number | null} */
  let selected = null;
  /** @type {number[]} */
  let denominations = [];

  /**
   * @param {number[]} chips  the table's denominations
   * @param {number | null} balance  the balance, to mark the chips it cannot pay
   */
  function update(chips, balance) {
    const same = chips.length === denominations.length && chips.every((c, i) => c === denominations[i]);
    if (!same) {
      denominations = [...chips];
      if (!denominations.includes(selected)) selected = denominations[0] ?? null;
      list.replaceChildren(
        ...denominations.map((minor) => {
          const input = h("input", {
            type: "radio",
            name,
            value: String(minor),
            class: "visually-hidden",
            "aria-label": t("chips.label", { amount: money(minor) }),
            onchange: () => {
              selected = minor;
              onChange(minor);
            },
          });
          input.checked = minor === selected;
          return h(
            "label",
            { class: "chip-rack__option", dataset: { chip: String(minor) } },
            input,
            chipFace(minor, "chip--rack"),
          );
        }),
      );
    }
    for (const label of /** @type {HTMLCollectionOf<HTMLElement>} */ (list.children)) {
      const minor = Number(label.dataset.chip);
      label.classList.toggle("is-unaffordable", Number.isInteger(balance) && minor > balance);
    }
  }

  return { el, update, value: () => selected };
}
