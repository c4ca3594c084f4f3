// @ts-check
// The table's facts at a glance: rules, limits, dealing style, round, shoe and audience.

import { fill, h } from "./dom.js";
import { money } from "./format.js";
import * as model from "./model.js";

/** The panel; returns {el, update(table, round)}. */
export function tableInfo() {
  const title = h("h2", { class: "panel-title" }, "Table");
  const rules = h("p", { class: "info__rules" });
  const facts = h("dl", { class: "info__facts" });
  const rulesLink = h("a", { href: "#/rules/standard", id: "rules-link" }, "Full rules, pay tables and house edges");
  const el = h(
    "section",
    { class: "panel info", "aria-label": "Table details" },
    title,
    rules,
    facts,
    h("p", { class: "info__back" }, h("a", { href: "#/" }, "← Back to the lobby")),
    h("p", { class: "info__rules-link" }, rulesLink),
  );

  return {
    el,
    /**
     * @param {import("./model.js").Table} table
     * @param {import("./model.js").Round | null} round
     */
    update(table, round) {
      const set = model.ruleset(table);
      const { min, max } = model.limits(table);
      const shoe = model.shoe(table);
      title.textContent = model.tableName(table);
      rules.textContent = set.description ?? "";
      if (set.name) rulesLink.setAttribute("href", `#/rules/${encodeURIComponent(set.name)}`);
      const fact = (/** @type {string} */ label, /** @type {string} */ value, /** @type {string} */ key) =>
        h("div", { dataset: { fact: key } }, h("dt", {}, label), h("dd", {}, value));
      fill(
        facts,
        fact("Limits", min === null ? "–" : `${money(min)} – ${money(max)}`, "limits"),
        fact("Dealing", model.dealing(table) === "face-down" ? "Face down, squeezed" : "Face up", "dealing"),
        fact("Round", round?.id ? `#${round.id}` : "–", "round"),
        fact("Cards left", Number.isInteger(shoe?.cards_left) ? String(shoe.cards_left) : "–", "cards-left"),
        fact("Watching", String(model.watching(table)), "watching"),
      );
    },
  };
}
