// @ts-check
// The lobby: every table with its rules, limits, dealing style, phase and countdown, the
// number of people watching and a live miniature big road. It re-reads GET /api/tables every
// couple of seconds; the countdowns tick locally against the server's deadlines in between.
// The same reading feeds the strip of tables at the top of a table's page (tableStrip).

import { api } from "./api.js";
import { msUntil, syncClock } from "./clock.js";
import { h } from "./dom.js";
import { money, secondsLeft } from "./format.js";
import { t } from "./i18n.js";
import * as model from "./model.js";
import { errorText } from "./refusals.js";
import { miniBigRoad } from "./roads.js";

const REFRESH_MS = 2000;
const TICK_MS = 250;

/** @typedef {import("./model.js").Table} Table */

/** @param {Table} table */
function dealingBadge(table) {
  const faceDown = model.dealing(table) === "face-down";
  return h(
    "span",
    {
      class: `badge badge--${faceDown ? "down" : "up"}`,
      title: t(faceDown ? "dealing.face_down_title" : "dealing.face_up_title"),
    },
    t(faceDown ? "dealing.face_down" : "dealing.face_up"),
  );
}

/**
 * A studio table's badge: a person deals it from a real shoe (no badge at a table the server
 * deals).
 * @param {Table} table
 */
function studioBadge(table) {
  if (!model.isStudio(table)) return null;
  return h("span", { class: "badge badge--studio", title: t("lobby.studio_title") }, t("lobby.studio"));
}

/** @param {any} roads  the table's roads snapshot */
function shoeCounts(roads) {
  const stats = roads?.stats ?? {};
  const count = (/** @type {string} */ key, /** @type {string} */ label) =>
    h("span", { class: `count count--${key}` }, h("span", { class: "count__label" }, label), ` ${stats[key] ?? 0}`);
  return h(
    "p",
    {
      class: "lobby-card__counts",
      "aria-label": t("lobby.counts", { banker: stats.banker ?? 0, player: stats.player ?? 0, tie: stats.tie ?? 0 }),
    },
    count("banker", t("road.letter.B")),
    count("player", t("road.letter.P")),
    count("tie", t("road.letter.T")),
    h("span", { class: "count count--rounds" }, t("lobby.rounds", { count: stats.rounds ?? 0 })),
  );
}

/** @param {Table} table */
function tile(table) {
  const id = model.tableId(table);
  const round = model.currentRound(table);
  const { min, max } = model.limits(table);
  const href = `#/tables/${encodeURIComponent(id)}`;
  const countdown = h("span", { class: "lobby-card__countdown", dataset: { closes: String(round?.closes_at ?? "") } });
  const watchers = model.watching(table);
  return h(
    "article",
    { class: "lobby-card", dataset: { table: id } },
    h(
      "div",
      { class: "lobby-card__head" },
      h("h2", { class: "lobby-card__title" }, h("a", { href, class: "lobby-card__link" }, model.tableName(table))),
      h("span", { class: "lobby-card__badges" }, studioBadge(table), dealingBadge(table)),
    ),
    h("p", { class: "lobby-card__rules" }, model.rulesetDescription(table)),
    h("div", { class: "lobby-card__road" }, miniBigRoad(model.roads(table))),
    shoeCounts(model.roads(table)),
    h(
      "dl",
      { class: "lobby-card__facts" },
      h(
        "div",
        {},
        h("dt", {}, t("facts.limits")),
        h(
          "dd",
          {},
          min === null
            ? "–"
            : t("facts.range", { min: money(min, model.currency(table)), max: money(max, model.currency(table)) }),
        ),
      ),
      h("div", {}, h("dt", {}, t("facts.watching")), h("dd", {}, String(watchers))),
      h(
        "div",
        { dataset: { fact: "round" } },
        h("dt", {}, t("facts.round")),
        h("dd", {}, model.roundLabel(table, round) || "–"),
      ),
    ),
    h(
      "div",
      { class: `lobby-card__phase phase phase--${round?.phase ?? "idle"}` },
      h("span", { class: "phase__dot", "aria-hidden": "true" }),
      h("span", {}, model.phaseWords(round?.phase)),
      countdown,
    ),
    h("span", { class: "lobby-card__cta", "aria-hidden": "true" }, t("lobby.join")),
  );
}

