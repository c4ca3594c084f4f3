// @ts-check
// The rules page of one rule set (#/rules/{name}), drawn from GET /api/rules/{name}: the
// drawing table, every bet's pay table and house edge, the rounding rule, the interruption
// policy and the fairness scheme. The server holds every number and the structure (which bets,
// which events, which draws); the words are the page's, in the language shown (the English ones
// equal the server's, which the tests compare).

import { api } from "./api.js";
import { fill, h } from "./dom.js";
import { betName, money, odds } from "./format.js";
import { formatNumber, has, t } from "./i18n.js";
import * as model from "./model.js";
import { errorText } from "./refusals.js";

const PLAYER_THIRD = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"];
// The events every bet may name, worded alike whatever the bet (baccarat.rulespage.event_text).
const FIXED_EVENTS = new Set([
  "win_6",
  "win_three_card_7",
  "tie",
  "natural_tie",
  "big",
  "small",
  "win_two_cards",
  "win_three_cards",
  "lose",
]);

/**
 * A bet's description in the language shown (a bet the catalogues lack keeps the server's).
 * @param {Record<string, any>} bet  a bet of GET /api/rules/{name}
 * @returns {string}
 */
function description(bet) {
  return has(`betdesc.${bet.name}`) ? t(`betdesc.${bet.name}`) : (bet.description ?? "");
}

/**
 * When an event of a bet's pay table happens, in words (the server's event_text, in the
 * language shown); an event the page does not know keeps the server's words.
 * @param {Record<string, any>} bet
 * @param {{event: string, when: string}} row
 * @returns {string}
 */
function whenText(bet, { event, when }) {
  const side = t(String(bet.name).endsWith("banker") ? "side.banker" : "side.player");
  if (event === "win" && (bet.name === "player" || bet.name === "banker")) return t("rules.when.main_win", { side });
  if (event === "win" || event === "pair" || event === "perfect_pair") return description(bet).replace(/\.$/, "");
  if (event === "natural_win") return t("rules.when.natural_win", { side });
  const tie = /^tie_(\d+)$/.exec(event);
  if (tie) return t("rules.when.tie_on", { total: tie[1] });
  const by = /^win_by_(\d+)$/.exec(event);
  if (by) return t("rules.when.win_by", { side, points: by[1] });
  return FIXED_EVENTS.has(event) ? t(`rules.when.${event}`) : when;
}

/**
 * A payout as the table's spots print it (the one house style, format.js odds: "19:20" ->
 * "0.95:1", "half" -> "1:2"; "push") and in words ("pays 0.95 to 1"), in the language shown.
 * @param {string} pays  the rule set's own payout ("19:20", "half", "push", "lose")
 * @returns {{short: string, words: string}}
 */
function payout(pays) {
  if (pays === "push" || pays === "lose") return { short: t(`rules.pay.${pays}`), words: t(`rules.paytext.${pays}`) };
  const short = odds(pays);
  const ratio = /^(.+):(.+)$/.exec(short);
  if (!ratio) return { short: pays, words: pays };
  const key = pays === "half" ? "rules.paytext.half" : "rules.paytext.win";
  return { short, words: t(key, { win: ratio[1], stake: ratio[2] }) };
}

/**
 * The rounding rule's example in the rule set's money, computed as baccarat.payout does: 1.05
 * staked on a 0.95:1 Banker win returns 1.05 + floor(1.05 × 19 / 20) = 2.04, not the exact
 * 2.0475; at a rupiah table (whole rupiah) Rp 10.005 returns 19.509, not 19.509,75.
 * @param {{code: string, digits: number}} currency  the rule set's money
 * @returns {string}
 */
