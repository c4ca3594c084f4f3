// @ts-check
// The five roads, drawn as SVG from the server's roads snapshot. The server has already placed
// every cell (column, row, colour); this module only paints them and never decides a rule.
//
// Each road shows as many columns as fit its box; once the road is wider than that, the view
// keeps its right-most drawn column at the right edge (spec §4.6 of docs/roads.md).

import { s } from "./dom.js";
import { t } from "./i18n.js";

/**
 * The server's roads snapshot (`baccarat roads --json`): cells already placed.
 * @typedef {Record<string, any>} Snapshot
 */
/**
 * A placed cell of a road.
 * @typedef {{col: number, row: number, [field: string]: any}} Cell
 */
/**
 * Paints one cell at (x, y), `size` pixels square.
 * @typedef {(cell: Cell, x: number, y: number, size: number) => SVGElement} Mark
 */

/** @type {Record<string, string>} */
const COLOURS = { B: "banker", P: "player", T: "tie", red: "banker", blue: "player" };
/** @type {Record<string, string>} */
const SIDES = { B: "side.banker", P: "side.player", T: "side.tie" };
/**
 * The derived roads, by key and title (the title in the language shown when read).
 * @type {[string, string][]}
 */
export const DERIVED = [
  ["big_eye_boy", "road.big_eye_boy"],
  ["small_road", "road.small_road"],
  ["cockroach_pig", "road.cockroach_pig"],
];

/**
 * A road result's side in words ("B" -> "Banker").
 * @param {string} outcome
 * @returns {string}
 */
function sideWord(outcome) {
  return t(SIDES[outcome] ?? "side.tie");
}

/**
 * The first drawn column to show for `drawn` columns in a view `width` columns wide.
 * @param {number} drawn
 * @param {number} width
 * @returns {number}
 */
export function windowStart(drawn, width) {
  return Math.max(0, drawn - width);
}

/** @param {Cell[]} cells */
function drawnColumns(cells) {
  return cells.reduce((most, cell) => Math.max(most, cell.col + 1), 0);
}

/**
 * @param {number} cols
 * @param {number} rows
 * @param {number} size
 */
function gridLines(cols, rows, size) {
  const lines = [];
  for (let c = 0; c <= cols; c += 1) {
    lines.push(s("line", { x1: c * size, y1: 0, x2: c * size, y2: rows * size }));
  }
  for (let r = 0; r <= rows; r += 1) {
    lines.push(s("line", { x1: 0, y1: r * size, x2: cols * size, y2: r * size }));
  }
  return s("g", { class: "road__grid" }, lines);
}

/**
 * @param {Cell} cell
 * @param {number} x
 * @param {number} y
 * @param {number} size
 */
function pairDots(cell, x, y, size) {
  const dot = size * 0.14;
  return [
    cell.banker_pair &&
      s("circle", { class: "road__pair road__pair--banker", cx: x + dot + 1, cy: y + dot + 1, r: dot }),
    cell.player_pair &&
      s("circle", { class: "road__pair road__pair--player", cx: x + size - dot - 1, cy: y + size - dot - 1, r: dot }),
  ];
}

/** @type {Mark} */
function beadMark(cell, x, y, size) {
  const colour = COLOURS[cell.outcome];
  return s(
    "g",
    { class: `road__bead road--${colour}` },
    s("circle", { cx: x + size / 2, cy: y + size / 2, r: size * 0.42 }),
    s(
      "text",
      {
        x: x + size / 2,
        y: y + size / 2,
        "dominant-baseline": "central",
        "text-anchor": "middle",
        "font-size": size * 0.46,
      },
      t(`road.letter.${cell.outcome}`),
    ),
    pairDots(cell, x, y, size),
  );
}

/** @type {Mark} */
function bigRoadMark(cell, x, y, size) {
  const colour = cell.outcome ? COLOURS[cell.outcome] : "tie";
  const parts = [];
  if (cell.outcome) {
    parts.push(s("circle", { class: "road__ring", cx: x + size / 2, cy: y + size / 2, r: size * 0.36 }));
  }
  if (cell.ties > 0) {
    parts.push(
      s("line", {
        class: "road__tie",
        x1: x + size * 0.22,
        y1: y + size * 0.78,
        x2: x + size * 0.78,
        y2: y + size * 0.22,
      }),
    );
    if (cell.ties > 1) {
      parts.push(
        s(
          "text",
          {
            class: "road__tie-count",
            x: x + size / 2,
            y: y + size / 2,
            "dominant-baseline": "central",
            "text-anchor": "middle",
            "font-size": size * 0.5,
          },
          String(cell.ties),
        ),
      );
    }
  }
  return s("g", { class: `road__big road--${colour}` }, parts, pairDots(cell, x, y, size));
}

/**
 * @param {string} kind  big_eye_boy, small_road or cockroach_pig
 * @param {string} colour  red or blue
 * @param {number} x
 * @param {number} y
 * @param {number} size
 * @returns {SVGElement}
 */
function derivedMark(kind, colour, x, y, size) {
  const cls = `road__derived road--${COLOURS[colour]}`;
  const c = { cx: x + size / 2, cy: y + size / 2 };
  if (kind === "big_eye_boy") return s("circle", { class: `${cls} road__hollow`, ...c, r: size * 0.34 });
  if (kind === "small_road") return s("circle", { class: `${cls} road__solid`, ...c, r: size * 0.36 });
  return s("line", {
    class: `${cls} road__slash`,
    x1: x + size * 0.2,
    y1: y + size * 0.8,
    x2: x + size * 0.8,
    y2: y + size * 0.2,
  });
}

