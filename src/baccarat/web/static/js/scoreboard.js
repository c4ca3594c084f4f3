// @ts-check
// The scoreboard panel of a table: the five roads, the Banker and Player asks, the shoe's
// statistics (its counts, its last results, its streaks), and the reminder that roads record
// the past and predict nothing.

import { h } from "./dom.js";
import { formatNumber, t } from "./i18n.js";
import { DERIVED, askSymbol, beadPlate, bigRoad, derivedRoad } from "./roads.js";

const ASK_MS = 4000;
/** How many of the latest results the history row shows and counts. */
export const RECENT = 20;

/**
 * A shoe's results so far, oldest first ("B", "P" or "T"), from the roads snapshot's bead plate.
 * @param {import("./roads.js").Snapshot | null | undefined} snapshot
 * @returns {string[]}
 */
export function shoeResults(snapshot) {
  return (snapshot?.bead_plate?.cells ?? []).map((/** @type {{outcome: string}} */ cell) => cell.outcome);
}

/**
 * What a shoe's results have been (history, never a forecast): the last `n`, the streak the
 * latest results make, the longest Banker and Player streaks, and the counts in the last `n`.
 * A tie neither ends nor lengthens a streak, as the big road draws it (a mark on the cell
 * before).
 *
 *   streaks(["B", "B", "T", "B", "P", "P"], 4)
 *   → {last: ["T", "B", "P", "P"], current: {side: "P", length: 2},
 *      longest: {B: 3, P: 2}, counts: {B: 1, P: 2, T: 1}}
 * @param {string[]} results  oldest first
 * @param {number} [n]
 * @returns {{last: string[], current: {side: string, length: number} | null,
 *   longest: {B: number, P: number}, counts: {B: number, P: number, T: number}}}
 */
export function streaks(results, n = RECENT) {
  /** @type {string | null} */
  let side = null;
  let length = 0;
  const longest = { B: 0, P: 0 };
  for (const result of results) {
    if (result !== "B" && result !== "P") continue;
    length = result === side ? length + 1 : 1;
    side = result;
    longest[result] = Math.max(longest[result], length);
  }
  const last = results.slice(-n);
  const counts = { B: 0, P: 0, T: 0 };
  for (const result of last) if (result === "B" || result === "P" || result === "T") counts[result] += 1;
  return { last, current: side ? { side, length } : null, longest, counts };
}

/** @type {Record<string, string>} */
const SIDE_KEYS = { B: "side.banker", P: "side.player", T: "side.tie" };

/**
 * The last results as dots and the streaks in words (history, never a forecast).
 * @param {import("./roads.js").Snapshot | null} snapshot
 */
function recentView(snapshot) {
  const { last, current, longest, counts } = streaks(shoeResults(snapshot));
  const words = last.map((result) => t(SIDE_KEYS[result] ?? "side.tie"));
  /**
   * @param {string} key
   * @param {string} value
   * @param {string} fact
   */
  const fact = (key, value, fact) =>
    h("div", { class: "recent__fact", dataset: { fact } }, h("dt", {}, t(key, { count: RECENT })), h("dd", {}, value));
  return [
    h(
      "div",
      {
        class: "recent__dots",
        role: "img",
        "aria-label": last.length ? t("recent.dots", { count: last.length, list: words.join(", ") }) : t("recent.none"),
        dataset: { results: last.join("") },
      },
      last.map((result) => h("span", { class: `recent__dot recent__dot--${result}` }, t(`road.letter.${result}`))),
    ),
    h(
      "dl",
      { class: "recent__facts" },
      fact(
        "recent.current",
        current ? t("recent.run", { side: t(SIDE_KEYS[current.side]), count: current.length }) : "–",
        "current",
      ),
      fact("recent.longest", t("recent.longest_value", { banker: longest.B, player: longest.P }), "longest"),
      fact("recent.counts", t("recent.counts_value", { banker: counts.B, player: counts.P, tie: counts.T }), "counts"),
    ),
  ];
}

/**
 * How many cells of `size` pixels fit across `box` (at least `least`).
 * @param {HTMLElement} box
 * @param {number} size
 * @param {number} least
 */
function fit(box, size, least) {
  return Math.max(least, Math.floor((box.clientWidth || size * least) / size));
}

/**
 * @param {string} side  banker or player
 * @param {Record<string, {colour: string} | null> | undefined} predictions
 */
function askLabel(side, predictions) {
  const name = t(side === "banker" ? "side.banker" : "side.player");
  const parts = DERIVED.map(([key, title]) => {
    const colour = predictions?.[key]?.colour;
    return t("ask.part", { title: t(title), colour: colour ? t(`colour.${colour}`) : t("ask.nothing") });
  });
  // The name starts with the button's own words ("B ask"), so it can be found by them.
  const shown = t(side === "banker" ? "ask.banker" : "ask.player");
  return t("ask.label", { shown, side: name, parts: parts.join(", ") });
}

/** The statistics also given as a share of the shoe's rounds (coups). */
const SHARED = new Set(["banker", "player", "tie", "banker_pairs", "player_pairs"]);

// Each statistic: its key in the roads' stats, and its tone.
const STATS = [
  ["banker", "banker"],
  ["player", "player"],
  ["tie", "tie"],
  ["banker_pairs", "banker"],
  ["player_pairs", "player"],
  ["naturals", ""],
  ["rounds", ""],
];

