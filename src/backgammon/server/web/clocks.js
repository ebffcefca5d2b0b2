// Time controls by name: the presets offered when a match is created (the server's
// clock: `delay` free seconds a decision, then a reserve of `reserve_per_point`
// seconds a point of the match, `money_reserve` in a money session), a custom one, and
// a clock's name as the lobby shows it.

/** The presets, fastest first; "normal" is the server's default clock. */
export const CLOCK_PRESETS = Object.freeze({
  blitz: Object.freeze({ delay: 5, reserve_per_point: 30, money_reserve: 300 }),
  normal: Object.freeze({ delay: 12, reserve_per_point: 60, money_reserve: 600 }),
  slow: Object.freeze({ delay: 30, reserve_per_point: 180, money_reserve: 1800 }),
});

/** What the server takes for a custom clock (protocol.ClockSettings). */
export const CUSTOM_LIMITS = Object.freeze({ delay: 600, reserve_per_point: 3600 });

/** The clock's settings for a choice of the #clock menu: a preset, "none" (untimed:
 *  null) or "custom" with its delay and reserve a point in seconds. Returns
 *  {clock} or {error} naming the field that is wrong. */
export function clockChoice(choice, custom = {}) {
  if (choice === "none") return { clock: null };
  if (Object.hasOwn(CLOCK_PRESETS, choice)) return { clock: { ...CLOCK_PRESETS[choice] } };
  if (choice !== "custom") return { error: `clock: no preset called ${String(choice).slice(0, 20)}` };
  const clock = {};
  for (const [field, label] of [["delay", "delay"], ["reserve_per_point", "reserve a point"]]) {
    const text = String(custom[field] ?? "").trim();
    const value = Number(text);
    if (!text || !Number.isFinite(value) || value < 0 || value > CUSTOM_LIMITS[field]) {
      return { error: `clock: the ${label} must be a number of seconds from 0 to ${CUSTOM_LIMITS[field]}` };
    }
    clock[field] = value;
  }
  clock.money_reserve = Math.min(36000, clock.reserve_per_point * 10);
  return { clock };
}

/** A clock's name: "blitz", "normal", "slow", "untimed", or "custom (8 s + 45 s a
 *  point)"; a clock missing fields has the server's defaults for them. */
export function clockName(clock) {
  if (!clock) return "untimed";
  const whole = { ...CLOCK_PRESETS.normal, ...clock };
  for (const [name, preset] of Object.entries(CLOCK_PRESETS)) {
    if (whole.delay === preset.delay && whole.reserve_per_point === preset.reserve_per_point) return name;
  }
  return `custom (${whole.delay} s + ${whole.reserve_per_point} s a point)`;
}

/** A clock as the lobby lists it: "blitz clock", "custom clock (8 s + 45 s a point)", "untimed". */
export function clockLabel(clock) {
  const name = clockName(clock);
  if (name === "untimed") return name;
  return name.startsWith("custom") ? name.replace("custom", "custom clock") : `${name} clock`;
}
