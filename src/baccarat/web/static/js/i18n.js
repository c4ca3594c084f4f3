// @ts-check
// The page's two languages, English and Bahasa Indonesia: the message catalogues
// (messages/en.js, messages/id.js), t(key, values) with {placeholders} and plural forms, and
// money, numbers and dates written the way the language writes them (Intl). English is always
// loaded (it is the default, and the fallback of a missing key); Indonesian is fetched when it
// is first chosen. The choice is kept in localStorage; without one, the browser's language
// decides (id → Indonesian, anything else → English). Switching calls every listener
// (onLanguage), re-applies every label bound with bind() or data-i18n, and sets <html lang>.

import en from "./messages/en.js";

/** A message: a text with {placeholders}, or plural forms chosen by the value `count`. */
/** @typedef {string | Record<string, string>} Message */
/** @typedef {Record<string, Message>} Catalogue */
/** A placeholder's value: a function is called when the text is made (so a relabel re-formats). */
/** @typedef {string | number | null | undefined | (() => string | number)} Value */

const KEY = "baccarat.language";
/** The languages offered, by code: their own name and the locale their numbers and dates use. */
export const LANGUAGES = /** @type {const} */ ({
  en: { name: "English", short: "EN" },
  id: { name: "Bahasa Indonesia", short: "ID" },
});
/** @typedef {keyof typeof LANGUAGES} Language */

/** @type {Partial<Record<Language, Catalogue>>} */
const catalogues = { en };
/** @type {Record<Language, () => Promise<{default: Catalogue}>>} */
const LOADERS = {
  en: async () => ({ default: en }),
  id: () => import("./messages/id.js"),
};

/** A page's own catalogues (the back office's), added to each language's as it is loaded. */
/** @type {Partial<Record<Language, () => Promise<{default: Catalogue}>>>[]} */
const extras = [];

/** @type {Language} */
let current = "en";
// The currency of the money the server counts, and its minor-unit exponent (2: an amount is
// hundredths). The server names it (/api/config, each table's rule set; see setCurrency);
// US dollars until it has.
let currency = "USD";
let minorUnit = 2;
/** Exponents other than 2 (baccarat.rulesets.CURRENCIES), for money not the one shown. */
/** @type {Record<string, number>} */
const DIGITS = { IDR: 0 };
/** @type {Set<(language: Language) => void>} */
const listeners = new Set();

/**
 * The browser's own language tag ("en-GB", "id-ID", …), or "".
 * @returns {string}
 */
function browserTag() {
  return (navigator.languages?.[0] ?? navigator.language ?? "").toLowerCase();
}

/**
 * @param {unknown} code
 * @returns {code is Language}
 */
function known(code) {
  return typeof code === "string" && Object.hasOwn(LANGUAGES, code);
}

/**
 * The language chosen before on this device (null: none chosen, or no storage).
 * @returns {Language | null}
 */
export function chosenLanguage() {
  try {
    const stored = window.localStorage.getItem(KEY);
    return known(stored) ? stored : null;
  } catch {
    return null;
  }
}

/**
 * The language to start with: the one chosen before on this device, else the browser's
 * (Indonesian for id-*, and the old code in-*), else English.
 * @returns {Language}
 */
export function preferredLanguage() {
  const tag = browserTag();
  return chosenLanguage() ?? (tag.startsWith("id") || tag.startsWith("in") ? "id" : "en");
}

/** @returns {Language} the language shown */
export function language() {
  return current;
}

/**
 * The locale numbers and dates are written in: the browser's own English ("en-GB" writes dates
 * as the British do) or en-US; id-ID for Indonesian.
 * @returns {string}
 */
export function locale() {
  if (current === "id") return "id-ID";
  const tag = browserTag();
  return tag.startsWith("en") ? tag : "en-US";
}

/**
 * Show the page in `code` (loading its catalogue first), remember it unless told not to, and
 * tell every listener. Resolves to the language shown.
 * @param {string} code
 * @param {{remember?: boolean}} [options]
 * @returns {Promise<Language>}
 */
