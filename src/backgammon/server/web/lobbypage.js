// The lobby page drawn from the lobby the server shows us (app.lobby): the bots, the
// invitations to us and ours, the open matches, who is online, the matches in play,
// and the player's own. What its buttons do (create, join, close a match) is app.js's,
// passed in as `actions`; the sentences are lobbyview.js's.

import { $, el, say } from "./common.js";
import * as L from "./lobbyview.js";
import * as S from "./social.js";

const BOT_NAMES = { beginner: "Beginner", intermediate: "Intermediate", expert: "Expert", worldclass: "World class" };

/** Draw the lobby of `app` (app.js's page state); `actions` are app.js's
 *  createMatch, joinMatch, closeMatch and setCreating. */
export function drawLobby(app, actions) {
  const { createMatch, joinMatch, closeMatch, setCreating } = actions;
  const lobby = app.lobby;
  if (!lobby || !app.me) return;
  const me = app.me.name;
  S.showLobby(lobby);
  const bots = $("#bots");
  bots.replaceChildren(
    ...lobby.bots.map((bot) =>
      el("button", {
        type: "button",
        title: `play ${bot.name}`,
        "data-level": bot.bot_level,
        "data-creates": "",
        text: BOT_NAMES[bot.bot_level] || bot.bot_level,
        onclick: () => createMatch(`bot:${bot.bot_level}`),
      }),
    ),
  );
  if (!lobby.bots.length) bots.append(el("span", { text: "No bots on this server." }));

  const invitations = lobby.invitations.map((match) =>
    el(
      "li",
      { "data-match": match.id },
      ...S.withRatings(L.describeInvitation(match), [match.players[0]]),
      " ",
      el("button", { type: "button", text: "Accept", onclick: () => joinMatch(match.id) }),
      " ",
      el("button", { type: "button", text: "Decline", onclick: () => closeMatch(match.id, "decline") }),
    ),
  );
  $("#invitations").replaceChildren(...invitations);
  $("#invitations-card").hidden = invitations.length === 0;

  const openPage = (match) => el("button", { type: "button", text: "Waiting…", onclick: () => (location.hash = `#/match/${match.id}`) });
  const takeBack = (match) => el("button", { type: "button", text: L.takeBackLabel(match), onclick: () => closeMatch(match.id, "cancel") });
  const sent = lobby.sent.map((match) =>
    el("li", { "data-match": match.id }, ...S.withRatings(L.describeSent(match), [match.invitee]), " ", openPage(match), " ", takeBack(match)),
  );
  $("#sent").replaceChildren(...sent);
  $("#sent-card").hidden = sent.length === 0;

  const open = lobby.open.map((match) => {
    const text = [...S.withRatings(L.describeOpenMatch(match), [match.players[0]]), " "];
    if (match.players[0] !== me) {
      return el("li", { "data-match": match.id }, ...text, el("button", { type: "button", text: "Join", onclick: () => joinMatch(match.id) }));
    }
    return el("li", { "data-match": match.id }, ...text, openPage(match), " ", takeBack(match));
  });
  $("#open-matches").replaceChildren(...(open.length ? open : [el("li", { class: "none", text: "none" })]));

  const online = lobby.online.map((user) => {
    const item = el("li", {}, S.nameTag(user.name), user.kind === "guest" ? " (guest) " : " ");
    if (user.name !== me && user.kind !== "bot") {
      item.append(el("button", { type: "button", text: "Invite", "data-creates": "", onclick: () => createMatch(user.name) }));
      item.append(" ", S.messageButton(user.name), " ", S.befriendButton(user.name));
    }
    return item;
  });
  $("#online").replaceChildren(...(online.length ? online : [el("li", { class: "none", text: "nobody" })]));

  const playing = lobby.playing.map((match) => {
    const mine = match.players.includes(me);
    return el(
      "li",
      {},
      ...S.withRatings(`${match.players[0]} – ${match.players[1]}: ${L.describeSettings(match.settings)}`, match.players),
      " ",
      el("button", {
        type: "button",
        text: mine ? "Resume" : "Watch",
        onclick: () => (location.hash = `#/match/${match.id}`),
      }),
    );
  });
  $("#playing").replaceChildren(...(playing.length ? playing : [el("li", { class: "none", text: "none" })]));
  renderYours(app, lobby.yours || []);
  setCreating(app.creating);
}

/** The player's own matches in play, first in the lobby, each with the way back to it;
 *  said once on arriving (a returning player learns that a match waits for them). */
function renderYours(app, yours) {
  const me = app.me.name;
  $("#yours").replaceChildren(
    ...yours.map((match) => {
      const opponent = match.players.find((name) => name !== me) || "";
      return el(
        "li",
        { "data-match": match.id },
        `Against ${opponent}: ${L.describeSettings(match.settings)} `,
        el("button", { type: "button", class: "primary", text: "Resume", onclick: () => (location.hash = `#/match/${match.id}`) }),
      );
    }),
  );
  $("#yours-card").hidden = yours.length === 0;
  if (yours.length && !app.toldYours && document.body.dataset.view === "lobby") {
    app.toldYours = true;
    const [first] = yours;
    const opponent = first.players.find((name) => name !== me) || "";
    const more = yours.length > 1 ? ` (and ${yours.length - 1} more)` : "";
    say(`Your match against ${opponent} is waiting for you${more}: Resume it from the lobby.`);
  }
}
