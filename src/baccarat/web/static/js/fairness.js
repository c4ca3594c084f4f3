// @ts-check
// The fairness panel: the current shoe's commitment (published before its first bet), the
// player's own part of the client seed, and, once a shoe has ended, its revealed seed, its
// record, a check of the whole shoe in this browser (fairverify.js) and the command that
// checks it on a computer.

import { announce, fill, h } from "./dom.js";
import { api, shoeRecordUrl } from "./api.js";
import { describe, sha256Hex, tableClientSeed, verifyRecord } from "./fairverify.js";
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
      "aria-label": `Copy ${what}`,
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(text);
          button.textContent = "Copied";
        } catch {
          button.textContent = "Select and copy";
        }
        window.setTimeout(() => {
          button.textContent = "Copy";
        }, 1500);
      },
    },
    "Copy",
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
    h("dd", {}, h("code", { class: "fair__hex" }, value ?? "–"), value ? copyButton(value, label.toLowerCase()) : null),
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
    button.textContent = `Cannot download: ${error.message}`;
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

/**
 * Whose seeds made an ended shoe's client seed, as far as this page can tell: the record holds
 * only their hash, so it can recognise "nobody's" and "yours alone", not other players' seeds.
 * @param {string} shoeId
 * @param {string} clientSeed
 * @returns {Promise<{whose: "none" | "yours" | "players", text: string}>}
 */
async function whoseSeed(shoeId, clientSeed) {
  if ((await sha256Hex(`${shoeId}|`)) === clientSeed) {
    return { whose: "none", text: "No player sent a seed: it is SHA-256 of the shoe id and “|”." };
  }
  const mine = sentSeeds()[shoeId];
  const me = session.playerId;
  if (mine && me && (await tableClientSeed(shoeId, { [me]: mine })) === clientSeed) {
    return {
      whose: "yours",
      text: `Yours alone: SHA-256 of the shoe id, “|”, your player id and your seed “${mine}”.`,
    };
  }
  return {
    whose: "players",
    text: mine
      ? `Players' seeds, yours (“${mine}”) and others': the record keeps only their hash, not whose they were.`
      : "Players' seeds: the record keeps only their hash, not whose they were.",
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
      "aria-label": `${label}: ${ok ? "matches" : "does not match"}. ${title}`,
      dataset: { ...dataset, ok: String(ok) },
    },
    `${label} ${ok ? "✓" : "✗"}`,
  );
}

/**
 * The verifier's report, compact: the commitment, digest and burn, a grid of coup numbers each
 * with ✓ or ✗, one summary line, and the failures in words.
 * @param {import("./fairverify.js").VerifyReport} report
 */
function reportView(report) {
  const checks = /** @type {[string, string, import("./fairverify.js").Check][]} */ ([
    ["commitment", "Commitment", report.commitment],
    ["digest", "Digest", report.digest],
    ["burn", "Burn", report.burn],
  ]).filter(([, , check]) => check.ok !== null);
  const failures = report.failures.filter((failure) => failure.coup === null || failure.field === "");
  const coupFailures = report.coups.filter((coup) => !coup.ok);
  const listed = [...failures.map(describe), ...coupFailures.map((coup) => coup.reason)];
  return [
    h(
      "p",
      { class: "fair__marks" },
      checks.map(([name, label, check]) => [mark(Boolean(check.ok), label, check.message, { check: name }), " "]),
    ),
    h(
      "p",
      { class: "fair__coups", "aria-label": "Coups" },
      h("span", { class: "fair__algo" }, "Coups: "),
      report.coups.map((coup) => [
        mark(coup.ok, String(coup.number), coup.ok ? `Coup ${coup.number} was dealt from the order` : coup.reason, {
          coup: String(coup.number),
        }),
        " ",
      ]),
      report.missing
        ? mark(false, `+${report.missing}`, `${report.missing} coup(s) missing`, { coup: "missing" })
        : null,
    ),
    listed.slice(0, LISTED).map((text) => h("p", { class: "fair__problem" }, `✗ ${text}`)),
    listed.length > LISTED ? h("p", { class: "fair__problem" }, `and ${listed.length - LISTED} more`) : null,
    h(
      "p",
      { class: "fair__algo" },
      "Checked here: the commitment, the order and its digest, the burn and every coup's cards, totals and winner. The payouts are checked by the command below.",
    ),
  ];
}