export async function setLanguage(code, { remember = true } = {}) {
  const next = known(code) ? code : "en";
  if (!catalogues[next]) {
    const loaded = (await LOADERS[next]()).default;
    for (const extra of extras) Object.assign(loaded, (await extra[next]?.())?.default);
    catalogues[next] = loaded;
  }
  if (remember) {
    try {
      window.localStorage.setItem(KEY, next);
    } catch {
      // Remembered for this page only.
    }
  }
  const changed = next !== current;
  current = next;
  document.documentElement.lang = next;
  if (changed) {
    relabel();
    for (const listener of listeners) listener(next);
  }
  return next;
}

/**
 * Add a page's own messages (the back office's) to every language: each language's file is
 * fetched with that language, now for those already loaded.
 * @param {Partial<Record<Language, () => Promise<{default: Catalogue}>>>} loaders
 */
export async function addCatalogues(loaders) {
  extras.push(loaders);
  for (const [code, loaded] of Object.entries(catalogues)) {
    Object.assign(loaded, (await loaders[/** @type {Language} */ (code)]?.())?.default);
  }
}

/**
 * Call `listener(language)` after every switch; returns the unsubscribe.
 * @param {(language: Language) => void} listener
 * @returns {() => boolean}
 */
export function onLanguage(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// ---- messages ------------------------------------------------------------------------------

/** @type {Map<string, Intl.PluralRules>} */
const pluralRules = new Map();

/**
 * The plural category of `count` in the language shown ("one", "other", …).
 * @param {number} count
 * @returns {string}
 */
function pluralOf(count) {
  const tag = locale();
  let rules = pluralRules.get(tag);
  if (!rules) {
    rules = new Intl.PluralRules(tag);
    pluralRules.set(tag, rules);
  }
  return rules.select(count);
}

/**
 * The message of `key` in the language shown (English when that catalogue lacks it).
 * @param {string} key
 * @returns {Message | undefined}
 */
function message(key) {
  return catalogues[current]?.[key] ?? en[key];
}

/**
 * Whether the catalogues have `key`.
 * @param {string} key
 * @returns {boolean}
 */
export function has(key) {
  return message(key) !== undefined;
}

/**
 * The text of `key`, its plural form chosen by `values.count`, as a list of parts: the text
 * between placeholders, and each placeholder's value (a node is kept as it is).
 * @param {string} key
 * @param {Record<string, Value | Node>} values
 * @returns {(string | Node)[]}
 */
function parts(key, values) {
  let text = message(key);
  if (text === undefined) return [key];
  if (typeof text !== "string") text = text[pluralOf(Number(values.count))] ?? text.other ?? "";
  /** @type {(string | Node)[]} */
  const out = [];
  let last = 0;
  for (const match of text.matchAll(/\{(\w+)\}/g)) {
    const name = match[1];
    if (!Object.hasOwn(values, name)) continue;
    out.push(text.slice(last, match.index));
    const value = values[name];
    out.push(value instanceof Node ? value : String(typeof value === "function" ? value() : (value ?? "")));
    last = match.index + match[0].length;
  }
  out.push(text.slice(last));
  return out;
}

/**
 * The text of `key` with its {placeholders} filled from `values`; a message with plural forms
 * takes the form of `values.count`. A key no catalogue has is returned as it is.
 * @param {string} key
 * @param {Record<string, Value>} [values]
 * @returns {string}
 */
export function t(key, values = {}) {
  return parts(key, values).join("");
}

/**
 * Like t(), but placeholders may be nodes (an amount in its own element): the nodes and texts
 * to append, in the language's word order.
 * @param {string} key
 * @param {Record<string, Value | Node>} [values]
 * @returns {(string | Node)[]}
 */
export function tNodes(key, values = {}) {
  return parts(key, values).filter((part) => part !== "");
}

// ---- labels that follow a switch ---------------------------------------------------------

/** @type {Set<WeakRef<Element>>} */
const bound = new Set();
/** @type {WeakMap<Element, Map<string, {key: string, values: Record<string, Value>}>>} */
const bindings = new WeakMap();

/**
 * @param {Element} el
 * @param {string} attr  "" for the text
 * @param {string} text
 */
function put(el, attr, text) {
  if (attr) el.setAttribute(attr, text);
  else el.textContent = text;
}

/**
 * Give `el` the text of `key` (or, with `attr`, that attribute), and again after every switch.
 * Values may be functions, called each time (an amount formatted in the language shown).
 * Returns `el`.
 * @template {Element} E
 * @param {E} el
 * @param {string} key
 * @param {Record<string, Value>} [values]
 * @param {string} [attr]
 * @returns {E}
 */
export function bind(el, key, values = {}, attr = "") {
  let own = bindings.get(el);
  if (!own) {
    own = new Map();
    bindings.set(el, own);
    bound.add(new WeakRef(el));
  }
  own.set(attr, { key, values });
  put(el, attr, t(key, values));
  return el;
}

/**
 * Stop following the switch for `el`'s text (or `attr`): it is about to say something else.
 * @param {Element} el
 * @param {string} [attr]
 */
export function unbind(el, attr = "") {
  bindings.get(el)?.delete(attr);
}

/** The attributes index.html marks as data-i18n-{attribute}="key". */
const MARKED = ["aria-label", "title", "placeholder"];

/**
 * Bind the elements of `root` that the markup names a key for: data-i18n (the text) and
 * data-i18n-aria-label, data-i18n-title, data-i18n-placeholder.
 * @param {ParentNode} root
 */
export function bindMarked(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) bind(el, /** @type {HTMLElement} */ (el).dataset.i18n);
  for (const attr of MARKED) {
    for (const el of root.querySelectorAll(`[data-i18n-${attr}]`)) {
      bind(el, el.getAttribute(`data-i18n-${attr}`) ?? "", {}, attr);
    }
  }
}