function roundingText(currency) {
  const cents = currency.digits > 0;
  const places = cents ? 2 : 0;
  const stake = cents ? 105 : 10_005;
  const returned = stake + Math.floor((stake * 19) / 20);
  const exact = stake * 39 * 5; // hundredths of the exact 39/20 of the stake: a whole number
  /** @param {number} value @param {number} decimals */
  const decimal = (value, decimals) =>
    formatNumber(
      decimals
        ? `${Math.trunc(value / 10 ** decimals)}.${String(value % 10 ** decimals).padStart(decimals, "0")}`
        : String(value),
    );
  return t("rules.rounding_text", {
    units: t(cents ? "rules.units_cents" : "rules.units_whole", { currency: currency.code }),
    stake: decimal(stake, places),
    returned: decimal(returned, places),
    exact: decimal(exact, places + 2),
  });
}

/**
 * A wide table in its own box: on a narrow screen the box scrolls sideways (never the page),
 * says so under it and shows a fading edge while there is more to see.
 * @param {HTMLElement} table
 * @returns {HTMLElement}
 */
function scrollBox(table) {
  const hint = h("p", { class: "rules-scroll__hint", "aria-hidden": "true" }, t("rules.scroll_hint"));
  const box = h(
    "div",
    { class: "rules-scroll", tabindex: "0", role: "region", "aria-label": t("rules.banker_caption") },
    table,
  );
  const check = () => {
    const more = box.scrollWidth > box.clientWidth + 1;
    box.classList.toggle("is-scrollable", more);
    box.classList.toggle("is-at-end", box.scrollLeft + box.clientWidth >= box.scrollWidth - 1);
  };
  new ResizeObserver(check).observe(box);
  box.addEventListener("scroll", check, { passive: true });
  return h("div", { class: "rules-scroll__wrap" }, box, hint);
}
/**
 * The drawing rules of GET /api/rules/{name} as two tables.
 * @param {Record<string, any>} drawing
 */
function drawingTables(drawing) {
  const playerRule = (/** @type {any} */ row) =>
    t(row.total >= 8 ? "rules.player_natural" : row.action === "draws" ? "rules.player_draws" : "rules.player_stands");
  const action = (/** @type {string} */ text) => (text === "draws" || text === "stands" ? t(`rules.${text}`) : text);
  const short = (/** @type {string} */ text) =>
    text === "draws" || text === "stands" ? t(`rules.${text}_short`) : text;
  const player = h(
    "table",
    { class: "rules-table", dataset: { table: "player-drawing" } },
    h("caption", {}, t("rules.player_caption")),
    h(
      "thead",
      {},
      h("tr", {}, h("th", { scope: "col" }, t("rules.total")), h("th", { scope: "col" }, t("rules.player"))),
    ),
    h(
      "tbody",
      {},
      (drawing.player ?? []).map((/** @type {any} */ row) =>
        h(
          "tr",
          {},
          h("th", { scope: "row" }, String(row.total)),
          h("td", { dataset: { action: row.action } }, playerRule(row)),
        ),
      ),
    ),
  );
  const banker = h(
    "table",
    { class: "rules-table rules-table--grid", dataset: { table: "banker-drawing" } },
    h("caption", {}, t("rules.banker_caption")),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col" }, t("rules.banker_total")),
        h("th", { scope: "col" }, t("rules.player_stood")),
        PLAYER_THIRD.map((card) => h("th", { scope: "col", "aria-label": t("rules.third_card", { card }) }, card)),
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
          h("td", { dataset: { action: row.player_stood } }, action(row.player_stood)),
          PLAYER_THIRD.map((card) => {
            const drawn = row.by_player_third?.[card] ?? "–";
            return h("td", { dataset: { action: drawn } }, short(drawn));
          }),
        ),
      ),
    ),
  );
  return h(
    "div",
    { class: "rules-drawing" },
    h("p", {}, drawing.natural ? t("rules.natural") : ""),
    h("p", {}, drawing.winner ? t("rules.winner") : ""),
    player,
    scrollBox(banker),
    h("p", { class: "rules-note" }, t("rules.legend"), drawing.banker_natural ? ` ${t("rules.banker_natural")}.` : ""),
  );
}

/**
 * One bet of GET /api/rules/{name}: its pay table, stakes and house edge.
 * @param {Record<string, any>} bet
 * @param {{code: string, digits: number}} currency  the rule set's money
 */
