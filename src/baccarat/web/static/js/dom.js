// Two tiny element builders, so views read like the markup they make.

const SVG_NS = "http://www.w3.org/2000/svg";

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

function children(list) {
  return list.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false);
}

/** An HTML element: h("button", {class: "btn", onclick: f}, "Undo"). */
export function h(tag, props, ...kids) {
  const el = apply(document.createElement(tag), props);
  el.append(...children(kids));
  return el;
}

/** An SVG element, same shape as h(). */
export function s(tag, props, ...kids) {
  const el = apply(document.createElementNS(SVG_NS, tag), props);
  el.append(...children(kids));
  return el;
}

/** Say something to screen-reader users (the page's polite live region). */
export function announce(text) {
  const region = document.getElementById("announcer");
  if (!region) return;
  // Clearing first makes a repeated message be read again.
  region.textContent = "";
  window.setTimeout(() => {
    region.textContent = text;
  }, 30);
}

/** Whether the user asked the system for less motion. */
export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Replace an element's children, skipping null, undefined and false (unlike replaceChildren). */
export function fill(el, ...kids) {
  el.replaceChildren(...children(kids));
  return el;
}