/**
 * Put fresh tiles in the grid, keeping each table's card and its link element: a click whose
 * press and release straddle a refresh still lands on the link it started on, and the link
 * keeps its focus.
 * @param {HTMLElement} grid
 * @param {HTMLElement[]} tiles
 */
function update(grid, tiles) {
  const shown = new Map(
    [.../** @type {HTMLCollectionOf<HTMLElement>} */ (grid.children)].map((card) => [card.dataset.table, card]),
  );
  const cards = tiles.map((fresh) => {
    const card = shown.get(fresh.dataset.table);
    const head = card?.querySelector(".lobby-card__head");
    const link = card?.querySelector(".lobby-card__link");
    const freshHead = fresh.querySelector(".lobby-card__head");
    const freshLink = fresh.querySelector(".lobby-card__link");
    if (!card || !head || !link || !freshHead || !freshLink) return fresh;
    if (link.textContent !== freshLink.textContent) link.textContent = freshLink.textContent;
    const href = freshLink.getAttribute("href") ?? "";
    if (link.getAttribute("href") !== href) link.setAttribute("href", href);
    // Everything but the title is redrawn; the title's heading stays where it is.
    for (const old of [...head.children].slice(1)) old.remove();
    head.append(...[...freshHead.children].slice(1));
    while (head.nextSibling) head.nextSibling.remove();
    card.append(...[...fresh.children].slice(1));
    return card;
  });
  const same = cards.length === grid.children.length && cards.every((card, i) => grid.children[i] === card);
  if (!same) grid.replaceChildren(...cards);
}

/** @param {HTMLElement} root */
function tick(root) {
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(".lobby-card__countdown"))) {
    const closes = Number(el.dataset.closes);
    const phase = el.closest(".phase");
    const open = phase?.classList.contains("phase--open");
    el.textContent = open && closes ? t("lobby.seconds", { seconds: secondsLeft(msUntil(closes)) }) : "";
  }
}

/**
 * Mount the lobby in `main`; returns {destroy()}.
 * @param {HTMLElement} main
 * @returns {{destroy(): void}}
 */
export function mountLobby(main) {
  document.title = t("app.title", { page: t("lobby.title") });
  const grid = h("div", { class: "lobby__grid" });
  const status = h("p", { class: "lobby__status", role: "status" }, t("lobby.loading"));
  main.replaceChildren(
    h(
      "section",
      { class: "lobby", "aria-labelledby": "lobby-title" },
      h(
        "div",
        { class: "lobby__intro" },
        h("h1", { id: "lobby-title" }, t("lobby.heading")),
        h("p", {}, t("lobby.intro")),
      ),
      status,
      grid,
    ),
  );

  let stopped = false;
  /** @type {number | null} */
  let refreshTimer = null;

  async function refresh() {
    try {
      const data = await api.tables();
      if (stopped) return;
      const tables = Array.isArray(data) ? data : [];
      syncClock(tables[0]?.now);
      status.textContent = tables.length ? "" : t("lobby.none");
      status.hidden = tables.length > 0;
      update(grid, tables.map(tile));
      tick(grid);
    } catch (error) {
      if (stopped) return;
      status.hidden = false;
      status.textContent = t("lobby.failed", { reason: errorText(error) });
    }
    if (!stopped) refreshTimer = window.setTimeout(refresh, REFRESH_MS);
  }

  const ticker = window.setInterval(() => tick(grid), TICK_MS);
  refresh();
  return {
    destroy() {
      stopped = true;
      window.clearTimeout(refreshTimer);
      window.clearInterval(ticker);
    },
  };
}

// ---- the strip of tables at a table ----

/**
 * The strip's last answer, kept across tables: a table switched to draws its strip at once.
 * @type {Table[]}
 */
let stripTables = [];
let stripScroll = 0;

/**
 * The last result of a table's shoe ("B", "P", "T"), or null before its first.
 * @param {Table} table
 * @returns {string | null}
 */