function betSection(bet, currency) {
  const edge = bet.house_edge
    ? t("rules.edge", { percent: formatNumber(String(bet.house_edge.percent)) })
    : t("rules.not_computed");
  const name = betName(bet.name, bet.label);
  return h(
    "section",
    { class: "rules-bet", dataset: { bet: bet.name }, "aria-labelledby": `rules-bet-${bet.name}` },
    h("h3", { id: `rules-bet-${bet.name}` }, name),
    h("p", {}, description(bet)),
    h(
      "table",
      { class: "rules-table" },
      h("caption", { class: "visually-hidden" }, t("rules.pays_caption", { bet: name })),
      h(
        "thead",
        {},
        h("tr", {}, h("th", { scope: "col" }, t("rules.when")), h("th", { scope: "col" }, t("rules.pays"))),
      ),
      h(
        "tbody",
        {},
        bet.pays.map((/** @type {any} */ row) => {
          const paid = payout(row.pays);
          return h(
            "tr",
            { dataset: { event: row.event } },
            h("th", { scope: "row" }, whenText(bet, row)),
            h("td", { title: paid.words }, paid.short),
          );
        }),
      ),
    ),
    h(
      "dl",
      { class: "rules-facts" },
      h(
        "div",
        {},
        h("dt", {}, t("rules.stakes")),
        h("dd", {}, t("facts.range", { min: money(bet.min_stake, currency), max: money(bet.max_stake, currency) })),
      ),
      h(
        "div",
        { dataset: { fact: "house-edge" } },
        h("dt", {}, t("rules.house_edge")),
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
  const body = h("div", { class: "rules-body", "aria-busy": "true" }, h("p", {}, t("rules.loading")));
  const heading = h("h1", { class: "rules-title" }, t("rules.heading"));
  main.replaceChildren(
    h(
      "article",
      { class: "panel rules-page" },
      h("p", { class: "info__back" }, h("a", { href: "#/" }, t("nav.back"))),
      heading,
      body,
    ),
  );
  let alive = true;
  api
    .rules(name)
    .then((page) => {
      if (!alive) return;
      const set = page.ruleset ?? {};
      const title = has(`ruleset.${set.name}.title`) ? t(`ruleset.${set.name}.title`) : set.title;
      const lead = has(`ruleset.${set.name}.description`) ? t(`ruleset.${set.name}.description`) : set.description;
      document.title = t("app.title", { page: t("rules.heading_of", { title }) });
      heading.textContent = t("rules.heading_of", { title });
      const shoe = page.shoe ?? {};
      body.removeAttribute("aria-busy");
      fill(
        body,
        h("p", { class: "rules-lead" }, lead),
        h("p", {}, t("rules.shoe", { decks: shoe.decks, cut: shoe.cut_card_from_end })),
        h("h2", {}, t("rules.drawing")),
        drawingTables(page.drawing ?? {}),
        h("h2", {}, t("rules.bets")),
        h("p", { class: "rules-note" }, t("rules.basis")),
        (page.bets ?? []).map((/** @type {any} */ bet) => betSection(bet, model.currency(page))),
        h("h2", {}, t("rules.rounding")),
        h("p", { dataset: { rule: "rounding" } }, roundingText(model.currency(page))),
        h("h2", {}, t("rules.interruption")),
        h("p", { dataset: { rule: "interruption" } }, t("rules.interruption_text")),
        h("h2", {}, t("rules.fairness")),
        h(
          "p",
          { dataset: { rule: "fairness" } },
          t("rules.fairness_text", { algorithm: page.fairness?.algorithm ?? "" }),
        ),
        page.fairness?.limit ? h("p", { class: "rules-note" }, t("rules.fairness_limit")) : null,
      );
    })
    .catch((error) => {
      if (!alive) return;
      body.removeAttribute("aria-busy");
      fill(body, h("p", { role: "alert" }, t("rules.failed", { reason: errorText(error) })));
    });
  return {
    destroy() {
      alive = false;
    },
  };
}
