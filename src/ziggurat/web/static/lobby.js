// The lobby: the new-table form (which options each game has comes from the server) and public tables.
import { _ } from "./i18n.js";
import { forget, remembered } from "./mine.js";

const games = JSON.parse(document.getElementById("zg-games").textContent);
const form = document.getElementById("zg-create-form");
const gameSelect = document.getElementById("zg-game");
const playersSelect = document.getElementById("zg-players");
const seatList = document.getElementById("zg-seat-list");
const seatTemplate = document.getElementById("zg-seat-template");
const nameInput = document.getElementById("zg-name");
const errorEl = document.getElementById("zg-create-error");

if (!nameInput.value) nameInput.value = localStorage.getItem("zg-name") || "";

function game() {
  return games.find((g) => g.id === gameSelect.value);
}

function showGame() {
  const g = game();
  for (const fs of document.querySelectorAll(".zg-options")) fs.hidden = fs.dataset.game !== g.id;
  const before = Number(playersSelect.value) || 0;
  playersSelect.replaceChildren();
  for (let p = g.min_players; p <= g.max_players; p++) {
    const o = document.createElement("option");
    o.value = o.textContent = String(p);
    playersSelect.append(o);
  }
  playersSelect.value = String(Math.min(g.max_players, Math.max(g.min_players, before || Math.max(2, g.min_players))));
  showSeats();
}

function showSeats() {
  const count = Number(playersSelect.value);
  while (seatList.children.length < count) {
    const li = seatTemplate.content.firstElementChild.cloneNode(true);
    const select = li.querySelector("select");
    select.value = seatList.children.length === 0 ? "me" : "random";
    seatList.append(li);
  }
  while (seatList.children.length > count) seatList.lastElementChild.remove();
  // the learned bot only where a trained policy fits this game and player count
  const learned = (game().learned || []).includes(count);
  for (const select of seatList.querySelectorAll("select")) {
    const option = select.querySelector('option[value="learned"]');
    if (!option) continue;
    option.hidden = option.disabled = !learned;
    if (!learned && select.value === "learned") select.value = "random";
  }
}

function options() {
  const out = {};
  const fs = document.querySelector(`.zg-options[data-game="${gameSelect.value}"]`);
  for (const input of fs.querySelectorAll("[data-option]")) {
    const kind = input.dataset.kind;
    out[input.dataset.option] = kind === "bool" ? input.checked : kind === "int" ? Number(input.value) : input.value;
  }
  return out;
}

async function post(url, body) {
  const r = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Ziggurat": "1" },
    body: JSON.stringify(body),
  });
  const data = await r.json();
  if (!r.ok) throw new Error(data.message || _("the server said no"));
  return data;
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  errorEl.textContent = "";
  const name = nameInput.value.trim();
  localStorage.setItem("zg-name", name);
  const seats = [...seatList.querySelectorAll("select")].map((s) => s.value);
  try {
    const pace = form.querySelector("input[name=pace]:checked").value;
    const body = {
      game: gameSelect.value,
      seats,
      options: options(),
      public: document.getElementById("zg-public").checked,
      rated: document.getElementById("zg-rated").checked,
      pace,
      name,
    };
    if (pace === "realtime") {
      body.clock = 60 * Number(document.getElementById("zg-clock-min").value);
      body.increment = Number(document.getElementById("zg-clock-inc").value);
    } else if (pace === "turn") {
      body.turn_seconds = 3600 * Number(document.getElementById("zg-turn-hours").value);
    }
    const created = await post("/api/tables", body);
    const hash = created.invites.map((i) => `invite-${i.seat}=${encodeURIComponent(i.token)}`).join("&");
    location.href = `/t/${created.id}` + (hash ? `#${hash}` : "");
  } catch (e) {
    errorEl.textContent = e.message;
  }
});

for (const button of document.querySelectorAll("[data-sit]")) {
  button.addEventListener("click", async () => {
    const name = nameInput.value.trim();
    if (!name) {
      errorEl.textContent = _("Write your name first (in the form above).");
      nameInput.focus();
      return;
    }
    localStorage.setItem("zg-name", name);
    try {
      const r = await post(`/api/tables/${button.dataset.sit}/seats/${button.dataset.seat}/claim`, { name });
      location.href = r.url;
    } catch (e) {
      errorEl.textContent = e.message;
    }
  });
}

// "My tables": the ones this browser sits at (a guest's), besides those the server listed for an account
const STATUS = { waiting: _("waiting for players"), playing: _("playing"), over: _("over") };

async function showMine() {
  const section = document.getElementById("zg-mine");
  const list = document.getElementById("zg-mine-list");
  const template = document.getElementById("zg-mine-template");
  const listed = new Set([...list.querySelectorAll("[data-table]")].map((li) => li.dataset.table));
  for (const t of remembered()) {
    if (listed.has(t.id)) continue;
    let status = "";
    try {
      const r = await fetch(`/api/tables/${t.id}`);
      if (r.status === 404) {
        forget(t.id); // deleted (a table whose seats were never all taken)
        continue;
      }
      if (r.ok) status = (await r.json()).status;
    } catch {
      // offline: show it all the same
    }
    const li = template.content.firstElementChild.cloneNode(true);
    li.dataset.table = t.id;
    const link = li.querySelector("a");
    link.href = `/t/${t.id}`;
    link.textContent = t.game;
    li.querySelector(".zg-mine-seat").textContent = _("seat {n}", { n: Number(t.seat) + 1 });
    li.querySelector(".zg-mine-status").textContent = STATUS[status] || "";
    const button = li.querySelector(".zg-forget");
    button.textContent = _("Forget");
    button.setAttribute("aria-label", _("Forget table {table}", { table: t.id }));
    button.addEventListener("click", () => {
      forget(t.id);
      li.remove();
      section.hidden = !list.children.length;
    });
    list.append(li);
    listed.add(t.id);
  }
  section.hidden = !list.children.length;
}

showMine();
gameSelect.addEventListener("change", showGame);
playersSelect.addEventListener("change", showSeats);
showGame();