/** Every bound label again, in the language shown (the switch does it). */
export function relabel() {
  for (const ref of bound) {
    const el = ref.deref();
    if (!el) {
      bound.delete(ref);
      continue;
    }
    for (const [attr, { key, values }] of bindings.get(el) ?? []) put(el, attr, t(key, values));
  }
}

// ---- money, numbers, dates ------------------------------------------------------------------

/** @type {Map<string, Intl.NumberFormat>} */
const numberFormats = new Map();

/**
 * @param {Intl.NumberFormatOptions} options
 * @returns {Intl.NumberFormat}
 */
function numberFormat(options) {
  const id = `${locale()}|${JSON.stringify(options)}`;
  let format = numberFormats.get(id);
  if (!format) {
    format = new Intl.NumberFormat(locale(), options);
    numberFormats.set(id, format);
  }
  return format;
}

/**
 * The currency of the money shown (ISO 4217: "USD", "IDR", …) and its minor-unit exponent, as
 * the server names them; unknown codes are ignored.
 * @param {unknown} code
 * @param {unknown} [exponent]  digits of the minor unit (2: hundredths)
 */
export function setCurrency(code, exponent = 2) {
  if (typeof code !== "string" || !/^[A-Z]{3}$/.test(code)) return;
  try {
    new Intl.NumberFormat("en", { style: "currency", currency: code });
    currency = code;
    minorUnit = Number.isInteger(exponent) && Number(exponent) >= 0 && Number(exponent) <= 4 ? Number(exponent) : 2;
  } catch {
    // Not a currency this browser knows: keep the one there is.
  }
}

/** @returns {string} the currency of the money shown */
export function moneyCurrency() {
  return currency;
}

/** @returns {number} its minor-unit exponent (2: cents; 0: the rupiah, counted whole) */
export function moneyDigits() {
  return minorUnit;
}

/**
 * An amount of minor units as money in the language shown: 123456 → "$1,234.56" in English,
 * "$1.234,56" in Indonesian; IDR → "Rp 1.234,56". The amount is written as an exact decimal
 * string (integer arithmetic, never a float) and Intl places the symbol, grouping and decimal
 * mark; a negative amount gets a true minus sign (−).
 * @param {number | null | undefined} minor
 * @param {string} [code]  ISO 4217 currency; the money's own by default
 * @param {number} [digits]  its minor-unit exponent; the money's own by default
 * @returns {string}
 */