// ---- the panel -------------------------------------------------------------------------------

/** The panel; returns {el, update(shoe, finished)}. */
export function fairnessPanel() {
  const current = h("dl", { class: "fair__list" });
  const revealed = h("div", { class: "fair__revealed" });
  /** @type {Map<string, {report?: import("./fairverify.js").VerifyReport, error?: string}>} */
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
    placeholder: "letters, digits, _ . ~ -",
    value: mySeed ?? "",
  });
  const seedStatus = h("p", { class: "form-message fair__intro fair__seed-status" });
  const stopButton = h(
    "button",
    { type: "button", class: "btn btn--small btn--ghost", hidden: !mySeed, onclick: () => stopSeed() },
    "Stop using it",
  );
  const seedForm = h(
    "form",
    { class: "fair__seed", onsubmit: (/** @type {SubmitEvent} */ event) => submitSeed(event) },
    h(
      "div",
      { class: "form-field" },
      h("label", { for: "fair-seed", class: "form-field__label" }, "Your seed, added to each new shoe's client seed"),
      h(
        "div",
        { class: "fair__links" },
        seedInput,
        h("button", { type: "submit", class: "btn btn--small btn--gold" }, "Use my seed"),
        stopButton,
      ),
    ),
    seedStatus,
  );
  const seatNeeded = h("p", { class: "fair__algo", hidden: true }, "Take a seat to add your own seed to a shoe.");

  const el = h(
    "details",
    { class: "panel fair", open: true },
    h("summary", { class: "panel-title" }, "Provably fair"),
    h(
      "p",
      { class: "fair__intro" },
      "The shoe's order is fixed by a secret seed before the first bet. Its SHA-256 commitment is below; the seed is revealed when the shoe ends.",
    ),
    current,
    seedForm,
    seatNeeded,
    revealed,
  );

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
      say(`This shoe's client seed is already fixed: your seed “${seed}” goes to the next shoe.`, "info");
      return;
    }
    if (sentSeeds()[shoe.id] === seed) {
      say(`Your seed “${seed}” is in shoe ${shoe.id}'s client seed.`, "info", { sent: shoe.id });
      return;
    }
    if (!session.token) {
      say("Take a seat to add your own seed to a shoe.", "error");
      return;
    }
    try {
      await api.sendSeed(shoe.id, seed);
      rememberSent(shoe.id, seed);
      say(
        `Your seed “${seed}” is in shoe ${shoe.id}'s client seed; each new shoe gets it too until you stop it.`,
        "info",
        {
          sent: shoe.id,
        },
      );
    } catch (error) {
      if (error.code === "client_seed_fixed") {
        say(
          `Shoe ${shoe.id}'s client seed was fixed when its first betting window closed: your seed “${seed}” goes to the next shoe.`,
          "info",
        );
        // Do not ask again for this shoe.
        if (shoeNow?.id === shoe.id) shoeNow = { ...shoe, client_seed: "fixed" };
      } else {
        say(`Your seed was not sent: ${error.message}`, "error");
      }
    }
  }

  /** @param {SubmitEvent} event */
  function submitSeed(event) {
    event.preventDefault();
    const seed = seedInput.value.trim();
    if (!SEED_PATTERN.test(seed)) {
      say("A seed is 1 to 64 letters, digits or _ . ~ -", "error");
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
    say("New shoes will not get your seed.", "info");
  }

  /**
   * Fetch the ended shoe's record and check it here.
   * @param {string} shoeId
   * @param {HTMLElement} button
   * @param {HTMLElement} result
   */
  async function verifyHere(shoeId, button, result) {
    button.setAttribute("aria-busy", "true");
    showOutcome(result, shoeId, null);
    /** @type {{report?: import("./fairverify.js").VerifyReport, error?: string}} */
    let outcome;
    try {
      outcome = { report: await verifyRecord(await api.shoeRecord(shoeId)) };
    } catch (error) {
      outcome = { error: error.message };
    }
    checked.set(shoeId, outcome);
    button.removeAttribute("aria-busy");
    announce(outcome.report ? outcome.report.summary : `Cannot verify here: ${outcome.error}`);
    if (result.isConnected) showOutcome(result, shoeId, outcome);
  }

  /**
   * The result area: one summary line (a live region, so it is read out) and the marks.
   * @param {HTMLElement} result
   * @param {string} shoeId
   * @param {{report?: import("./fairverify.js").VerifyReport, error?: string} | null} outcome  null: busy
   */
  function showOutcome(result, shoeId, outcome) {
    const [summary, details] = /** @type {HTMLElement[]} */ (Array.from(result.children));
    result.dataset.shoe = shoeId;
    delete result.dataset.verdict;
    fill(details);
    if (outcome === null) {
      summary.textContent = "Rebuilding the shoe from its seed…";
    } else if (outcome.report) {
      result.dataset.verdict = outcome.report.ok ? "ok" : "fail";
      summary.textContent = `${outcome.report.ok ? "✓" : "✗"} ${outcome.report.summary}`;
      fill(details, reportView(outcome.report));
    } else {
      result.dataset.verdict = "error";
      summary.textContent = `✗ Cannot verify here: ${outcome.error}`;
    }
  }

  /** @param {any} finished */
  function drawRevealed(finished) {
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
          whose.textContent = `Whose seed: ${text}`;
        },
        () => {
          whose.textContent = "";
        },
      );
    }
    fill(
      revealed,
      h("h3", { class: "fair__heading" }, `Shoe ${finished.id} ended: seed revealed`),
      h(
        "dl",
        { class: "fair__list" },
        hexRow("Server seed", finished.server_seed),
        hexRow("Client seed", finished.client_seed, whose),
        hexRow("Digest", finished.digest),
      ),
      h(
        "p",
        { class: "fair__links" },
        h(
          "button",
          {
            type: "button",
            class: "btn btn--small btn--gold",
            onclick: (/** @type {MouseEvent} */ event) =>
              downloadRecord(finished.id, /** @type {HTMLElement} */ (event.currentTarget)),
          },
          "Download record.json",
        ),
        h(
          "a",
          { href: shoeRecordUrl(finished.id), class: "fair__link", target: "_blank", rel: "noopener" },
          shoeRecordUrl(finished.id),
        ),
      ),
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
          "Verify in this browser",
        ),
      ),
      result,
      h(
        "p",
        { class: "fair__verify" },
        "Check it yourself: ",
        h("code", {}, VERIFY),
        copyButton(VERIFY, "the verify command"),
      ),
    );
    const done = checked.get(finished.id);
    if (done) showOutcome(result, finished.id, done);
  }

  return {
    el,
    /**
     * shoe: {id, commitment, client_seed, cards_left, algorithm}; finished: {id, server_seed,
     * client_seed, digest} or null.
     * @param {any} shoe
     * @param {any} finished
     */
    update(shoe, finished) {
      const seated = Boolean(session.token);
      seedForm.hidden = !seated;
      seatNeeded.hidden = seated;
      if (shoe?.id !== lastShoeId) {
        // A new shoe: its client seed is open until its first betting window closes.
        lastShoeId = shoe?.id ?? null;
        shoeNow = shoe;
        if (mySeed && seated) void offerSeed();
      } else if (shoe?.client_seed && shoeNow && !shoeNow.client_seed) {
        shoeNow = shoe;
      }
      // Redraw only on a change, so a focused button keeps its focus while events arrive.
      const currentKey = JSON.stringify([shoe?.id, shoe?.commitment, shoe?.client_seed]);
      if (currentKey !== shownCurrent) {
        shownCurrent = currentKey;
        fill(
          current,
          h(
            "div",
            { class: "fair__row" },
            h("dt", {}, "Shoe"),
            h(
              "dd",
              { dataset: { shoe: shoe?.id ?? "" } },
              h("code", {}, shoe?.id ?? "–"),
              shoe?.algorithm ? h("span", { class: "fair__algo" }, shoe.algorithm) : null,
            ),
          ),
          hexRow("Commitment", shoe?.commitment),
          shoe?.client_seed ? hexRow("Client seed", shoe.client_seed) : null,
        );
      }
      const revealedKey = JSON.stringify([
        finished?.id,
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
