// @ts-check
// The page's entry point: the language (English or Indonesian, chosen in the top bar), the top
// bar, its dialogs (log in, history, reality check), and a hash router between the views. A
// language switch relabels the top bar and the dialogs and mounts the view again, without a reload.
//   #/               the lobby
//   #/tables/{id}    one live table
//   #/account        limits, breaks and session settings
//   #/rules/{name}   the rules page of a rule set

import { account } from "./account.js";
import { api } from "./api.js";
import { loginDialog, watchLockout } from "./auth.js";
import { announce } from "./dom.js";
import { historyDialog } from "./history.js";
import {
  bind,
  bindMarked,
  chosenLanguage,
  language,
  onLanguage,
  preferredLanguage,
  setCurrency,
  setLanguage,
  t,
} from "./i18n.js";
import { mountLobby } from "./lobby.js";
import { sessionWatch } from "./sessionclock.js";
import { mountTable } from "./table.js";

// The language and the money first: every view and dialog is built in them. The server names
// the one currency of its tables and balances (asked once; account.js reads the same answer).
// A failed answer (a busy or restarting server) is asked again a few times: until it comes,
// money would be written in dollars on a rupiah table.
/** The rule set the Rules link opens (GET /api/config: the server's first table's). */
let serverRules = "standard";
/** The house's language (an Indonesian house: "id"), for a visitor who has not chosen one. */
/** @type {"en" | "id" | null} */
let houseLanguage = null;
const configured = (async () => {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const config = await api.config();
      setCurrency(config?.currency, config?.minor_unit);
      if (config?.language === "id" || config?.language === "en") houseLanguage = config.language;
      // The top bar's Rules link opens this server's own tables' rules, not always `standard`.
      if (typeof config?.rules === "string") serverRules = config.rules;
      return;
    } catch (error) {
      if (attempt === 4) {
        console.warn("the server's configuration was not read; money is shown in US dollars", error);
        return;
      }
      await new Promise((resolve) => window.setTimeout(resolve, 300 * attempt));
    }
  }
})();
await setLanguage(preferredLanguage(), { remember: false }).catch(() => setLanguage("en", { remember: false }));
await configured;
// A visitor's own choice stands; without one, the house's language comes before the browser's.
if (houseLanguage && !chosenLanguage() && language() !== houseLanguage) {
  await setLanguage(houseLanguage, { remember: false }).catch(() => undefined);
}
bindMarked(document);
for (const link of document.querySelectorAll('a[data-nav="rules"]')) {
  link.setAttribute("href", `#/rules/${encodeURIComponent(serverRules)}`);
}

// The page's own elements (index.html): they are always there.
const main = /** @type {HTMLElement} */ (document.getElementById("main"));
const notice = /** @type {HTMLElement} */ (document.getElementById("notice"));
/** @type {{destroy(): void} | null} */
let view = null;
// An operator's launch link (`/launch?token=…`): its session, language and table, before the
// page reads its seat (launch.js, fetched only then).
if (window.location.pathname === "/launch") {
  const { launchFromUrl } = await import("./launch.js");
  await launchFromUrl(notice);
}

// An operator's lock of the seat, or a guest refused on this browser for one: said in the notice.
watchLockout(notice);
const recall = historyDialog();
const login = loginDialog(({ key, values }, /** @type {any} */ answer) => {
  bind(notice, key, values);
  notice.hidden = false;
  announce(t(key, values));
  account.signedIn(answer);
});
const clock = sessionWatch(/** @type {HTMLElement} */ (document.getElementById("session-clock")), {
  history: () => recall.open(),
  leave: () => {
    account.watch();
    window.location.hash = "#/";
  },
  unauthorized: () => account.refresh(),
});
document.body.append(login.el, recall.el, clock.dialog);
/** @type {HTMLElement} */ (document.getElementById("login")).addEventListener("click", () => login.open());
window.addEventListener("baccarat:reality-check", () => clock.refresh());
/** @type {HTMLElement} */ (document.getElementById("history-open")).addEventListener("click", () => recall.open());

