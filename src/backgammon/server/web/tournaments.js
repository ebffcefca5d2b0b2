// The tournaments page: the list (open, running, finished) and one tournament's
// standings and rounds or arena games (?id=ID), refreshed every few seconds. A signed-in
// person registers or withdraws here, and follows a link to play their match (every
// other match has a link to watch it). Every text from the server is set as text,
// never as HTML.

const REFRESH_MS = 2000;
const HINT = "backgammon.session"; // set by the app once logged in (the cookie is HttpOnly)

/** Who is signed in ({name, kind}), or null; asked once. */
let me;

function element(tag, text, attributes = {}) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = String(text);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

async function getJson(path) {
  const answer = await fetch(path, { headers: { accept: "application/json" } });
  if (!answer.ok) throw new Error(`${path}: ${answer.status}`);
  return answer.json();
}

async function whoAmI() {
  if (me !== undefined) return me;
  me = null;
  if (localStorage.getItem(HINT)) {
    try {
      me = await getJson("/api/me");
    } catch {
      me = null;
    }
  }
  return me;
}

async function post(path) {
  const answer = await fetch(path, { method: "POST", credentials: "same-origin" });
  const data = await answer.json().catch(() => null);
  const notice = document.getElementById("tournament-notice");
  notice.textContent = answer.ok ? "" : (data && data.message) || `${answer.status}`;
}

async function showList() {
  for (const list of document.querySelectorAll("#tournament-list ul")) {
    const { tournaments } = await getJson(`/api/tournaments?status=${list.dataset.status}`);
    list.replaceChildren(
      ...tournaments.map((t) => {
        const item = element("li");
        const link = element("a", t.name, { href: `/tournaments?id=${encodeURIComponent(t.id)}` });
        item.append(link, ` (${t.format}, ${t.players} players)`);
        return item;
      }),
    );
  }
}

const TIEBREAK_NAMES = {
  buchholz: "Buchholz",
  median_buchholz: "median Buchholz",
  sonneborn_berger: "Sonneborn-Berger",
  head_to_head: "head to head",
  seed: "seed",
};

function tiebreaks(standing) {
  return Object.entries(standing.tiebreaks)
    .map(([name, value]) => `${TIEBREAK_NAMES[name] || name.replaceAll("_", " ")} ${value}`)
    .join(" · ");
}

/** When the next round begins: the set start of an open event, or (round by round)
 * as soon as the round in play has ended. */
function nextStep(view) {
  if (view.status === "open") {
    return view.starts_at
      ? `, starts at ${new Date(view.starts_at * 1000).toLocaleString()}`
      : ", starts when the organiser starts it";
  }
  if (view.status === "running" && view.round_in_play && !view.ends_at) {
    const rounds = view.settings && view.settings.rounds;
    if (rounds && view.round_in_play >= rounds) return " (the last round)";
    const next = rounds ? `round ${view.round_in_play + 1}` : "the next round, if any,";
    return `; ${next} starts as soon as this one's last match ends`;
  }
  return "";
}

function pairingText(pairing) {
  const [first, second] = pairing.players;
  if (second === null) return `${first}: bye`;
  const result = pairing.winner === null ? "playing" : `${pairing.winner} won`;
  return `${first} – ${second}: ${result}`;
}

function pairingItem(pairing) {
  const item = element("li", pairingText(pairing));
  if (pairing.match) {
    const mine = me && pairing.players.includes(me.name) && pairing.winner === null;
    const link = element("a", mine ? "play your match" : "watch", {
      href: `/#/match/${encodeURIComponent(pairing.match)}`,
    });
    if (mine) link.className = "your-match";
    item.append(" ", link);
  }
  return item;
}

function showEntry(view) {
  const entry = document.getElementById("tournament-entry");
  entry.replaceChildren();
  if (!me || view.status !== "open") return;
  const entered = view.players.some((p) => p.name === me.name);
  const action = entered ? "withdraw" : "register";
  const button = element("button", entered ? "Withdraw" : "Register", { type: "button" });
  button.addEventListener("click", async () => {
    button.disabled = true;
    await post(`/api/tournaments/${encodeURIComponent(view.id)}/${action}`);
    await showTournament(view.id);
  });
  entry.append(button);
}

function showSideEvents(view) {
  const links = document.getElementById("side-events");
  const related = view.parent ? [{ id: view.parent, name: "main event" }] : [];
  links.replaceChildren(
    ...[...related, ...view.side_events].map((side) => {
      const item = element("li");
      item.append(element("a", side.name, { href: `/tournaments?id=${encodeURIComponent(side.id)}` }));
      if (side.status) item.append(` (${side.status})`);
      return item;
    }),
  );
}

async function showTournament(id) {
  await whoAmI();
  const view = await getJson(`/api/tournaments/${encodeURIComponent(id)}`);
  document.getElementById("tournament-list").hidden = true;
  document.getElementById("tournament").hidden = false;
  document.getElementById("tournament-name").textContent = view.name;
  const players = view.players.map((p) => p.name).join(", ");
  let status = view.round_in_play ? `${view.status}, round ${view.round_in_play}` : view.status;
  if (view.ends_at && view.status === "running") {
    status += `, ends at ${new Date(view.ends_at * 1000).toLocaleTimeString()}`;
  }
  status += nextStep(view);
  document.getElementById("tournament-status").textContent =
    `${view.format}, ${status}. Players: ${players || "none yet"}.`;
  showEntry(view);
  showSideEvents(view);
  document.querySelector("#standings tbody").replaceChildren(
    ...view.standings.map((standing, index) => {
      const row = element("tr");
      row.append(
        element("td", index + 1),
        element("td", standing.name),
        element("td", standing.points),
        element("td", tiebreaks(standing)),
      );
      return row;
    }),
  );
  const games = view.games ? [{ title: "Games", pairings: view.games }] : [];
  document.getElementById("rounds").replaceChildren(
    ...[...view.rounds, ...games].map((round) => {
      const item = element("li", round.title || `Round ${round.number}`);
      const pairings = element("ul");
      pairings.append(...round.pairings.map(pairingItem));
      item.append(pairings);
      return item;
    }),
  );
  return view.status;
}

async function refresh() {
  const id = new URLSearchParams(location.search).get("id");
  try {
    const status = id ? await showTournament(id) : (await showList(), "list");
    if (status === "finished" || status === "cancelled") return;
  } catch (error) {
    console.error(error);
  }
  setTimeout(refresh, REFRESH_MS);
}

refresh();
