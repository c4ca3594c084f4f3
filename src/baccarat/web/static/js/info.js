// @ts-check
// The table's facts at a glance: rules, limits, dealing style, round, shoe and audience.

import { fill, h } from "./dom.js";
import { money } from "./format.js";
import { t } from "./i18n.js";
import * as model from "./model.js";

/** The panel; returns {el, update(table, round)}. */
export function tableInfo() {
  const title = h("h2", { class: "panel-title" }, t("table.title"));
  const rules = h("p", { class: "info__rules" });
  const facts = h("dl", { class: "info__facts" });
  const rulesLink = h("a", { href: "#/rules/standard", id: "rules-link" }, t("info.rules_link"));
  const el = h(
    "section",
    { class: "panel info", "aria-label": t("info.label") },
    title,
    rules,
    facts,
    h("p", { class: "info__back" }, h("a", { href: "#/" }, t("nav.back"))),
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
      rules.textContent = model.rulesetDescription(table);
      if (set.name) rulesLink.setAttribute("href", `#/rules/${encodeURIComponent(set.name)}`);
      const fact = (/** @type {string} */ label, /** @type {string} */ value, /** @type {string} */ key) =>
        h("div", { dataset: { fact: key } }, h("dt", {}, label), h("dd", {}, value));
      fill(
        facts,
        fact(t("facts.limits"), min === null ? "–" : t("facts.range", { min: money(min), max: money(max) }), "limits"),
        fact(
          t("facts.dealing"),
          t(model.dealing(table) === "face-down" ? "dealing.face_down_long" : "dealing.face_up"),
          "dealing",
        ),
        model.dealerName(table) ? fact(t("facts.dealer"), model.dealerName(table), "dealer") : null,
        fact(t("facts.round"), model.roundLabel(table, round) || "–", "round"),
        fact(t("facts.cards_left"), Number.isInteger(shoe?.cards_left) ? String(shoe.cards_left) : "–", "cards-left"),
        fact(t("facts.watching"), String(model.watching(table)), "watching"),
      );
    },
  };
}