/**
 * A view whose module is fetched the first time it is shown: the lobby and the table come with
 * the page, *My account* and the rules page (and what only they use) when asked for.
 * @param {() => Promise<(name?: string) => {destroy(): void}>} load
 * @returns {(name?: string) => {destroy(): void}}
 */
function later(load) {
  return (name) => {
    /** @type {{destroy(): void} | null} */
    let inner = null;
    let gone = false;
    main.replaceChildren();
    main.setAttribute("aria-busy", "true");
    load()
      .then((mount) => {
        if (!gone) inner = mount(name);
      })
      .catch((error) => {
        if (!gone) announce(String(error?.message ?? error));
      })
      .finally(() => {
        if (!gone) main.removeAttribute("aria-busy");
      });
    return {
      destroy() {
        gone = true;
        main.removeAttribute("aria-busy");
        inner?.destroy();
      },
    };
  };
}

/** @type {[RegExp, string, (name?: string) => {destroy(): void}][]} */
const ROUTES = [
  [/^#\/tables\/([^/]+)$/, "table", (name) => mountTable(main, name)],
  [
    /^#\/account$/,
    "account",
    later(async () => {
      const { mountAccount } = await import("./accountview.js");
      return () => mountAccount(main, { openHistory: () => recall.open(), openLogin: () => login.open() });
    }),
  ],
  [
    /^#\/rules\/([^/]+)$/,
    "rules",
    later(async () => {
      const { mountRules } = await import("./rules.js");
      return (name) => mountRules(main, name ?? serverRules);
    }),
  ],
];

function route() {
  view?.destroy();
  let nav = "lobby";
  view = null;
  for (const [pattern, name, mount] of ROUTES) {
    const match = pattern.exec(window.location.hash);
    if (match) {
      nav = name;
      view = mount(match[1] === undefined ? undefined : decodeURIComponent(match[1]));
      break;
    }
  }
  view ??= mountLobby(main);
  // A phone's top bar scrolls its links sideways: each view starts with them at the start.
  const strip = document.querySelector(".topbar__strip");
  if (strip) strip.scrollLeft = 0;
  for (const link of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-nav]"))) {
    if (link.dataset.nav === nav) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
}

/** The heading focus is waiting for (a view fetched later draws it later), and its timer. */
/** @type {MutationObserver | null} */
let headingWatch = null;
/** @type {number | undefined} */
let headingTimer;

/**
 * After a navigation the focus goes to the new view's heading (a screen reader reads where it
 * landed, and Tab continues from there); the main region until the heading is drawn.
 */
function focusHeading() {
  headingWatch?.disconnect();
  window.clearTimeout(headingTimer);
  const land = () => {
    const heading = /** @type {HTMLElement | null} */ (main.querySelector("h1"));
    if (!heading) return false;
    heading.setAttribute("tabindex", "-1");
    heading.focus({ preventScroll: true });
    return true;
  };
  main.focus({ preventScroll: true });
  if (land()) return;
  const watch = new MutationObserver(() => {
    if (land()) watch.disconnect();
  });
  watch.observe(main, { childList: true, subtree: true });
  headingWatch = watch;
  headingTimer = window.setTimeout(() => watch.disconnect(), 10_000);
}

window.addEventListener("hashchange", () => {
  route();
  window.scrollTo(0, 0);
  focusHeading();
});
account.subscribe(() => {
  clock.follow(account.playing);
  if (window.location.hash === "#/account") route();
});
account.init();
clock.follow(account.playing);
route();

// The language switch (index.html): EN / ID, remembered on this device.
const switches = /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("[data-lang]"));
function showLanguage() {
  for (const button of switches) button.setAttribute("aria-pressed", String(button.dataset.lang === language()));
}
for (const button of switches) button.addEventListener("click", () => setLanguage(button.dataset.lang ?? "en"));
showLanguage();
onLanguage(() => {
  showLanguage();
  route();
  if (account.playing) clock.refresh();
  if (recall.el.open) recall.open();
  announce(t("lang.changed"));
});
