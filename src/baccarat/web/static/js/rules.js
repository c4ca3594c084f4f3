// @ts-check
// The rules page of one rule set (#/rules/{name}), drawn from GET /api/rules/{name}: the
// drawing table, every bet's pay table and house edge, the rounding rule, the interruption
// policy and the fairness scheme. The server holds every word and number; this only lays them out.

import { api } from "./api.js";
import { fill, h } from "./dom.js";
import { money } from "./format.js";

const PLAYER_THIRD = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"];

/**
 * The drawing rules of GET /api/rules/{name} as two tables.
 * @param {Record<string, any>} drawing
 */
function drawingTables(drawing) {
  const player = h(
    "table",
    { class: "rules-table", dataset: { table: "player-drawing" } },
    h("caption", {}, "Player's hand"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Total"), h("th", { scope: "col" }, "Player"))),
    h(
      "tbody",
      {},
      (drawing.player ?? []).map((/** @type {any} */ row) =>
        h(
          "tr",
          {},
          h("th", { scope: "row" }, String(row.total)),
          h("td", { dataset: { action: row.action } }, row.rule),
        ),
      ),
    ),
  );
  const banker = h(
    "table",
    { class: "rules-table rules-table--grid", dataset: { table: "banker-drawing" } },
    h("caption", {}, "Banker's hand: by the Player's third card, or when the Player stood"),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col" }, "Banker total"),
        h("th", { scope: "col" }, "Player stood"),
        PLAYER_THIRD.map((card) => h("th", { scope: "col", "aria-label": `Player's third card worth ${card}` }, card)),
      ),
    ),
    h(
      "tbody",
      {},
      (drawing.banker ?? []).map((/** @type {any} */ row) =>
        h(
          "tr",
          {},
          h("th", { scope: "row" }, String(row.total)),
          h("td", { dataset: { action: row.player_stood } }, row.player_stood),
          PLAYER_THIRD.map((card) => {
            const action = row.by_player_third?.[card] ?? "–";
            return h("td", { dataset: { action } }, action === "draws" ? "D" : action === "stands" ? "S" : action);
          }),
        ),
      ),
    ),
  );
  return h(
    "div",
    { class: "rules-drawing" },
    h("p", {}, drawing.natural ?? ""),
    h("p", {}, drawing.winner ?? ""),
    player,
    banker,
    h(
      "p",
      { class: "rules-note" },
      "D: Banker draws. S: Banker stands.",
      drawing.banker_natural ? ` ${drawing.banker_natural}.` : "",
    ),
  );
}

/**
 * One bet of GET /api/rules/{name}: its pay table, stakes and house edge.
 * @param {Record<string, any>} bet
 */
function betSection(bet) {
  const edge = bet.house_edge ? `${bet.house_edge.percent} %` : "not computed";
  return h(
    "section",
    { class: "rules-bet", dataset: { bet: bet.name }, "aria-labelledby": `rules-bet-${bet.name}` },
    h("h3", { id: `rules-bet-${bet.name}` }, bet.label),
    h("p", {}, bet.description),
    h(
      "table",
      { class: "rules-table" },
      h("caption", { class: "visually-hidden" }, `${bet.label} pays`),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "When"), h("th", { scope: "col" }, "Pays"))),
      h(
        "tbody",
        {},
        bet.pays.map((/** @type {any} */ row) =>
          h(
            "tr",
            { dataset: { event: row.event } },
            h("th", { scope: "row" }, row.when),
            h("td", { title: row.text }, row.pays),
          ),
        ),
      ),
    ),
    h(
      "dl",
      { class: "rules-facts" },
      h("div", {}, h("dt", {}, "Stakes"), h("dd", {}, `${money(bet.min_stake)} – ${money(bet.max_stake)}`)),
      h(
        "div",
        { dataset: { fact: "house-edge" } },
        h("dt", {}, "House edge"),
        h("dd", { title: bet.house_edge?.exact ?? "" }, edge),
      ),
    ),
  );
}

/**
 * Mount the rules page of rule set `name` in `main`; returns {destroy()}.
 * @param {HTMLElement} main
 * @param {string} name
 * @returns {{destroy(): void}}
 */
export function mountRules(main, name) {
  const body = h("div", { class: "rules-body", "aria-busy": "true" }, h("p", {}, "Loading the rules…"));
  const heading = h("h1", { class: "rules-title" }, "Rules");
  main.replaceChildren(
    h(
      "article",
      { class: "panel rules-page" },
      h("p", { class: "info__back" }, h("a", { href: "#/" }, "← Back to the lobby")),
      heading,
      body,
    ),
  );
  let alive = true;
  api
    .rules(name)
    .then((page) => {
      if (!alive) return;
      document.title = `Rules: ${page.ruleset.title} · Baccarat`;
      heading.textContent = `Rules: ${page.ruleset.title}`;
      const shoe = page.shoe ?? {};
      body.removeAttribute("aria-busy");
      fill(
        body,
        h("p", { class: "rules-lead" }, page.ruleset.description),
        h("p", {}, `Dealt from ${shoe.decks} decks; the cut card lies ${shoe.cut_card_from_end} cards from the end.`),
        h("h2", {}, "Drawing rules"),
        drawingTables(page.drawing ?? {}),
        h("h2", {}, "Bets, pay tables and house edges"),
        h("p", { class: "rules-note" }, `House edge: ${page.house_edge_basis}.`),
        (page.bets ?? []).map(betSection),
        h("h2", {}, "Rounding"),
        h("p", { dataset: { rule: "rounding" } }, page.rounding),
        h("h2", {}, "If the table is interrupted"),
        h("p", { dataset: { rule: "interruption" } }, page.interruption),
        h("h2", {}, "Fairness"),
        h("p", { dataset: { rule: "fairness" } }, page.fairness?.scheme ?? ""),
        page.fairness?.limit ? h("p", { class: "rules-note" }, page.fairness.limit) : null,
      );
    })
    .catch((error) => {
      if (!alive) return;
      body.removeAttribute("aria-busy");
      fill(body, h("p", { role: "alert" }, `The rules cannot be shown: ${error.message}`));
    });
  return {
    destroy() {
      alive = false;
    },
  };
}
