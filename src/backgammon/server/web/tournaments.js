// The tournaments page: the list (open, running, finished) and one tournament's
// standings and rounds (?id=ID), refreshed every few seconds. Every text from the
// server is set as text, never as HTML.

const REFRESH_MS = 2000;

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

function tiebreaks(standing) {
  return Object.entries(standing.tiebreaks)
    .map(([name, value]) => `${name} ${value}`)
    .join(", ");
}

function pairingText(pairing) {
  const [first, second] = pairing.players;
  if (second === null) return `${first}: bye`;
  const result = pairing.winner === null ? "playing" : `${pairing.winner} won`;
  return `${first} – ${second}: ${result}`;
}

async function showTournament(id) {
  const view = await getJson(`/api/tournaments/${encodeURIComponent(id)}`);
  document.getElementById("tournament-list").hidden = true;
  document.getElementById("tournament").hidden = false;
  document.getElementById("tournament-name").textContent = view.name;
  const players = view.players.map((p) => p.name).join(", ");
  const status = view.round_in_play ? `${view.status}, round ${view.round_in_play}` : view.status;
  document.getElementById("tournament-status").textContent =
    `${view.format}, ${status}. Players: ${players || "none yet"}.`;
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
  document.getElementById("rounds").replaceChildren(
    ...view.rounds.map((round) => {
      const item = element("li", `Round ${round.number}`);
      const pairings = element("ul");
      pairings.append(...round.pairings.map((pairing) => element("li", pairingText(pairing))));
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
