// Replays: step through the frames one audience was sent (a seat's only once the game is over).
import { boardHelp, fitBoard, fitButton } from "./fit.js";
import { _ } from "./i18n.js";

const root = document.getElementById("zg-replay");
const tableId = root.dataset.table;
const seatSelect = document.getElementById("zg-replay-seat");
const stepEl = document.getElementById("zg-step");
let step = 0;
let steps = 0;

async function get(url) {
  const r = await fetch(url);
  const data = await r.json();
  if (!r.ok) throw new Error(data.message);
  return data;
}

async function load() {
  const seat = seatSelect.value;
  const info = await get(`/api/tables/${tableId}/replay?seat=${seat}`);
  steps = info.steps;
  await show(Math.min(step, steps - 1));
}

async function show(k) {
  if (k < 0 || k >= steps) return;
  const f = await get(`/api/tables/${tableId}/replay?seat=${seatSelect.value}&step=${k}`);
  step = k;
  const board = document.getElementById("zg-board");
  board.innerHTML = f.html.board;
  fitBoard(board, document.getElementById("zg-fit"));
  document.getElementById("zg-status").innerHTML = f.html.status;
  const log = document.getElementById("zg-log");
  log.innerHTML = f.html.log.join("");
  log.scrollTop = log.scrollHeight;
  stepEl.textContent = _("step {k} of {n}", { k: k + 1, n: steps });
  root.dataset.step = String(k);
}

fitButton(document.getElementById("zg-board"), document.getElementById("zg-fit"));
boardHelp(document.getElementById("zg-board"), document.getElementById("zg-board-help"));
document.getElementById("zg-first").addEventListener("click", () => show(0));
document.getElementById("zg-prev").addEventListener("click", () => show(step - 1));
document.getElementById("zg-next").addEventListener("click", () => show(step + 1));
document.getElementById("zg-last").addEventListener("click", () => show(steps - 1));
document.addEventListener("keydown", (e) => {
  if (e.key === "ArrowLeft") show(step - 1);
  if (e.key === "ArrowRight") show(step + 1);
});
seatSelect.addEventListener("change", () => {
  step = 0;
  load();
});
load();
