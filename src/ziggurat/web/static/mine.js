// "My tables" for a guest: the tables this browser sits at, kept in this browser (localStorage), so that a
// guest who goes back to the lobby finds their table again. Only ids and seats are kept: the seat itself is
// proven by the seat's cookie, never by this list. An account's tables come from the server on any device.
const KEY = "zg-my-tables";
const LIMIT = 20;

/** The tables remembered here, newest first: [{id, game, seat, at}]. */
export function remembered() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(list) ? list.filter((t) => t && typeof t.id === "string" && /^[a-z0-9]{1,32}$/.test(t.id)) : [];
  } catch {
    return [];
  }
}

function save(list) {
  try {
    localStorage.setItem(KEY, JSON.stringify(list.slice(0, LIMIT)));
  } catch {
    // a browser that keeps nothing (private mode, full storage): the list is only for convenience
  }
}

/** Remember that this browser sits at ``id`` (the table page calls it). */
export function remember(id, game, seat) {
  save([{ id, game, seat, at: Date.now() }, ...remembered().filter((t) => t.id !== id)]);
}

/** Forget a table (gone from the server, or the person said so). */
export function forget(id) {
  save(remembered().filter((t) => t.id !== id));
}