/**
 * One road as an SVG: `cells` from the snapshot, `mark(cell, x, y, size)` paints one,
 * `ask` (optional) is {cell, mark} for a would-be cell that blinks.
 * @param {{cells: Cell[], cols: number, size: number, mark: Mark, label: string, ask?: {cell: Cell, mark: Mark} | null | false}} road
 * @returns {SVGSVGElement}
 */
function roadSvg({ cells, cols, size, mark, label, ask }) {
  const rows = 6;
  let drawn = drawnColumns(cells);
  if (ask) drawn = Math.max(drawn, ask.cell.col + 1);
  const start = windowStart(drawn, cols);
  const visible = (/** @type {Cell} */ cell) => cell.col >= start && cell.col < start + cols;
  /** @type {(cell: Cell) => [number, number]} */
  const at = (cell) => [(cell.col - start) * size, cell.row * size];
  return s(
    "svg",
    {
      class: "road__svg",
      viewBox: `0 0 ${cols * size} ${rows * size}`,
      width: cols * size,
      height: rows * size,
      role: "img",
      "aria-label": label,
    },
    s("rect", { class: "road__paper", width: cols * size, height: rows * size }),
    gridLines(cols, rows, size),
    cells.filter(visible).map((cell) => mark(cell, ...at(cell), size)),
    ask && visible(ask.cell) && s("g", { class: "road__ask" }, ask.mark(ask.cell, ...at(ask.cell), size)),
  );
}

/**
 * @param {Cell[]} cells
 * @param {number} count
 */
function recentWords(cells, count) {
  return cells
    .slice(-count)
    .map((cell) => sideWord(cell.outcome))
    .join(", ");
}

/**
 * The bead plate: one cell per round, columns of six, top to bottom.
 * @param {Snapshot | null} snapshot
 * @param {number} cols  columns shown
 * @param {number} size  pixels per cell
 */
export function beadPlate(snapshot, cols, size) {
  const cells = snapshot?.bead_plate?.cells ?? [];
  const label = cells.length
    ? t("road.bead", { count: cells.length, recent: recentWords(cells, 6) })
    : t("road.bead_empty");
  return roadSvg({ cells, cols, size, mark: beadMark, label });
}

/**
 * The big road; with `side` ("banker"/"player") it also shows that ask's cell.
 * @param {Snapshot | null} snapshot
 * @param {number} cols
 * @param {number} size
 * @param {string | null} [side]
 */
export function bigRoad(snapshot, cols, size, side = null) {
  const cells = snapshot?.big_road?.cells ?? [];
  const where = side && snapshot?.predictions?.[side]?.big_road;
  const letter = side === "banker" ? "B" : "P";
  const ask = where && {
    cell: { ...where, outcome: letter, ties: 0 },
    mark: bigRoadMark,
  };
  const columns = snapshot?.big_road?.columns ?? [];
  const last = columns.at(-1);
  const label = columns.length
    ? t("road.big", { count: columns.length, side: sideWord(last[0]), length: last.length })
    : t("road.big_empty");
  return roadSvg({ cells, cols, size, mark: bigRoadMark, label, ask });
}

/**
 * One derived road (big_eye_boy, small_road or cockroach_pig), with an optional ask.
 * @param {Snapshot | null} snapshot
 * @param {string} name
 * @param {number} cols
 * @param {number} size
 * @param {string | null} [side]
 */
export function derivedRoad(snapshot, name, cols, size, side = null) {
  const cells = snapshot?.[name]?.cells ?? [];
  const predicted = side && snapshot?.predictions?.[side]?.[name];
  /** @type {Mark} */
  const mark = (cell, x, y, sz) => derivedMark(name, cell.colour, x, y, sz);
  const titleKey = DERIVED.find(([key]) => key === name)?.[1];
  const title = titleKey ? t(titleKey) : name;
  const recent = cells
    .slice(-4)
    .map((/** @type {Cell} */ cell) => t(`colour.${cell.colour}`))
    .join(", ");
  const label = cells.length
    ? t("road.derived", { title, count: cells.length, recent })
    : t("road.derived_empty", { title });
  return roadSvg({ cells, cols, size, mark, label, ask: predicted && { cell: predicted, mark } });
}

/**
 * The little symbol of an ask button: how `name` would mark a result, or a dash.
 * @param {string} name
 * @param {{colour: string} | null | undefined} predicted
 */
export function askSymbol(name, predicted) {
  const size = 14;
  return s(
    "svg",
    { class: "ask__symbol", viewBox: `0 0 ${size} ${size}`, width: size, height: size, "aria-hidden": "true" },
    predicted
      ? derivedMark(name, predicted.colour, 0, 0, size)
      : s("line", { class: "ask__none", x1: 3, y1: size / 2, x2: size - 3, y2: size / 2 }),
  );
}

/**
 * The lobby's miniature big road: the last `cols` columns, no grid labels.
 * @param {Snapshot | null} snapshot
 */
export function miniBigRoad(snapshot, cols = 26, size = 12) {
  const svg = bigRoad(snapshot, cols, size);
  svg.classList.add("road__svg--mini");
  return svg;
}
