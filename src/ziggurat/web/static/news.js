// What the other players just did: marked on the board and said to screen readers.
//
// The board is drawn again by the server after every change. Before a new board replaces the old one, every
// identified part of the old one (a card, a gem, a cube's place, a block, a segment, a space) is kept; the
// parts of the new board that are new or changed are marked (class zg-news: a glow, and a short pulse when
// the reader has not asked for reduced motion), as long as the change came from another player's move. The
// lines of the log that those moves added are written in a polite live region, for screen readers.
const IDENTITY = ["card", "slot", "place", "block", "seg", "key"];

function identity(el) {
  for (const name of IDENTITY) {
    const value = el.dataset[name];
    if (value !== undefined) return `${name}:${value}`;
  }
  return null;
}

const PARTS = "[data-card], [data-slot], [data-place], [data-block], [data-seg], [data-key]";

/** Every identified part of a board as the server drew it (its markup, not the page's), by identity. */
export function snapshot(markup) {
  const holder = document.createElement("div");
  holder.innerHTML = markup;
  const parts = new Map();
  for (const el of holder.querySelectorAll(PARTS)) {
    const id = identity(el);
    if (id !== null && !parts.has(id)) parts.set(id, el.outerHTML);
  }
  return parts;
}

/** Mark the parts of ``board`` (drawn from ``markup``) that differ from ``before``; returns how many. */
export function markChanges(board, markup, before) {
  let marked = 0;
  for (const [id, part] of snapshot(markup)) {
    if (before.get(id) === part) continue;
    const [name, value] = id.split(/:(.*)/s);
    const attr = name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    const el = board.querySelector(`[data-${attr}="${CSS.escape(value)}"]`);
    if (el && !el.closest(".zg-news")) {
      el.classList.add("zg-news");
      marked += 1;
    }
  }
  return marked;
}

/** Say the new log lines of other players' moves in ``region`` (a polite live region). */
export function announce(region, entries, lines, seat) {
  if (!region) return;
  const said = [];
  entries.forEach((entry, i) => {
    if (entry.kind === "move" && entry.seat !== seat && lines[i]) {
      const li = document.createElement("li");
      li.innerHTML = lines[i]; // built by the server from the seat's own frame (escaped there)
      said.push(li.textContent);
    }
  });
  if (said.length) region.textContent = said.join(" ");
}
