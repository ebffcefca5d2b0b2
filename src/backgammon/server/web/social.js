// The lobby's social side on the page: the lobby chat (the shouts, which FIBS users
// hear too), a private-message thread per user (tells), the friends list with who is
// online, a rating after every name, and notice of an invitation while the tab is in
// the background (a notification where the user allowed them, else a count in the
// tab's title and a dot on its icon). The words and bookkeeping are socialview.js's.

import { $, api, el, say, sayError } from "./common.js";
import { playerLink } from "./player.js";
import * as SV from "./socialview.js";

const BADGE_ICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E" +
  "%3Ccircle cx='8' cy='8' r='7' fill='%23d0312d'/%3E%3C/svg%3E";

/** What the social side knows; set by bindSocial and the server's messages. */
const social = {
  me: null, // our name
  send: null, // app.js's send(message): false when not connected
  invite: null, // app.js's createMatch(name)
  ratings: new Map(), // name → standard rating, of every rated user shown
  threads: new SV.Threads(),
  shown: null, // the thread on screen
  refs: new Map(), // ref of a chat or tell on its way → "shout" or "pm"
  sent: 0,
  unseen: 0, // invitations that came while the tab was in the background
  icon: null, // the page's own icon, while the badge replaces it
};

/** Wire the lobby's social panels: `send` sends a WebSocket message (false when not
 * connected), `invite(name)` invites a user to a match. */
export function bindSocial({ send, invite }) {
  social.send = send;
  social.invite = invite;
  $("#shout-form").addEventListener("submit", (event) => {
    event.preventDefault();
    speak("shout", $("#shout-input"), { type: "chat", room: "lobby" });
  });
  $("#pm-form").addEventListener("submit", (event) => {
    event.preventDefault();
    if (social.shown) speak("pm", $("#pm-input"), { type: "tell", to: social.shown });
  });
  $("#friend-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("#friend-name").value.trim();
    if (name) changeFriend("PUT", name, () => ($("#friend-name").value = ""));
  });
  bindNotifications();
}

/** A new session (or none): forget the last user's threads and chat. */
export function socialSignedIn(user) {
  social.me = user ? user.name : null;
  social.threads = new SV.Threads();
  social.shown = null;
  $("#pm-card").hidden = true;
  $("#shouts").replaceChildren();
}

function speak(kind, input, message) {
  const text = input.value.trim();
  if (!text) return;
  social.sent += 1;
  const ref = `social-${social.sent}`;
  showError(kind, "");
  if (social.send({ ...message, text, ref })) {
    social.refs.set(ref, kind);
    input.value = "";
  }
}

function showError(kind, text) {
  const line = $(kind === "shout" ? "#shout-error" : "#pm-error");
  line.textContent = text;
  line.hidden = !text;
}

/** Handle a server message that is the social side's; true when nobody else needs it
 * (a lobby or an invitation is app.js's too). */
export function receiveSocial(message) {
  switch (message.type) {
    case "chat":
      if (message.room !== "lobby") return false;
      addShout(message);
      return true;
    case "chat_history":
      if (message.room !== "lobby") return false;
      $("#shouts").replaceChildren();
      for (const line of message.lines) addShout({ from: line.name, text: line.text });
      return true;
    case "tell":
    case "message": // FIBS's 'message', told while we are online
      addToThread(message.from, { from: message.from, text: message.text }, true);
      say(`${message.from} tells you: ${message.text}`); // heard on every page, a match's too
      return true;
    case "told": // our own tell, on every page of ours
      addToThread(message.to, { from: social.me, text: message.text }, false);
      return true;
    case "ratings":
      noteRatings(message.ratings);
      return true;
    case "invitation":
      noticeInvitation(message);
      return false;
    case "error": {
      const kind = social.refs.get(message.ref);
      if (!kind) return false;
      social.refs.delete(message.ref);
      showError(kind, message.message || message.code);
      say(message.message || message.code, true);
      return true;
    }
    default:
      return false;
  }
}

// -- ratings ----------------------------------------------------------------------------

/** Remember ratings by name and show them on the names already on the page. */
export function noteRatings(ratings) {
  for (const [name, rating] of Object.entries(ratings || {})) social.ratings.set(name, rating);
  for (const tag of document.querySelectorAll("span.rating[data-rating-of]")) {
    const rating = social.ratings.get(tag.dataset.ratingOf);
    if (rating !== undefined) tag.textContent = (tag.dataset.lead || "") + SV.ratingText(rating);
  }
}

/** The rating shown after `name` (empty, and filled in when it is known; guests have none). */
export function ratingTag(name, lead = "") {
  const rating = social.ratings.get(name);
  return el("span", {
    class: "rating",
    "data-rating-of": name,
    "data-lead": lead,
    title: "standard rating",
    text: rating === undefined ? "" : lead + SV.ratingText(rating),
  });
}

/** A name as a link to the player's page, with the rating after it. */
export function nameTag(name) {
  return el("span", { class: "name-tag" }, playerLink(name), " ", ratingTag(name));
}

/** A lobby line's text with the rating after each of `names` (see socialview.js). */
export function withRatings(text, names) {
  return SV.splitAtNames(text, names, social.ratings).map((part) =>
    typeof part === "string" ? part : el("span", {}, " ", ratingTag(part.name)),
  );
}

