// The invite page: the seat's secret is in the URL fragment (#...), which browsers never send to a server.
import { _, ngettext } from "./i18n.js";

const token = decodeURIComponent(location.hash.slice(1));
const title = document.getElementById("zg-join-title");
const text = document.getElementById("zg-join-text");
const form = document.getElementById("zg-join-form");
const nameInput = document.getElementById("zg-join-name");
const errorEl = document.getElementById("zg-join-error");

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

async function start() {
  if (!token) {
    title.textContent = _("No invitation");
    text.textContent = _("Open the whole invite link you were sent.");
    return;
  }
  try {
    const info = await post("/api/seats/lookup", { token });
    title.textContent = info.name
      ? _("Back to {name}: {game}", { name: info.name, game: info.game })
      : _("Join seat {seat}: {game}", { seat: info.seat + 1, game: info.game });
    text.textContent = ngettext("{n} player. Seat {seat}.", "{n} players. Seat {seat}.", info.players, {
      seat: info.seat + 1,
    });
    if (info.taken) {
      nameInput.value = info.name;
      nameInput.disabled = true;
      document.getElementById("zg-join-button").textContent = _("Continue as {name}", { name: info.name });
    } else {
      nameInput.value = localStorage.getItem("zg-name") || "";
    }
    form.hidden = false;
  } catch (e) {
    title.textContent = _("This invitation does not work");
    errorEl.textContent = e.message;
  }
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  errorEl.textContent = "";
  try {
    if (!nameInput.disabled) localStorage.setItem("zg-name", nameInput.value.trim());
    const r = await post("/api/seats/claim", { token, name: nameInput.value });
    history.replaceState(null, "", "/join");
    location.href = r.url;
  } catch (e) {
    errorEl.textContent = e.message;
  }
});

start();
