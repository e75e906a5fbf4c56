// The tutorial page: the server's board and click paths, as at a real table; each click checked by the server.
//
// The server keeps no tutorial state: this page knows which step it is at, asks the server for that
// step's board, and sends every completed click (or a click on a part of the board that makes no legal
// move) to be checked against the step. A right move brings the next step; a wrong one is answered with
// why (the engine's own words for an illegal move). The last step offers a real game against a bot.
import { BoardClicks } from "./board.js";

const root = document.getElementById("zg-tutorial");
const game = root.dataset.game;
const lang = root.dataset.lang;
const boardEl = document.getElementById("zg-board");
const sayEl = document.getElementById("zg-say");
const afterEl = document.getElementById("zg-after");
const wrongEl = document.getElementById("zg-wrong");
const nextButton = document.getElementById("zg-next");
const restartButton = document.getElementById("zg-restart");
const actionsEl = document.getElementById("zg-actions");
const clearButton = document.getElementById("zg-clear");
const logEl = document.getElementById("zg-log");
const endEl = document.getElementById("zg-end");
const scoresEl = document.getElementById("zg-scores");

let frame = JSON.parse(document.getElementById("zg-initial").textContent);
let busy = false;
let wrongs = 0; // wrong clicks at this step: after one, the expected place is ringed

const clicks = new BoardClicks(boardEl, { onAction: (id) => check({ action: id }), onChange: showActions });

function message(id) {
  return document.getElementById(id).content.textContent.trim();
}

function showWrong(text, detail) {
  wrongEl.replaceChildren();
  if (text) {
    const p = document.createElement("p");
    p.textContent = text;
    wrongEl.append(p);
  }
  if (detail) {
    const d = document.createElement("div");
    d.innerHTML = detail; // the step's hint: HTML the server rendered from the tutorial's Markdown (no raw HTML)
    wrongEl.append(d);
  }
  wrongEl.hidden = !text && !detail;
}

function showActions(candidates, path) {
  const buttons = candidates.map((a) => {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = a.text;
    b.dataset.action = String(a.id);
    b.disabled = busy;
    b.addEventListener("click", () => check({ action: a.id }));
    return b;
  });
  actionsEl.replaceChildren(...buttons);
  if (!candidates.length) {
    const p = document.createElement("span");
    p.className = "zg-muted";
    p.textContent = frame.end ? "" : message("zg-msg-nothing-to-do");
    actionsEl.replaceChildren(p);
  }
  clearButton.hidden = !path.length;
  markExpected(path);
}

// the next click of the expected move, ringed once the learner went wrong (or always on a touch screen's first try)
function markExpected(path) {
  for (const el of boardEl.querySelectorAll(".zg-expected")) el.classList.remove("zg-expected");
  const expect = frame.expect || [];
  if (!wrongs || !expect.length) return;
  if (!path.every((k, i) => expect[i] === k)) return;
  const key = expect[path.length];
  if (key === undefined) return;
  for (const el of boardEl.querySelectorAll("[data-key]")) {
    if (el.dataset.key === key) el.classList.add("zg-expected");
  }
}

// each player's score in the game's own terms (the engine's breakdown), and what applies to everyone
function showScores(f) {
  scoresEl.replaceChildren(
    ...(f.scores || []).map((s) => {
      const li = document.createElement("li");
      const total = document.createElement("strong");
      total.textContent = `${s.name}: ${s.score}`;
      const terms = document.createElement("ul");
      for (const t of s.terms) {
        const term = document.createElement("li");
        term.textContent = `${t.label}: ${t.points === null ? "?" : t.points}`;
        terms.append(term);
      }
      li.append(total, terms);
      return li;
    }),
  );
  document.getElementById("zg-score-notes").replaceChildren(
    ...(f.notes || []).map((n) => {
      const li = document.createElement("li");
      li.textContent = n;
      return li;
    }),
  );
}