/** The lobby came (by WebSocket or HTTP): its ratings and the friends list. */
export function showLobby(lobby) {
  noteRatings(lobby.ratings);
  renderFriends(lobby.friends || []);
}

// -- the lobby chat ---------------------------------------------------------------------

function addShout({ from, text }) {
  const who = from === social.me
    ? el("b", { text: from })
    : el("button", { type: "button", class: "chat-name", title: `message ${from}`, text: from, onclick: () => openThread(from) });
  appendChatLine($("#shouts"), el("li", {}, who, ratingTag(from, " "), ": ", text));
}

/** Append `item` to the chat list `lines`, keeping the last MAX_LINES and the newest in view. */
export function appendChatLine(lines, item) {
  lines.append(item);
  while (lines.children.length > SV.MAX_LINES) lines.firstChild.remove();
  lines.scrollTop = lines.scrollHeight;
}

/** A line of a room's chat (a chouette table's): the speaker, their rating and the
 * words, a spectators' line marked as such. */
export function roomChatLine({ from, text, audience }) {
  const item = el("li", {}, el("b", { text: from }), ratingTag(from, " "), ": ", text);
  if (audience === "spectators") item.classList.add("spectators");
  return item;
}

// -- private messages -------------------------------------------------------------------

/** A button that opens the private-message thread with `name`. */
export function messageButton(name) {
  return el("button", { type: "button", class: "message-user", text: "Message", "aria-label": `message ${name}`, onclick: () => openThread(name) });
}

/** Show the thread with `name` (made if new) and put the cursor in its input. */
export function openThread(name) {
  if (!name || name === social.me) return;
  social.threads.open(name);
  social.shown = name;
  social.threads.read(name);
  showError("pm", "");
  renderThreads();
  $("#pm-input").focus();
}

function addToThread(other, line, unread) {
  if (!social.shown) social.shown = other; // the first thread opens by itself
  social.threads.add(other, line, unread && other !== social.shown);
  renderThreads();
}

function renderThreads() {
  $("#pm-card").hidden = social.shown === null;
  $("#pm-tabs").replaceChildren(
    ...social.threads.names().map((name) =>
      el("button", {
        type: "button",
        role: "tab",
        "data-thread": name,
        "aria-selected": String(name === social.shown),
        text: social.threads.label(name),
        onclick: () => openThread(name),
      }),
    ),
  );
  if (social.shown === null) return;
  $("#pm-with").textContent = social.shown;
  const thread = social.threads.open(social.shown);
  const lines = $("#pm-lines");
  lines.replaceChildren(...thread.lines.map((line) => el("li", {}, el("b", { text: `${line.from}: ` }), line.text)));
  lines.scrollTop = lines.scrollHeight;
}

// -- friends ----------------------------------------------------------------------------

async function changeFriend(method, name, done) {
  try {
    renderFriends(await api(method, `/api/friends/${encodeURIComponent(name)}`));
    if (done) done();
  } catch (error) {
    sayError(error);
  }
}

function renderFriends(friends) {
  for (const friend of friends) if (friend.rating !== null) social.ratings.set(friend.name, friend.rating);
  const items = friends.map((friend) => {
    const status = el("span", { class: `friend-status ${friend.online ? "online" : "offline"}`, text: friend.online ? "online" : "offline" });
    return el(
      "li",
      { "data-friend": friend.name, "data-online": String(friend.online) },
      nameTag(friend.name),
      " ",
      status,
      " ",
      el("button", { type: "button", text: "Invite", "data-creates": "", "aria-label": `invite ${friend.name}`, onclick: () => social.invite(friend.name) }),
      " ",
      messageButton(friend.name),
      " ",
      el("button", { type: "button", text: "Remove", "aria-label": `remove ${friend.name} from friends`, onclick: () => changeFriend("DELETE", friend.name) }),
    );
  });
  $("#friends").replaceChildren(...(items.length ? items : [el("li", { class: "none", text: "none yet" })]));
}

/** A button that puts `name` on the friends list. */
export function befriendButton(name) {
  return el("button", { type: "button", class: "befriend", text: "Add friend", "aria-label": `add friend ${name}`, onclick: () => changeFriend("PUT", name) });
}

// -- notice of invitations in the background -------------------------------------------

function bindNotifications() {
  const ask = $("#notify-toggle");
  const canAsk = () => "Notification" in window && Notification.permission === "default";
  ask.hidden = !canAsk();
  ask.addEventListener("click", async () => {
    try {
      await Notification.requestPermission();
    } finally {
      ask.hidden = !canAsk();
    }
  });
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) setBadge(0);
  });
}

function noticeInvitation(message) {
  if (!document.hidden) return;
  setBadge(social.unseen + 1);
  if ("Notification" in window && Notification.permission === "granted") {
    const notice = new Notification("Backgammon", { body: SV.invitationNotice(message), tag: `invitation-${message.match}` });
    notice.addEventListener("click", () => {
      window.focus();
      notice.close();
    });
  }
}

function setBadge(count) {
  social.unseen = count;
  document.title = SV.badgeTitle(document.title, count);
  const icon = document.querySelector("link[rel~='icon']");
  if (!icon) return;
  if (count > 0 && social.icon === null) social.icon = icon.getAttribute("href");
  if (count > 0) icon.setAttribute("href", BADGE_ICON);
  else if (social.icon !== null) {
    icon.setAttribute("href", social.icon);
    social.icon = null;
  }
}