/** The panel; returns {el, update(snapshot), destroy()}. */
export function scoreboard() {
  const bead = h("div", { class: "roads__bead" });
  const big = h("div", { class: "roads__big" });
  const derived = Object.fromEntries(
    DERIVED.map(([key]) => [key, h("div", { class: `roads__derived roads__${key}` })]),
  );
  const stats = h("dl", { class: "roads__stats" });
  const recent = h("div", { class: "recent" });
  /** @type {Record<string, HTMLButtonElement>} */
  const askButtons = {};
  /** @type {import("./roads.js").Snapshot | null} */
  let snapshot = null;
  /** @type {string | null} */
  let asking = null;
  /** @type {number | null} */
  let askTimer = null;

  for (const side of ["banker", "player"]) {
    askButtons[side] = h("button", {
      type: "button",
      class: `ask ask--${side}`,
      "aria-pressed": "false",
      onclick: () => toggleAsk(side),
    });
  }

  // What the roads are not, and where the cards come from: the shuffled shoe alone, or at a
  // studio table the shoe its dealer shuffled, each card as it is read.
  const note = h("p", { class: "roads__note" }, t("scoreboard.note"));
  const el = h(
    "section",
    { class: "roads", "aria-labelledby": "roads-title" },
    h("h2", { class: "panel-title", id: "roads-title" }, t("scoreboard.title")),
    h(
      "div",
      { class: "roads__board" },
      bead,
      big,
      derived.big_eye_boy,
      h("div", { class: "roads__pair-row" }, derived.small_road, derived.cockroach_pig),
    ),
    h(
      "div",
      { class: "roads__footer" },
      h(
        "div",
        { class: "roads__asks", role: "group", "aria-label": t("scoreboard.asks") },
        askButtons.banker,
        askButtons.player,
      ),
      stats,
    ),
    h(
      "section",
      { class: "recent__box", "aria-labelledby": "recent-title" },
      h("h3", { class: "recent__title", id: "recent-title" }, t("recent.title")),
      recent,
    ),
    note,
  );

  /** @param {string} side */
  function toggleAsk(side) {
    asking = asking === side ? null : side;
    window.clearTimeout(askTimer);
    if (asking)
      askTimer = window.setTimeout(() => {
        asking = null;
        draw();
      }, ASK_MS);
    draw();
  }

  function draw() {
    const cell = 22;
    bead.replaceChildren(beadPlate(snapshot, fit(bead, cell, 6), cell));
    const bigCell = 16;
    big.replaceChildren(bigRoad(snapshot, fit(big, bigCell, 10), bigCell, asking));
    for (const [key] of DERIVED) {
      derived[key].replaceChildren(derivedRoad(snapshot, key, fit(derived[key], bigCell / 2, 10), bigCell / 2, asking));
    }
    for (const side of ["banker", "player"]) {
      const predictions = snapshot?.predictions?.[side];
      const button = askButtons[side];
      button.setAttribute("aria-pressed", String(asking === side));
      button.setAttribute("aria-label", askLabel(side, predictions));
      button.replaceChildren(
        h("span", { class: "ask__name" }, t(side === "banker" ? "ask.banker" : "ask.player")),
        h(
          "span",
          { class: "ask__symbols" },
          DERIVED.map(([key]) => askSymbol(key, predictions?.[key])),
        ),
      );
    }
    recent.replaceChildren(...recentView(snapshot));
    const counts = snapshot?.stats ?? {};
    const rounds = counts.rounds ?? 0;
    stats.replaceChildren(
      ...STATS.map(([key, tone]) => {
        const count = counts[key] ?? 0;
        // Whole percents, written as the language writes them ("45%", "45 %"); none before a coup.
        const share = SHARED.has(key) && rounds ? formatNumber(count / rounds, { style: "percent" }) : null;
        return h(
          "div",
          { class: `stat stat--${tone || "plain"}`, dataset: { stat: key } },
          h("dt", {}, t(`stat.${key}`)),
          h("dd", {}, String(count)),
          share
            ? h(
                "dd",
                {
                  class: "stat__share",
                  "aria-label": t("stat.share", { share }),
                  dataset: { share: String(count / rounds) },
                },
                share,
              )
            : null,
        );
      }),
    );
  }

  // Redraw when the width changes (a phone turned, a window resized), a frame later so the
  // new drawing never resizes the box inside the observer's own callback.
  let width = 0;
  let frame = 0;
  const observer = new ResizeObserver(([entry]) => {
    const now = Math.round(entry.contentRect.width);
    if (now === width) return;
    width = now;
    window.cancelAnimationFrame(frame);
    frame = window.requestAnimationFrame(draw);
  });
  observer.observe(el);

  return {
    el,
    /** @param {import("./roads.js").Snapshot | null | undefined} next */
    update(next) {
      snapshot = next ?? null;
      draw();
    },
    /** @param {boolean} studio  a person deals the table from a card-reading shoe */
    setStudio(studio) {
      note.textContent = t(studio ? "scoreboard.note_studio" : "scoreboard.note");
    },
    destroy() {
      observer.disconnect();
      window.cancelAnimationFrame(frame);
      window.clearTimeout(askTimer);
    },
  };
}