function show(f, { fromCheck = false, drawn = false } = {}) {
  frame = f;
  wrongs = 0;
  if (!drawn) {
    // the page came with its first frame drawn (board, text and the log so far)
    boardEl.innerHTML = f.board;
    sayEl.innerHTML = f.say || ""; // HTML rendered by the server from the tutorial's Markdown
    for (const li of f.log) logEl.insertAdjacentHTML("beforeend", li);
  }
  logEl.scrollTop = logEl.scrollHeight;
  document.getElementById("zg-step-no").textContent = String(f.end ? f.steps : f.step + 1);
  nextButton.hidden = !f.next;
  endEl.hidden = !f.end;
  if (f.end) showScores(f);
  root.dataset.step = String(f.step);
  root.dataset.end = String(f.end);
  history.replaceState(null, "", `/learn/${game}?lang=${lang}&step=${f.step}`);
  clicks.setActions(f.actions);
  clicks.setEnabled(!busy);
  if (!fromCheck) afterEl.hidden = true;
  if (f.next) nextButton.focus({ preventScroll: true });
}

async function request(url, body) {
  const r = await fetch(url, body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = await r.json();
  if (!r.ok) throw new Error(data.message || "the server said no");
  return data;
}

async function check(body) {
  if (busy) return;
  busy = true;
  root.dataset.busy = "true";
  clicks.setEnabled(false);
  try {
    const answer = await request(`/api/learn/${game}/${frame.step}?lang=${lang}`, body);
    if (answer.ok) {
      showWrong("");
      afterEl.innerHTML = answer.after || ""; // rendered by the server from the tutorial's Markdown
      afterEl.hidden = !answer.after;
      busy = false;
      show(answer.frame, { fromCheck: true });
    } else {
      wrongs += 1;
      if (answer.kind === "illegal" && answer.why) showWrong(`${message("zg-msg-illegal")} ${answer.why}`, frame.hint);
      else if (answer.kind === "other") showWrong(message("zg-msg-other"), frame.hint || "");
      else showWrong(message(frame.next ? "zg-msg-nothing-to-do" : "zg-msg-nothing"), frame.hint);
      clicks.reset();
    }
  } catch (e) {
    showWrong(e.message);
  } finally {
    busy = false;
    root.dataset.busy = "false";
    clicks.setEnabled(true);
  }
}

// a click on a part of the board that starts no legal move: ask the server why (the rules engine knows)
boardEl.addEventListener(
  "click",
  (event) => {
    const el = event.target.closest("[data-key]");
    if (!el || busy || frame.end) return;
    const key = el.dataset.key;
    if (clicks.nextKeys().has(key) || clicks.actions.some((a) => a.path && a.path[0] === key)) return;
    if (frame.next) {
      wrongs += 1;
      showWrong(message("zg-msg-nothing-to-do"));
      return;
    }
    check({ path: [...clicks.path, key] });
  },
  true, // before BoardClicks forgets the clicks so far
);

nextButton.addEventListener("click", async () => {
  if (busy) return;
  busy = true;
  try {
    afterEl.hidden = true;
    showWrong("");
    const f = await request(`/api/learn/${game}/${frame.step + 1}?lang=${lang}`);
    busy = false;
    show(f);
  } catch (e) {
    showWrong(e.message);
  } finally {
    busy = false;
  }
});

restartButton.addEventListener("click", () => {
  location.href = `/learn/${game}?lang=${lang}`;
});
clearButton.addEventListener("click", () => clicks.reset());

// the end: a real table against the bot the tutorial names, through the same API as the lobby
document.getElementById("zg-play").addEventListener("click", async () => {
  const errorEl = document.getElementById("zg-play-error");
  errorEl.textContent = "";
  const players = Number(root.dataset.players);
  const seats = ["me", ...Array(players - 1).fill(root.dataset.bot)];
  try {
    const r = await fetch("/api/tables", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Ziggurat": "1" },
      body: JSON.stringify({ game, seats, name: localStorage.getItem("zg-name") || "Guest" }),
    });
    const created = await r.json();
    if (!r.ok) throw new Error(created.message);
    location.href = `/t/${created.id}`;
  } catch (e) {
    errorEl.textContent = e.message;
  }
});

show(frame, { drawn: true });
