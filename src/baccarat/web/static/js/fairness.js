// @ts-check
// The fairness panel: the current shoe's commitment (published before its first bet), the
// player's own part of the client seed, and, once a shoe has ended, its revealed seed, its
// record, a check of the whole shoe in this browser (fairverify.js) and the command that
// checks it on a computer. At a studio table the shoe is a real one: the panel shows its
// shuffle certificate instead (no seed), and checks an ended shoe's record of every card read
// (studioverify.js).

import { announce, fill, h } from "./dom.js";
import { api, shoeRecordUrl } from "./api.js";
import { t, utcStamp } from "./i18n.js";
import { isStudioShoe, personName } from "./model.js";
import { errorText } from "./refusals.js";
import { session } from "./session.js";

const VERIFY = "baccarat verify record.json";
/** What the server accepts as a player's seed (POST /api/shoes/{id}/seed). */
const SEED_PATTERN = /^[A-Za-z0-9_.~-]{1,64}$/;
/** This tab's memory: the seed the player chose, and which shoe got which seed. */
const MY_SEED_KEY = "baccarat.fair.seed";
const SENT_KEY = "baccarat.fair.sent";
/** Failures listed in words under the grid; more are counted. */
const LISTED = 8;

/**
 * A button that copies `text` to the clipboard.
 * @param {string} text
 * @param {string} what  what it copies, for its label
 */
function copyButton(text, what) {
  const button = h(
    "button",
    {
      type: "button",
      class: "btn btn--small btn--ghost",
      "aria-label": t("fair.copy_label", { what }),
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(text);
          button.textContent = t("fair.copied");
        } catch {
          button.textContent = t("fair.copy_failed");
        }
        window.setTimeout(() => {
          button.textContent = t("fair.copy");
        }, 1500);
      },
    },
    t("fair.copy"),
  );
  return button;
}

/**
 * @param {string} label
 * @param {string | null | undefined} value
 * @param {HTMLElement | null} [more]  a further dd under the value
 */
function hexRow(label, value, more = null) {
  return h(
    "div",
    { class: "fair__row" },
    h("dt", {}, label),
    h(
      "dd",
      {},
      h("code", { class: "fair__hex" }, value ?? "–"),
      value ? copyButton(value, label.toLocaleLowerCase()) : null,
    ),
    more,
  );
}

/**
 * Save the shoe's record (GET /api/shoes/{id}/record) as record.json.
 * @param {string} shoeId
 * @param {HTMLElement} button  the Download button, busy meanwhile
 */
