// The table page: one WebSocket, frames drawn by the server, moves sent by click or from the list.
//
// The page never changes the board by itself: after a move it waits for the
// server's frame. A refused or stale move is answered with an error and a fresh
// frame, so nothing wrong stays on the screen. A dropped socket reconnects with
// the event number it had; a move not yet acknowledged is sent again with the
// same message id, and the server applies it at most once.
import { BoardClicks } from "./board.js";
import { boardHelp, fitBoard, fitButton } from "./fit.js";
import { _, lang } from "./i18n.js";
import { remember } from "./mine.js";
import { announce, markChanges, snapshot } from "./news.js";

const root = document.getElementById("zg-table");
const tableId = root.dataset.table;
const seat = root.dataset.seat === "" ? null : Number(root.dataset.seat);
const boardEl = document.getElementById("zg-board");
const statusEl = document.getElementById("zg-status");
const logEl = document.getElementById("zg-log");
const actionsEl = document.getElementById("zg-actions");
const undoButton = document.getElementById("zg-undo");
const clearButton = document.getElementById("zg-clear");
const errorEl = document.getElementById("zg-error");
const connEl = document.getElementById("zg-conn");

let frame = JSON.parse(document.getElementById("zg-initial").textContent);
let lastBoard = frame.html ? frame.html.board : ""; // the board as the server drew it last (for what changed)
let n = frame.n; // how many log entries this page has shown: the event number
let socket = null;
let retry = 0;
let pending = null; // the move on its way: {type, id, ...}
let online = [];
let seatLost = false; // the server said this page no longer holds its seat
const pageTitle = document.title;

const clicks = new BoardClicks(boardEl, { onAction: (id) => act(id), onChange: showActions, onWhy: whyNot });
const helpEl = document.getElementById("zg-board-help");
if (helpEl && seat !== null) helpEl.dataset.asks = "why";

// a part of the board that is no move now: the engine says why, to this seat, in the page's language
async function whyNot(text) {
  if (seat === null || !helpEl) return;
  try {
    const r = await fetch(`/api/tables/${tableId}/why?text=${encodeURIComponent(text)}`);
    const body = await r.json();
    if (r.ok && !body.legal) {
      helpEl.textContent = body.message;
      helpEl.dataset.why = "true";
    }
  } catch {
    // offline: the help line keeps what it says
  }
}
const fitEl = document.getElementById("zg-fit");
fitButton(boardEl, fitEl);
fitBoard(boardEl, fitEl);
boardHelp(boardEl, helpEl);

function newId() {
  return (crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random()).slice(0, 36);
}

function setConn(state, text) {
  connEl.dataset.state = state;
  connEl.textContent = text;
}

function showError(text) {
  errorEl.textContent = text;
  errorEl.hidden = !text;
}

function showActions(candidates, path) {
  if (!actionsEl) return;
  const buttons = candidates.map((a) => {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = a.label || a.text;
    b.dataset.action = String(a.id);
    b.disabled = pending !== null;
    b.addEventListener("click", () => act(a.id));
    return b;
  });
  actionsEl.replaceChildren(...buttons);
  if (path.length && candidates.length) {
    const hint = document.createElement("p");
    hint.className = "zg-muted zg-hint";
    hint.textContent = _("Now click one of the highlighted places (or pick from these):");
    actionsEl.prepend(hint);
  }
  if (!candidates.length) {
    const p = document.createElement("span");
    p.className = "zg-muted";
    p.textContent = frame.status.phase === "over" ? _("The game is over.") : _("Nothing to do right now.");
    actionsEl.replaceChildren(p);
  }
  if (clearButton) clearButton.hidden = !path.length;
}

// clocks and deadlines: the server says how much time each seat had when its decision began; we count down
let clockOffset = 0;

function fmtTime(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), sec = total % 60;
  const two = (x) => String(x).padStart(2, "0");
  return h ? `${h}:${two(m)}:${two(sec)}` : `${m}:${two(sec)}`;
}

function showClocks() {
  const clock = frame.status.clock;
  if (!clock) return;
  const now = Date.now() + clockOffset;
  for (const el of statusEl.querySelectorAll("[data-clock-seat]")) {
    const seatNo = el.dataset.clockSeat;
    const started = clock.running[seatNo];
    let left;
    if (clock.pace === "realtime") left = clock.left_ms[Number(seatNo)] - (started ? now - started : 0);
    else left = clock.deadline && clock.deadline[seatNo] ? clock.deadline[seatNo] - now : null;
    el.textContent = left === null ? "" : fmtTime(left);
    el.classList.toggle("zg-running", Boolean(started));
    el.classList.toggle("zg-low", left !== null && left < 30000);
  }
}