function lastResult(table) {
  return model.roads(table)?.bead_plate?.cells?.at(-1)?.outcome ?? null;
}

/**
 * Every table in a row above the table shown (below the roads on a phone): its name, phase,
 * seconds left and last result; a link switches tables in place (the router mounts the other
 * table: its feed replaces this one's, the seat and balance stay). Re-reads GET /api/tables as
 * the lobby does. Returns {el, destroy()}.
 * @param {string} currentId  the table shown
 */
export function tableStrip(currentId) {
  const list = h("ul", { class: "strip__list" });
  const el = h("nav", { class: "strip", "aria-label": t("strip.label") }, list);
  /** @type {Map<string, {item: HTMLLIElement, link: HTMLAnchorElement, name: HTMLElement, phase: HTMLElement, countdown: HTMLElement, last: HTMLElement, dot: HTMLElement}>} */
  const items = new Map();
  let stopped = false;
  /** @type {number | undefined} */
  let refreshTimer;

  /** @param {string} id */
  function itemFor(id) {
    let found = items.get(id);
    if (found) return found;
    const name = h("span", { class: "strip__name" });
    const phase = h("span", { class: "strip__phase" });
    const countdown = h("span", { class: "strip__countdown" });
    const last = h("span", { class: "visually-hidden" });
    const dot = h("span", { class: "strip__dot", "aria-hidden": "true" });
    const link = h(
      "a",
      { class: "strip__link", href: `#/tables/${encodeURIComponent(id)}` },
      dot,
      h("span", { class: "strip__text" }, name, h("span", { class: "strip__state" }, phase, countdown)),
      last,
    );
    if (id === currentId) link.setAttribute("aria-current", "page");
    found = {
      item: h("li", { class: "strip__item", dataset: { table: id } }, link),
      link,
      name,
      phase,
      countdown,
      last,
      dot,
    };
    items.set(id, found);
    return found;
  }

  function draw() {
    const shown = stripTables.map((table) => {
      const id = model.tableId(table);
      const parts = itemFor(id);
      const round = model.currentRound(table);
      const result = lastResult(table);
      // A studio table and its rule set's table share a title: the strip says which is live.
      const title = model.tableName(table);
      parts.name.textContent = model.isStudio(table) ? `${t("lobby.studio")} · ${title}` : title;
      parts.phase.textContent = model.phaseWords(round?.phase);
      parts.phase.dataset.phase = round?.phase ?? "";
      parts.countdown.dataset.closes = round?.phase === "open" ? String(round.closes_at ?? "") : "";
      parts.dot.className = `strip__dot strip__dot--${result ?? "none"}`;
      parts.dot.textContent = result ? t(`road.letter.${result}`) : "";
      parts.last.textContent = result
        ? t("strip.last", { result: t(result === "B" ? "side.banker" : result === "P" ? "side.player" : "side.tie") })
        : "";
      return parts.item;
    });
    const same = shown.length === list.children.length && shown.every((item, i) => list.children[i] === item);
    if (!same) list.replaceChildren(...shown);
    tickStrip();
  }

  function tickStrip() {
    for (const { countdown } of items.values()) {
      const closes = Number(countdown.dataset.closes);
      countdown.textContent = closes ? t("lobby.seconds", { seconds: secondsLeft(msUntil(closes)) }) : "";
    }
  }

  async function refresh() {
    try {
      const data = await api.tables();
      if (stopped) return;
      stripTables = Array.isArray(data) ? data : [];
      draw();
    } catch {
      // The strip keeps what it showed; the table itself has its own feed.
    }
    if (!stopped) refreshTimer = window.setTimeout(refresh, REFRESH_MS);
  }

  list.addEventListener("scroll", () => {
    stripScroll = list.scrollLeft;
  });
  draw();
  // Where the strip was left, once it is laid out (the table switched from had it scrolled).
  window.requestAnimationFrame(() => {
    list.scrollLeft = stripScroll;
  });
  const ticker = window.setInterval(tickStrip, TICK_MS);
  refresh();
  return {
    el,
    destroy() {
      stopped = true;
      window.clearTimeout(refreshTimer);
      window.clearInterval(ticker);
    },
  };
}