async function downloadRecord(shoeId, button) {
  button.setAttribute("aria-busy", "true");
  try {
    const record = await api.shoeRecord(shoeId);
    const blob = new Blob([`${JSON.stringify(record, null, 2)}\n`], { type: "application/json" });
    const url = URL.createObjectURL(blob);
    const link = h("a", { href: url, download: "record.json", hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
  } catch (error) {
    button.textContent = t("fair.download_failed", { reason: errorText(error) });
  } finally {
    button.removeAttribute("aria-busy");
  }
}

// ---- the player's seed -----------------------------------------------------------------------

/** @returns {Record<string, string>} shoe id -> the seed this tab sent to it */
function sentSeeds() {
  try {
    const data = JSON.parse(window.sessionStorage.getItem(SENT_KEY) ?? "{}");
    return data && typeof data === "object" ? data : {};
  } catch {
    return {};
  }
}

/**
 * @param {string} shoeId
 * @param {string} seed
 */
function rememberSent(shoeId, seed) {
  const kept = Object.entries({ ...sentSeeds(), [shoeId]: seed }).slice(-20);
  try {
    window.sessionStorage.setItem(SENT_KEY, JSON.stringify(Object.fromEntries(kept)));
  } catch {
    // Without storage the panel only forgets whose seed a past shoe used.
  }
}

/** @returns {string | null} */
function storedSeed() {
  try {
    return window.sessionStorage.getItem(MY_SEED_KEY);
  } catch {
    return null;
  }
}

/** @param {string | null} seed */
function storeSeed(seed) {
  try {
    if (seed === null) window.sessionStorage.removeItem(MY_SEED_KEY);
    else window.sessionStorage.setItem(MY_SEED_KEY, seed);
  } catch {
    // Kept in memory for this page only.
  }
}

/** @typedef {typeof import("./fairverify.js")} Verifier */
/** @type {Promise<Verifier> | undefined} */
let verifierLoad;
/** @type {Verifier | undefined} */
let verifier;

/**
 * fairverify.js, fetched the first time a shoe ends or a check is asked for, not with the page
 * (it is the largest module, and most visits never need it).
 * @returns {Promise<Verifier>}
 */
async function loadVerifier() {
  verifierLoad ??= import("./fairverify.js");
  verifier = await verifierLoad;
  return verifier;
}

/** @typedef {typeof import("./studioverify.js")} StudioVerifier */
/** @type {Promise<StudioVerifier> | undefined} */
let studioVerifierLoad;
/** @type {StudioVerifier | undefined} */
let studioVerifier;

/**
 * studioverify.js (with fairverify.js), fetched the first time a studio shoe's check is asked for.
 * @returns {Promise<StudioVerifier>}
 */
async function loadStudioVerifier() {
  studioVerifierLoad ??= import("./studioverify.js");
  studioVerifier = await studioVerifierLoad;
  return studioVerifier;
}

/**
 * A studio record's failure in words (the studio verifier is loaded: there is a report).
 * @param {import("./fairverify.js").Failure} failure
 */
const describeRead = (failure) => /** @type {StudioVerifier} */ (studioVerifier).describe(failure);

/**
 * The rule set a studio record names, as this server publishes it (its pay tables and shoe):
 * null when it publishes none by that name, undefined when it could not be asked (then the
 * payouts are left to the command).
 * @param {any} record
 * @param {StudioVerifier} studio
 */
async function publishedRules(record, studio) {
  const name = record?.ruleset?.name;
  if (typeof name !== "string" || name === "") return undefined;
  try {
    return studio.rulesFromPage(await api.rules(name));
  } catch (error) {
    return error?.code === "ruleset_not_found" ? null : undefined;
  }
}

/**
 * A failure in words (the verifier is loaded: there is a report).
 * @param {import("./fairverify.js").Failure} failure
 */
const describe = (failure) => /** @type {Verifier} */ (verifier).describe(failure);

/**
 * Whose seeds made an ended shoe's client seed, as far as this page can tell: the record holds
 * only their hash, so it can recognise "nobody's" and "yours alone", not other players' seeds.
 * @param {string} shoeId
 * @param {string} clientSeed
 * @returns {Promise<{whose: "none" | "yours" | "players", text: string}>}
 */
async function whoseSeed(shoeId, clientSeed) {
  const { sha256Hex, tableClientSeed } = await loadVerifier();
  if ((await sha256Hex(`${shoeId}|`)) === clientSeed) {
    return { whose: "none", text: t("fair.whose_none") };
  }
  const mine = sentSeeds()[shoeId];
  const me = session.playerId;
  if (mine && me && (await tableClientSeed(shoeId, { [me]: mine })) === clientSeed) {
    return { whose: "yours", text: t("fair.whose_yours", { seed: mine }) };
  }
  return {
    whose: "players",
    text: mine ? t("fair.whose_players_mine", { seed: mine }) : t("fair.whose_players"),
  };
}

// ---- the check in this browser ---------------------------------------------------------------

/**
 * One ✓ or ✗ mark.
 * @param {boolean} ok
 * @param {string} label  shown next to the mark
 * @param {string} title  the detail, on hover and for screen readers
 * @param {Record<string, string>} dataset
 */
function mark(ok, label, title, dataset) {
  return h(
    "span",
    {
      class: `badge ${ok ? "badge--up" : "badge--down"} fair__mark`,
      role: "img",
      title,
      "aria-label": t(ok ? "fair.matches" : "fair.differs", { label, detail: title }),
      dataset: { ...dataset, ok: String(ok) },
    },
    `${label} ${ok ? "✓" : "✗"}`,
  );
}

/**
 * The verifier's one-line summary in the language shown (fairverify.js writes it in English, as
 * `baccarat verify` does; record-level failures other than these three stay in its words).
 * @param {import("./fairverify.js").VerifyReport} report
 * @returns {string}
 */
function summaryText(report) {
  const good = report.coups.filter((coup) => coup.ok).length;
  const total = report.coups.length;
  if (!report.revealed) return t("fair.summary_hidden", { good, total });
  if (report.ok && report.notDealt) return t("fair.summary_ok_early", { total, left: report.notDealt });
  if (report.ok) return t("fair.summary_ok", { total });
  const parts = [];
  if (report.commitment.ok === false) parts.push(t("fair.part_commitment"));
  if (report.digest.ok === false) parts.push(t("fair.part_digest"));
  if (report.burn.ok === false) parts.push(t("fair.part_burn"));
  if (good < total) parts.push(t("fair.part_coups", { bad: total - good, total }));
  if (report.missing) parts.push(t("fair.part_missing", { count: report.missing }));
  const checked = ["commitment", "digest", "burn"];
  parts.push(...report.failures.filter((f) => f.coup === null && !checked.includes(f.field)).map(describe));
  return t("fair.summary_failed", { parts: parts.join("; ") });
}

/**
 * What a check's mark says on hover: a passed check in the language shown; a failed one in the
 * verifier's words (they name the values that differ).
 * @param {string} name  commitment, digest or burn
 * @param {import("./fairverify.js").Check} check
 * @returns {string}
 */
function checkDetail(name, check) {
  return check.ok ? t(`fair.ok_${name}`) : check.message;
}

/**
 * The verifier's report, compact: the commitment, digest and burn, a grid of coup numbers each
 * with ✓ or ✗, one summary line, and the failures in words.
 * @param {import("./fairverify.js").VerifyReport} report
 */
function reportView(report) {
  const checks = /** @type {[string, string, import("./fairverify.js").Check][]} */ ([
    ["commitment", t("fair.commitment"), report.commitment],
    ["digest", t("fair.digest"), report.digest],
    ["burn", t("fair.burn"), report.burn],
  ]).filter(([, , check]) => check.ok !== null);
  const failures = report.failures.filter((failure) => failure.coup === null || failure.field === "");
  const coupFailures = report.coups.filter((coup) => !coup.ok);
  const listed = [...failures.map(describe), ...coupFailures.map((coup) => coup.reason)];
  return [
    h(
      "p",
      { class: "fair__marks" },
      checks.map(([name, label, check]) => [
        mark(Boolean(check.ok), label, checkDetail(name, check), { check: name }),
        " ",
      ]),
    ),
    h(
      "p",
      { class: "fair__coups", "aria-label": t("fair.coups") },
      h("span", { class: "fair__algo" }, t("fair.coups_prefix")),
      report.coups.map((coup) => [
        mark(coup.ok, String(coup.number), coup.ok ? t("fair.coup_ok", { number: coup.number }) : coup.reason, {
          coup: String(coup.number),
        }),
        " ",
      ]),
      report.missing
        ? mark(false, `+${report.missing}`, t("fair.missing", { count: report.missing }), { coup: "missing" })
        : null,
    ),
    listed.slice(0, LISTED).map((text) => h("p", { class: "fair__problem" }, `✗ ${text}`)),
    listed.length > LISTED
      ? h("p", { class: "fair__problem" }, t("fair.more", { count: listed.length - LISTED }))
      : null,
    h("p", { class: "fair__algo" }, t("fair.checked_here")),
  ];
}

// ---- a studio shoe: its certificate and the check of its record -------------------------------

/**
 * The shuffle certificate's rows: who shuffled, when, the decks, their serials, the cut card.
 * @param {any} certificate
 */
function certificateRows(certificate) {
  if (!certificate) return [];
  /**
   * @param {string} label
   * @param {string} value
   * @param {string} key
   */
  const row = (label, value, key) =>
    h("div", { class: "fair__row", dataset: { cert: key } }, h("dt", {}, label), h("dd", {}, value));
  const serials = Array.isArray(certificate.deck_serials) ? certificate.deck_serials : [];
  return [
    row(t("fair.shuffled_by"), personName(String(certificate.shuffled_by ?? "–")), "shuffled-by"),
    row(t("fair.shuffled_at"), utcStamp(certificate.shuffled_at), "shuffled-at"),
    row(t("fair.decks"), String(certificate.decks ?? "–"), "decks"),
    serials.length ? row(t("fair.serials"), serials.join(", "), "serials") : null,
    Number.isInteger(certificate.cut_card)
      ? row(t("fair.cut_card"), t("fair.cut_card_at", { count: certificate.cut_card }), "cut-card")
      : null,
  ];
}

/**
 * The studio verifier's one-line summary in the language shown (record-level failures other
 * than the certificate's and the reads' stay in the verifier's words, as `baccarat verify`'s).
 * @param {import("./studioverify.js").StudioReport} report
 * @returns {string}
 */
function studioSummaryText(report) {
  const good = report.coups.filter((coup) => coup.ok).length;
  const total = report.coups.length;
  if (report.ok) {
    const paid = report.payouts.ok ? "fair.studio_ok_paid" : "fair.studio_ok";
    return t(paid, { reads: report.reads, total });
  }
  const parts = [];
  if (report.certificateCheck.ok === false) parts.push(t("fair.part_certificate"));
  if (report.readsCheck.ok === false) parts.push(t("fair.part_reads"));
  if (good < total) parts.push(t("fair.part_coups_read", { bad: total - good, total }));
  const told = (/** @type {string} */ path) =>
    path.startsWith("certificate") || path.startsWith("reads") || path === "coups";
  parts.push(...report.failures.filter((f) => f.coup === null && !told(f.path)).map(describeRead));
  return t("fair.summary_failed", { parts: parts.join("; ") });
}

/**
 * The studio verifier's report, compact: the certificate, the reads and the payouts, a grid of
 * coup numbers each with ✓ or ✗, and the failures in words.
 * @param {import("./studioverify.js").StudioReport} report
 */
function studioReportView(report) {
  const checks = /** @type {[string, string, import("./fairverify.js").Check][]} */ ([
    ["certificate", t("fair.certificate"), report.certificateCheck],
    ["reads", t("fair.reads"), report.readsCheck],
    ["payouts", t("fair.payouts"), report.payouts],
  ]).filter(([, , check]) => check.ok !== null);
  const listed = [
    ...report.failures.filter((failure) => failure.coup === null).map(describeRead),
    ...report.coups.filter((coup) => !coup.ok).map((coup) => coup.reason),
  ];
  return [
    h(
      "p",
      { class: "fair__marks" },
      checks.map(([name, label, check]) => [
        mark(Boolean(check.ok), label, check.ok ? t(`fair.ok_${name}`) : check.message, { check: name }),
        " ",
      ]),
    ),
    h(
      "p",
      { class: "fair__coups", "aria-label": t("fair.coups") },
      h("span", { class: "fair__algo" }, t("fair.coups_prefix")),
      report.coups.map((coup) => [
        mark(coup.ok, String(coup.number), coup.ok ? t("fair.coup_read", { number: coup.number }) : coup.reason, {
          coup: String(coup.number),
        }),
        " ",
      ]),
    ),
    listed.slice(0, LISTED).map((text) => h("p", { class: "fair__problem" }, `✗ ${text}`)),
    listed.length > LISTED
      ? h("p", { class: "fair__problem" }, t("fair.more", { count: listed.length - LISTED }))
      : null,
    h("p", { class: "fair__algo" }, t(report.payouts.ok === null ? "fair.studio_checked" : "fair.studio_checked_paid")),
  ];
}

/**
 * Download record.json, and the bare record's address.
 * @param {string} shoeId
 */
function recordLinks(shoeId) {
  return h(
    "p",
    { class: "fair__links" },
    h(
      "button",
      {
        type: "button",
        class: "btn btn--small btn--gold",
        onclick: (/** @type {MouseEvent} */ event) =>
          downloadRecord(shoeId, /** @type {HTMLElement} */ (event.currentTarget)),
      },
      t("fair.download"),
    ),
    h(
      "a",
      { href: shoeRecordUrl(shoeId), class: "fair__link", target: "_blank", rel: "noopener" },
      shoeRecordUrl(shoeId),
    ),
  );
}

/** The command that checks a record on a computer, with its copy button. */
function verifyCommand() {
  return h(
    "p",
    { class: "fair__verify" },
    t("fair.check_yourself"),
    h("code", {}, VERIFY),
    copyButton(VERIFY, t("fair.copy_verify")),
  );
}

/**
 * A check made here: a fair shoe's report, a studio shoe's, or why there is none.
 * @typedef {{report?: import("./fairverify.js").VerifyReport, studio?: import("./studioverify.js").StudioReport, error?: string}} Outcome
 */

// ---- the panel -------------------------------------------------------------------------------

/** The panel; returns {el, update(shoe, finished)}. */
export function fairnessPanel() {
  const current = h("dl", { class: "fair__list" });
  const revealed = h("div", { class: "fair__revealed" });
  /** @type {Map<string, Outcome>} */
  const checked = new Map();
  /** @type {any} */
  let shoeNow = null;
  /** @type {string | null} */
  let lastShoeId = null;
  let mySeed = storedSeed();
  /** @type {string | null} */
  let shownCurrent = null;
  /** @type {string | null} */
  let shownRevealed = null;

  // The seed form is built once, so typing is never interrupted by a redraw.
  const seedInput = h("input", {
    id: "fair-seed",
    name: "seed",
    class: "rg-input fair__seed-input",
    maxlength: 64,
    autocomplete: "off",
    spellcheck: "false",
    placeholder: t("fair.seed_placeholder"),
    value: mySeed ?? "",
  });
  const seedStatus = h("p", { class: "form-message fair__intro fair__seed-status" });
  const stopButton = h(
    "button",
    { type: "button", class: "btn btn--small btn--ghost", hidden: !mySeed, onclick: () => stopSeed() },
    t("fair.stop_seed"),
  );
  const seedForm = h(
    "form",
    { class: "fair__seed", onsubmit: (/** @type {SubmitEvent} */ event) => submitSeed(event) },
    h(
      "div",
      { class: "form-field" },
      h("label", { for: "fair-seed", class: "form-field__label" }, t("fair.seed_label")),
      h(
        "div",
        { class: "fair__links" },
        seedInput,
        h("button", { type: "submit", class: "btn btn--small btn--gold" }, t("fair.use_seed")),
        stopButton,
      ),
    ),
    seedStatus,
  );
  const seatNeeded = h("p", { class: "fair__algo", hidden: true }, t("fair.seat_needed"));

  // The title and the words above the list: a fair shoe's, or a studio shoe's.
  const summary = h("summary", { class: "panel-title" }, t("fair.title"));
  const intro = h("p", { class: "fair__intro" }, t("fair.intro"));
  const el = h("details", { class: "panel fair", open: true }, summary, intro, current, seedForm, seatNeeded, revealed);

  /**
   * @param {string} text
   * @param {"info" | "error"} tone
   * @param {Record<string, string>} [dataset]
   */
  function say(text, tone, dataset = {}) {
    seedStatus.textContent = text;
    announce(text); // the page's one live region
    delete seedStatus.dataset.sent;
    Object.assign(seedStatus.dataset, { tone }, dataset);
  }

  /** Offer the chosen seed to the shoe in play, if its client seed is still open. */
  async function offerSeed() {
    const shoe = shoeNow;
    const seed = mySeed;
    if (!seed || !shoe?.id) return;
    if (shoe.client_seed) {
      say(t("fair.seed_fixed_next", { seed }), "info");
      return;
    }
    if (sentSeeds()[shoe.id] === seed) {
      say(t("fair.seed_in", { seed, shoe: shoe.id }), "info", { sent: shoe.id });
      return;
    }
    if (!session.token) {
      say(t("fair.seat_needed"), "error");
      return;
    }
    try {
      await api.sendSeed(shoe.id, seed);
      rememberSent(shoe.id, seed);
      say(t("fair.seed_sent", { seed, shoe: shoe.id }), "info", { sent: shoe.id });
    } catch (error) {
      if (error.code === "client_seed_fixed") {
        say(t("fair.seed_closed", { seed, shoe: shoe.id }), "info");
        // Do not ask again for this shoe.
        if (shoeNow?.id === shoe.id) shoeNow = { ...shoe, client_seed: "fixed" };
      } else {
        say(t("fair.seed_failed", { reason: errorText(error) }), "error");
      }
    }
  }

  /** @param {SubmitEvent} event */
  function submitSeed(event) {
    event.preventDefault();
    const seed = seedInput.value.trim();
    if (!SEED_PATTERN.test(seed)) {
      say(t("fair.seed_invalid"), "error");
      seedInput.focus();
      return;
    }
    mySeed = seed;
    storeSeed(seed);
    stopButton.hidden = false;
    void offerSeed();
  }

  function stopSeed() {
    mySeed = null;
    storeSeed(null);
    stopButton.hidden = true;
    seedInput.value = "";
    say(t("fair.seed_stopped"), "info");
  }

  /**
   * Fetch the ended shoe's record and check it here.
   * @param {string} shoeId
   * @param {HTMLElement} button
   * @param {HTMLElement} result
   * @param {boolean} [studio]  a studio shoe's record (the cards as read)
   */
  async function verifyHere(shoeId, button, result, studio = false) {
    button.setAttribute("aria-busy", "true");
    showOutcome(result, shoeId, null, studio);
    /** @type {Outcome} */
    let outcome;
    try {
      const record = await api.shoeRecord(shoeId);
      if (studio) {
        const verifier = await loadStudioVerifier();
        outcome = { studio: verifier.verifyStudioRecord(record, await publishedRules(record, verifier)) };
      } else {
        const { verifyRecord } = await loadVerifier();
        outcome = { report: await verifyRecord(record) };
      }
    } catch (error) {
      outcome = { error: error?.code ? errorText(error) : String(error?.message ?? error) };
    }
    checked.set(shoeId, outcome);
    button.removeAttribute("aria-busy");
    announce(
      outcome.studio
        ? studioSummaryText(outcome.studio)
        : outcome.report
          ? summaryText(outcome.report)
          : t("fair.cannot_verify", { reason: outcome.error }),
    );
    if (result.isConnected) showOutcome(result, shoeId, outcome, studio);
  }

  /**
   * The result area: one summary line (a live region, so it is read out) and the marks.
   * @param {HTMLElement} result
   * @param {string} shoeId
   * @param {Outcome | null} outcome  null: busy
   * @param {boolean} [studio]
   */
  function showOutcome(result, shoeId, outcome, studio = false) {
    const [summary, details] = /** @type {HTMLElement[]} */ (Array.from(result.children));
    result.dataset.shoe = shoeId;
    delete result.dataset.verdict;
    fill(details);
    if (outcome === null) {
      summary.textContent = t(studio ? "fair.replaying" : "fair.rebuilding");
    } else if (outcome.studio) {
      result.dataset.verdict = outcome.studio.ok ? "ok" : "fail";
      summary.textContent = `${outcome.studio.ok ? "✓" : "✗"} ${studioSummaryText(outcome.studio)}`;
      fill(details, studioReportView(outcome.studio));
    } else if (outcome.report) {
      result.dataset.verdict = outcome.report.ok ? "ok" : "fail";
      summary.textContent = `${outcome.report.ok ? "✓" : "✗"} ${summaryText(outcome.report)}`;
      fill(details, reportView(outcome.report));
    } else {
      result.dataset.verdict = "error";
      summary.textContent = `✗ ${t("fair.cannot_verify", { reason: outcome.error })}`;
    }
  }

  /**
   * An ended studio shoe: its record (every card read) to download, check here or with the
   * command; no seed to reveal.
   * @param {any} finished
   */
  function drawStudioRecord(finished) {
    revealed.dataset.shoe = finished.id;
    const result = h(
      "div",
      { class: "fair__check" },
      h("p", { class: "fair__summary" }),
      h("div", { class: "fair__details" }),
    );
    fill(
      revealed,
      h("h3", { class: "fair__heading" }, t("fair.studio_ended", { shoe: finished.id })),
      h("p", { class: "fair__intro" }, t("fair.studio_record")),
      recordLinks(finished.id),
      h(
        "p",
        { class: "fair__links" },
        h(
          "button",
          {
            type: "button",
            class: "btn btn--small btn--gold fair__verify-here",
            onclick: (/** @type {MouseEvent} */ event) =>
              verifyHere(finished.id, /** @type {HTMLElement} */ (event.currentTarget), result, true),
          },
          t("fair.verify_here"),
        ),
      ),
      result,
      verifyCommand(),
    );
    const done = checked.get(finished.id);
    if (done) showOutcome(result, finished.id, done, true);
  }

  /** @param {any} finished */
  function drawRevealed(finished) {
    if (isStudioShoe(finished) && finished?.status === "ended") {
      drawStudioRecord(finished);
      return;
    }
    if (!finished?.server_seed) {
      delete revealed.dataset.shoe;
      fill(revealed);
      return;
    }
    revealed.dataset.shoe = finished.id;
    const whose = h("dd", { class: "fair__algo fair__whose" });
    const result = h(
      "div",
      { class: "fair__check" },
      h("p", { class: "fair__summary" }),
      h("div", { class: "fair__details" }),
    );
    if (finished.client_seed) {
      whoseSeed(finished.id, finished.client_seed).then(
        ({ whose: who, text }) => {
          whose.dataset.whose = who;
          whose.textContent = t("fair.whose", { text });
        },
        () => {
          whose.textContent = "";
        },
      );
    }
    fill(
      revealed,
      h("h3", { class: "fair__heading" }, t("fair.ended", { shoe: finished.id })),
      h(
        "dl",
        { class: "fair__list" },
        hexRow(t("fair.server_seed"), finished.server_seed),
        hexRow(t("fair.client_seed"), finished.client_seed, whose),
        hexRow(t("fair.digest"), finished.digest),
      ),
      recordLinks(finished.id),
      h(
        "p",
        { class: "fair__links" },
        h(
          "button",
          {
            type: "button",
            class: "btn btn--small btn--gold fair__verify-here",
            onclick: (/** @type {MouseEvent} */ event) =>
              verifyHere(finished.id, /** @type {HTMLElement} */ (event.currentTarget), result),
          },
          t("fair.verify_here"),
        ),
      ),
      result,
      verifyCommand(),
    );
    const done = checked.get(finished.id);
    if (done) showOutcome(result, finished.id, done);
  }

  return {
    el,
    /**
     * shoe: {id, commitment, client_seed, cards_left, algorithm} (a studio shoe: {id, kind,
     * certificate}); finished: {id, server_seed, client_seed, digest} (a studio shoe's: {id,
     * kind, status}) or null; studio: a person deals the table from a card-reading shoe.
     * @param {any} shoe
     * @param {any} finished
     * @param {boolean} [studio]
     */
    update(shoe, finished, studio = isStudioShoe(shoe)) {
      const seated = Boolean(session.token);
      // A studio shoe takes no seed: its cards are as the dealer shuffled them.
      seedForm.hidden = !seated || studio;
      seatNeeded.hidden = seated || studio;
      if (shoe?.id !== lastShoeId) {
        // A new shoe: its client seed is open until its first betting window closes.
        lastShoeId = shoe?.id ?? null;
        shoeNow = shoe;
        if (mySeed && seated && !studio) void offerSeed();
      } else if (shoe?.client_seed && shoeNow && !shoeNow.client_seed) {
        shoeNow = shoe;
      }
      // Redraw only on a change, so a focused button keeps its focus while events arrive.
      const currentKey = JSON.stringify([studio, shoe?.id, shoe?.commitment, shoe?.client_seed, shoe?.certificate]);
      if (currentKey !== shownCurrent) {
        shownCurrent = currentKey;
        summary.textContent = t(studio ? "fair.studio_title" : "fair.title");
        intro.textContent = t(studio ? "fair.studio_intro" : "fair.intro");
        el.classList.toggle("fair--studio", studio);
        const shoeRow = h(
          "div",
          { class: "fair__row" },
          h("dt", {}, t("fair.shoe")),
          h(
            "dd",
            { dataset: { shoe: shoe?.id ?? "" } },
            h("code", {}, shoe?.id ?? "–"),
            shoe?.algorithm && !studio ? h("span", { class: "fair__algo" }, shoe.algorithm) : null,
          ),
        );
        if (studio) fill(current, shoeRow, certificateRows(shoe?.certificate));
        else
          fill(
            current,
            shoeRow,
            hexRow(t("fair.commitment"), shoe?.commitment),
            shoe?.client_seed ? hexRow(t("fair.client_seed"), shoe.client_seed) : null,
          );
      }
      const revealedKey = JSON.stringify([
        finished?.id,
        finished?.status,
        finished?.server_seed,
        finished?.client_seed,
        finished?.digest,
      ]);
      if (revealedKey !== shownRevealed) {
        shownRevealed = revealedKey;
        drawRevealed(finished);
      }
    },
  };
}