export function formatMoney(minor, code = currency, digits = code === currency ? minorUnit : (DIGITS[code] ?? 2)) {
  if (!Number.isSafeInteger(minor)) return "–";
  const abs = Math.abs(minor);
  const unit = 10 ** digits;
  const fraction = digits ? `.${String(abs % unit).padStart(digits, "0")}` : "";
  const exact = `${minor < 0 ? "-" : ""}${Math.trunc(abs / unit)}${fraction}`;
  const format = numberFormat({
    style: "currency",
    currency: code,
    currencyDisplay: "narrowSymbol",
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  // A decimal string is formatted exactly (Intl.NumberFormat v3); the types know numbers only.
  return format
    .formatToParts(/** @type {any} */ (exact))
    .map((part) => (part.type === "minusSign" ? "−" : part.value))
    .join("");
}

/**
 * The symbol the money is written with ("$", "Rp").
 * @param {string} [code]
 * @returns {string}
 */
export function currencySymbol(code = currency) {
  const format = numberFormat({ style: "currency", currency: code, currencyDisplay: "narrowSymbol" });
  return format.formatToParts(0).find((part) => part.type === "currency")?.value ?? code;
}

/**
 * A number in the language shown: 1234.5 → "1,234.5" / "1.234,5". A decimal string ("1.0579")
 * is written exactly, with as many decimals as it has.
 * @param {number | string} value
 * @param {Intl.NumberFormatOptions} [options]
 * @returns {string}
 */
export function formatNumber(value, options = {}) {
  if (typeof value === "string") {
    const decimals = /\.(\d+)$/.exec(value)?.[1].length ?? 0;
    const exact = { minimumFractionDigits: decimals, maximumFractionDigits: decimals, ...options };
    return numberFormat(exact).format(/** @type {any} */ (value));
  }
  return numberFormat(options).format(value);
}

/**
 * The decimal mark of the language shown ("." or ",").
 * @returns {string}
 */
export function decimalMark() {
  return (
    numberFormat({ minimumFractionDigits: 1 })
      .formatToParts(1.5)
      .find((p) => p.type === "decimal")?.value ?? "."
  );
}

/** @type {Map<string, Intl.DateTimeFormat>} */
const dateFormats = new Map();

/**
 * A moment (ms since the epoch, a Date or ISO text) in the language shown, with
 * Intl.DateTimeFormat `options` (the person's own time zone unless `timeZone` says otherwise).
 * @param {number | string | Date} value
 * @param {Intl.DateTimeFormatOptions} [options]
 * @returns {string}
 */
export function formatDate(value, options = { dateStyle: "medium", timeStyle: "short" }) {
  const moment = value instanceof Date ? value : new Date(typeof value === "string" ? Date.parse(value) : value);
  if (Number.isNaN(moment.getTime())) return String(value);
  const id = `${locale()}|${JSON.stringify(options)}`;
  let format = dateFormats.get(id);
  if (!format) {
    format = new Intl.DateTimeFormat(locale(), options);
    dateFormats.set(id, format);
  }
  return format.format(moment);
}

/**
 * A server instant (ISO text or ms) in UTC, to the second: "2024-06-01 12:00:00 UTC" in
 * English (as the server's own messages write it), "1 Jun 2024, 12.00.00 UTC" in Indonesian.
 * @param {string | number | null | undefined} value
 * @returns {string}
 */
export function utcStamp(value) {
  const ms = typeof value === "number" ? value : Date.parse(value ?? "");
  if (!Number.isFinite(ms)) return String(value ?? "–");
  const moment = new Date(ms);
  const time =
    current === "en"
      ? moment.toISOString().slice(0, 19).replace("T", " ")
      : formatDate(moment, { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" });
  return t("time.utc", { time });
}
