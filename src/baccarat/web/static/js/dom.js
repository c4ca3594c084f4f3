// @ts-check
// Two tiny element builders, so views read like the markup they make.

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * Attributes and listeners: `class`, `text`, `dataset`, `on<event>` handlers and any attribute
 * (true makes a bare attribute; null, undefined and false leave it out).
 * @typedef {Record<string, any>} Props
 */
/**
 * A child: a node or a text, or lists of them, nested; null, undefined and false are skipped.
 * @typedef {Node | string | null | undefined | false | Kid[]} Kid
 */

/**
 * @template {HTMLElement | SVGElement} E
 * @param {E} el
 * @param {Props | null | undefined} props
 * @returns {E}
 */
function apply(el, props) {
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.setAttribute("class", value);
    else if (key === "text") el.textContent = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else el.setAttribute(key, value === true ? "" : String(value));
  }
  return el;
}

/**
 * @param {Kid[]} list
 * @returns {(Node | string)[]}
 */
function children(list) {
  return /** @type {any[]} */ (list).flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false);
}

/**
 * An HTML element: h("button", {class: "btn", onclick: f}, "Undo").
 * @template {string} K
 * @param {K} tag
 * @param {Props | null} [props]
 * @param {...Kid} kids
 * @returns {K extends keyof HTMLElementTagNameMap ? HTMLElementTagNameMap[K] : HTMLElement}
 */
export function h(tag, props, ...kids) {
  const el = apply(document.createElement(tag), props);
  el.append(...children(kids));
  return /** @type {any} */ (el);
}

/**
 * An SVG element, same shape as h().
 * @template {string} K
 * @param {K} tag
 * @param {Props | null} [props]
 * @param {...Kid} kids
 * @returns {K extends keyof SVGElementTagNameMap ? SVGElementTagNameMap[K] : SVGElement}
 */
export function s(tag, props, ...kids) {
  const el = apply(document.createElementNS(SVG_NS, tag), props);
  el.append(...children(kids));
  return /** @type {any} */ (el);
}

/**
 * Say something to screen-reader users (the page's polite live region).
 * @param {string} text
 */
export function announce(text) {
  const region = document.getElementById("announcer");
  if (!region) return;
  // Clearing first makes a repeated message be read again.
  region.textContent = "";
  window.setTimeout(() => {
    region.textContent = text;
  }, 30);
}

/**
 * Whether the user asked the system for less motion.
 * @returns {boolean}
 */
export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/**
 * Replace an element's children, skipping null, undefined and false (unlike replaceChildren).
 * @template {Element} E
 * @param {E} el
 * @param {...Kid} kids
 * @returns {E}
 */
export function fill(el, ...kids) {
  el.replaceChildren(...children(kids));
  return el;
}
