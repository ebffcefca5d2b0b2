// Sounds, off by default: a toggle in the page header (remembered in localStorage), a
// two-note chime when it becomes your turn and a short click when checkers move. The
// sounds are generated with WebAudio (no audio files). The audio context is made
// only once the person has used the page (browsers refuse to start one before).

const KEY = "backgammon.sound"; // "on" or "off"
const audio = { context: null, on: null };

/** Whether sounds are on (they are off unless the person turned them on here). */
export function soundOn() {
  if (audio.on === null) {
    try {
      audio.on = localStorage.getItem(KEY) === "on";
    } catch {
      audio.on = false;
    }
  }
  return audio.on;
}

function context() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  if (!audio.context) {
    const activation = navigator.userActivation;
    if (activation && !activation.hasBeenActive) return null;
    audio.context = new Context();
  }
  if (audio.context.state === "suspended") audio.context.resume().catch(() => {});
  return audio.context;
}

function tone(ctx, at, { frequency, duration, volume, type = "sine" }) {
  const oscillator = ctx.createOscillator();
  const gain = ctx.createGain();
  oscillator.type = type;
  oscillator.frequency.setValueAtTime(frequency, at);
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(volume, at + 0.008);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + duration);
  oscillator.connect(gain);
  gain.connect(ctx.destination);
  oscillator.start(at);
  oscillator.stop(at + duration + 0.02);
}

/** The chime for "your turn" (when sounds are on). */
export function playTurnSound() {
  const ctx = soundOn() ? context() : null;
  if (!ctx) return;
  const now = ctx.currentTime;
  tone(ctx, now, { frequency: 660, duration: 0.14, volume: 0.18 });
  tone(ctx, now + 0.13, { frequency: 880, duration: 0.2, volume: 0.18 });
}

/** The click of checkers moving (when sounds are on). */
export function playMoveSound() {
  const ctx = soundOn() ? context() : null;
  if (!ctx) return;
  const now = ctx.currentTime;
  tone(ctx, now, { frequency: 180, duration: 0.07, volume: 0.3, type: "triangle" });
  tone(ctx, now, { frequency: 1200, duration: 0.025, volume: 0.05, type: "square" });
}

/** Make `button` the sounds' on/off toggle (aria-pressed says which). */
export function bindSound(button) {
  const show = () => {
    const on = soundOn();
    button.setAttribute("aria-pressed", String(on));
    button.title = on ? "Sounds on (click to turn off)" : "Sounds off (click to turn on)";
  };
  button.addEventListener("click", () => {
    audio.on = !soundOn();
    try {
      localStorage.setItem(KEY, audio.on ? "on" : "off");
    } catch {
      // Storage refused (private mode): the toggle still works on this page.
    }
    show();
    playMoveSound();
  });
  show();
}
