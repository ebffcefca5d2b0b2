// What every page of the web client shares: building elements, the status line, and
// calls to the HTTP API (a 401 answer raises UNAUTHORIZED on the window: app.js logs out).

export const $ = (selector) => document.querySelector(selector);

/** The event raised when the server no longer knows our session. */
export const UNAUTHORIZED = "backgammon:unauthorized";

export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "onclick") node.addEventListener("click", value);
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

/** The header's "who": the signed-in user's name (a guest's marked so) as a link to their
 *  player page, or `text` (say "watching") when nobody is signed in. */
export function showWho(user, text = "") {
  const who = $("#who");
  if (!user) {
    who.textContent = text;
    return;
  }
  const name = user.kind === "guest" ? `${user.name} (guest)` : user.name;
  who.replaceChildren(el("a", { href: `/#/player/${encodeURIComponent(user.name)}`, text: name, title: "your player page" }));
}

/** How long a line stays in the status bar, in seconds: a notice, an error. */
export const STATUS_SECONDS = Object.freeze({ notice: 15, error: 30 });

/** How many milliseconds the status line `text` stays before it is cleared (null:
 *  until replaced; an empty line, or one said with `hold`, such as a lost
 *  connection, which stays true until the next line replaces it). */
export function statusLife(text, error = false, hold = false) {
  if (!text || hold) return null;
  return 1000 * (error ? STATUS_SECONDS.error : STATUS_SECONDS.notice);
}

let statusTimer = null;

/** Say `text` in the status line under the header (an error in red); it clears
 *  itself after statusLife(), so an old line never lingers. */
export function say(text, error = false, hold = false) {
  const status = $("#status");
  status.textContent = text;
  status.classList.toggle("error", error);
  clearTimeout(statusTimer);
  const life = statusLife(text, error, hold);
  statusTimer = life === null ? null : setTimeout(() => say(""), life);
}

/** A call answered 401: the session is gone (app.js logs out and says why once). */
export class SessionEndedError extends Error {}

/** An API error on the status line; one of a session that ended was already explained
 * (a kick's reason must not give way to the "log in first" of a request in flight). */
export function sayError(error) {
  if (!(error instanceof SessionEndedError)) say(error.message, true);
}

function messageOf(data, response) {
  if (data && typeof data.message === "string") return data.message;
  if (data && Array.isArray(data.detail)) {
    return data.detail.map((d) => `${(d.loc || []).slice(1).join(".")}: ${d.msg}`).join("; ");
  }
  if (data && typeof data.detail === "string") return data.detail;
  return `${response.status} ${response.statusText}`;
}

export async function api(method, path, body) {
  const options = { method, credentials: "same-origin", headers: {} };
  if (body !== undefined) {
    options.headers["content-type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (response.status === 401 && !path.startsWith("/api/login")) {
    window.dispatchEvent(new Event(UNAUTHORIZED));
    throw new SessionEndedError(messageOf(data, response));
  }
  if (!response.ok) throw new Error(messageOf(data, response));
  return data;
}


/** An equity with its sign, three decimals. */
export function signed(x) {
  return `${x >= 0 ? "+" : ""}${x.toFixed(3)}`;
}