setInterval(showClocks, 250);

function showPresence() {
  for (const dot of statusEl.querySelectorAll("[data-online]")) {
    dot.classList.toggle("zg-online", online.includes(Number(dot.dataset.online)));
  }
}

function applyFrame(f, drawn = false) {
  frame = f;
  if (f.html && !drawn) {
    // the other players' moves since the last frame are marked on the new board and said to screen readers
    const others = f.log.some((e) => e.kind === "move" && e.seat !== seat);
    const before = others && lastBoard ? snapshot(lastBoard) : null;
    boardEl.innerHTML = f.html.board;
    if (before) markChanges(boardEl, f.html.board, before);
    lastBoard = f.html.board;
    announce(document.getElementById("zg-news"), f.log, f.html.log, seat);
    fitBoard(boardEl, fitEl);
    statusEl.innerHTML = f.html.status;
    for (const li of f.html.log) logEl.insertAdjacentHTML("beforeend", li);
  }
  logEl.scrollTop = logEl.scrollHeight;
  n = f.n;
  clicks.setActions(f.actions);
  clicks.setEnabled(pending === null);
  if (undoButton) undoButton.hidden = !f.undo;
  root.dataset.n = String(n);
  root.dataset.phase = f.status.phase;
  root.dataset.myTurn = String(seat !== null && f.status.to_move.includes(seat));
  // the tab says when you are asked to decide, so a player in another tab or window sees it
  document.title = f.actions.length ? _("▶ Your turn · {title}", { title: pageTitle }) : pageTitle;
  if (f.status.clock) clockOffset = f.status.clock.now - Date.now();
  // leaving (and the note that a bot plays on) only while the game runs and the seat is still its player's
  const leave = document.getElementById("zg-leave-row");
  if (leave) leave.hidden = f.status.phase !== "playing" || Boolean(seat !== null && f.seats[seat].state);
  showPresence();
  showClocks();
  hideTakenInvites();
}

// an invite link of a seat somebody took opens nothing any more: take it off the page
function hideTakenInvites() {
  const panel = document.getElementById("zg-invites");
  if (!panel) return;
  const rows = [...panel.querySelectorAll("[data-invite-row]")];
  for (const row of rows) {
    const s = frame.seats[Number(row.dataset.inviteRow)];
    if (s && s.taken) row.hidden = true;
  }
  if (rows.every((row) => row.hidden)) panel.hidden = true;
}

function settle() {
  pending = null;
  root.dataset.pending = "false";
  clicks.setEnabled(true);
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify(message));
    return true;
  }
  return false;
}

function act(actionId) {
  if (pending !== null || seat === null) return;
  showError("");
  pending = { type: "act", action: actionId, n, id: newId() };
  root.dataset.pending = "true";
  clicks.setEnabled(false);
  showActions([], []);
  if (!send(pending)) setConn("offline", _("Not connected: the move will be sent when the connection is back."));
}

function undo() {
  if (pending !== null) return;
  showError("");
  pending = { type: "undo", n, id: newId() };
  root.dataset.pending = "true";
  send(pending);
}

function onMessage(event) {
  const msg = JSON.parse(event.data);
  if (msg.type === "frame") {
    applyFrame(msg);
    if (pending && msg.ack === pending.id) settle(); // the frame that answers our move
  } else if (msg.type === "error") {
    showError(msg.message);
    if (msg.code === "seat_lost") seatLost = true; // the server closes this socket next
    if (pending && msg.id === pending.id) settle(); // a fresh frame follows
  } else if (msg.type === "ack") {
    if (pending && msg.id === pending.id) settle(); // its frame came first
  } else if (msg.type === "presence") {
    online = msg.online;
    showPresence();
  } else if (msg.type === "welcome") {
    retry = 0;
    // this page was drawn for another seat (it was opened elsewhere, or a bot plays it now): draw it again
    if (msg.seat !== seat && redraw()) return;
    setConn("online", _("Connected."));
  }
}

