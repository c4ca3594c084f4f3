// @ts-check
// The table's sounds: a card dealt, a chip laid, a result, a win, and the result spoken in the
// language shown. Every sound is made here with Web Audio (no file to fetch) and every word by
// the browser's speech synthesis. The page imports this module only once a player turns sound
// on (it is off unless chosen).

/**
 * One short tone.
 * @typedef {object} Tone
 * @property {number} frequency  Hz at the start
 * @property {number} [to]  Hz at the end (a sweep)
 * @property {number} duration  seconds
 * @property {OscillatorType} [type]
 * @property {number} [gain]  its peak loudness (0 to 1)
 * @property {number} [delay]  seconds from now
 */

// A chip: two dry clicks, as one clay chip lands on another.
/** @type {Tone[]} */
const CHIP = [
  { frequency: 2400, to: 1800, duration: 0.035, type: "triangle", gain: 0.18 },
  { frequency: 3100, to: 2200, duration: 0.03, type: "triangle", gain: 0.12, delay: 0.045 },
];
// A card: a quick falling swish.
/** @type {Tone[]} */
const CARD = [{ frequency: 900, to: 260, duration: 0.09, type: "sawtooth", gain: 0.05 }];
// A result: one soft bell.
/** @type {Tone[]} */
const RESULT = [
  { frequency: 660, duration: 0.35, type: "sine", gain: 0.16 },
  { frequency: 990, duration: 0.3, type: "sine", gain: 0.06 },
];
// A win for the player: a rising major arpeggio.
/** @type {Tone[]} */
const WIN = [523.25, 659.25, 783.99, 1046.5].map((frequency, i) => ({
  frequency,
  duration: 0.22,
  type: "triangle",
  gain: 0.16,
  delay: i * 0.09,
}));

/**
 * The sounds of a table; the audio context is made on first use and woken if the browser
 * suspended it (it does until the page has been touched).
 * @returns {{card(): void, chip(): void, result(): void, win(): void, say(text: string, lang: string): void}}
 */
export function tableSound() {
  /** @type {AudioContext | null} */
  let context = null;

  /** @returns {AudioContext | null} */
  function audio() {
    if (!context) {
      const Context = window.AudioContext ?? /** @type {any} */ (window).webkitAudioContext;
      if (!Context) return null;
      context = /** @type {AudioContext} */ (new Context());
    }
    if (context.state === "suspended") context.resume().catch(() => {});
    return context;
  }

  /** @param {Tone[]} tones */
  function play(tones) {
    const ctx = audio();
    if (!ctx) return;
    for (const { frequency, to, duration, type = "sine", gain = 0.1, delay = 0 } of tones) {
      const start = ctx.currentTime + delay;
      const oscillator = ctx.createOscillator();
      const loudness = ctx.createGain();
      oscillator.type = type;
      oscillator.frequency.setValueAtTime(frequency, start);
      if (to) oscillator.frequency.exponentialRampToValueAtTime(to, start + duration);
      // Up fast and down smoothly: a tone cut off at full loudness clicks.
      loudness.gain.setValueAtTime(0.0001, start);
      loudness.gain.exponentialRampToValueAtTime(gain, start + 0.008);
      loudness.gain.exponentialRampToValueAtTime(0.0001, start + duration);
      oscillator.connect(loudness).connect(ctx.destination);
      oscillator.start(start);
      oscillator.stop(start + duration + 0.02);
    }
  }

  return {
    card: () => play(CARD),
    chip: () => play(CHIP),
    result: () => play(RESULT),
    win: () => play(WIN),
    /**
     * Speak `text` in `lang` ("en-US", "id-ID"), cutting off what was still being said.
     * @param {string} text
     * @param {string} lang
     */
    say(text, lang) {
      const speech = window.speechSynthesis;
      if (!speech || typeof window.SpeechSynthesisUtterance !== "function") return;
      const utterance = new window.SpeechSynthesisUtterance(text);
      utterance.lang = lang;
      speech.cancel();
      speech.speak(utterance);
    },
  };
}