// Reload the page (drawn again for what this browser holds now), at most once a minute: a page whose socket
// keeps getting another seat than it was drawn for (a proxy that hides this site's address) stays as it is.
function redraw(after = 0) {
  const key = `zg-redrawn-${tableId}`;
  if (Date.now() - Number(sessionStorage.getItem(key) || 0) < 60000) return false;
  sessionStorage.setItem(key, String(Date.now()));
  setTimeout(() => location.reload(), after);
  return true;
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${scheme}//${location.host}/api/tables/${tableId}/ws`);
  setConn("connecting", retry ? _("Reconnecting…") : _("Connecting…"));
  socket.addEventListener("open", () => {
    socket.send(JSON.stringify({ type: "hello", since: n, format: "html", lang }));
    if (pending) socket.send(JSON.stringify(pending)); // same id: applied at most once
  });
  socket.addEventListener("message", onMessage);
  socket.addEventListener("close", () => {
    if (seatLost && redraw(1500)) return; // watch from now on
    setConn("offline", _("Connection lost — reconnecting…"));
    const wait = Math.min(5000, 300 * 2 ** retry);
    retry += 1;
    setTimeout(connect, wait);
  });
}

if (undoButton) undoButton.addEventListener("click", undo);

async function post(url) {
  const r = await fetch(url, { method: "POST", headers: { "X-Ziggurat": "1" } });
  if (!r.ok) showError((await r.json()).message);
}

const leaveButton = document.getElementById("zg-leave");
if (leaveButton) {
  leaveButton.addEventListener("click", () => {
    if (confirm(_("Leave this table? A bot will play your seat until the end."))) post(`/api/tables/${tableId}/leave`);
  });
}
statusEl.addEventListener("click", (event) => {
  const button = event.target.closest("[data-replace-seat]");
  if (button) post(`/api/tables/${tableId}/seats/${button.dataset.replaceSeat}/replace`);
});
if (clearButton) clearButton.addEventListener("click", () => clicks.reset());
const deviceButton = document.getElementById("zg-device");
if (deviceButton) {
  deviceButton.addEventListener("click", async () => {
    // a link that moves this seat to the other device: this browser keeps it until the link is opened there
    const r = await fetch(`/api/tables/${tableId}/link`, { method: "POST", headers: { "X-Ziggurat": "1" } });
    const body = await r.json();
    if (!r.ok) return showError(body.message);
    const input = document.getElementById("zg-device-link");
    input.value = body.url;
    input.hidden = false;
    document.getElementById("zg-device-note").hidden = false;
    input.select();
  });
}
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && (!socket || socket.readyState > WebSocket.OPEN)) connect();
});

// invite links handed over in the URL fragment when the table was created (never sent to the server)
function showInvites() {
  const params = new URLSearchParams(location.hash.slice(1));
  let any = false;
  for (const [key, token] of params) {
    const m = /^invite-(\d+)$/.exec(key);
    const input = m && document.querySelector(`[data-invite-seat="${m[1]}"]`);
    if (input) {
      input.value = `${location.origin}/join#${token}`;
      any = true;
    }
  }
  if (any) history.replaceState(null, "", location.pathname);
  const panel = document.getElementById("zg-invites");
  if (panel && panel.hasAttribute("data-unseated")) {
    // a visitor without a seat sees links only if they created the table (the links came in the fragment)
    for (const row of panel.querySelectorAll("[data-invite-row]")) row.hidden = !row.querySelector("input").value;
    panel.hidden = !any;
  }
  hideTakenInvites();
  for (const b of document.querySelectorAll("[data-copy]")) {
    b.addEventListener("click", () => {
      const input = document.querySelector(`[data-invite-seat="${b.dataset.copy}"]`);
      input.select();
      if (navigator.clipboard) navigator.clipboard.writeText(input.value).catch(() => {});
    });
  }
  for (const b of document.querySelectorAll("[data-reissue]")) {
    b.addEventListener("click", async () => {
      const r = await fetch(`/api/tables/${tableId}/seats/${b.dataset.reissue}/invite`, {
        method: "POST",
        headers: { "X-Ziggurat": "1" },
      });
      const body = await r.json();
      if (r.ok) document.querySelector(`[data-invite-seat="${b.dataset.reissue}"]`).value = body.url;
      else showError(body.message);
    });
  }
}

showInvites();
if (seat !== null) remember(tableId, root.dataset.game, seat); // the lobby's "My tables" finds it again
applyFrame(frame, true); // the page came with this frame drawn
connect();
