// Click paths on a board drawn by the server (see ziggurat/core/svg.py).
//
// The server sends each legal action as {id, text, path}: `path` lists the
// data-key values of the board elements clicked in turn to make the action.
// This module only follows those paths: it highlights the elements that can be
// clicked next, narrows the candidates on each click and reports the action
// once a path is complete. It knows no rules of any game. A part of the board that is no move now may say
// which move it would be (data-why="<action text>"): clicking it asks why not (onWhy).

export class BoardClicks {
  /**
   * @param {Element} root element holding the board (event delegation)
   * @param {{onAction: (id: number) => void, onChange?: (candidates: object[], path: string[]) => void,
   *          onWhy?: (text: string) => void}} handlers
   */
  constructor(root, handlers) {
    this.root = root;
    this.onAction = handlers.onAction;
    this.onChange = handlers.onChange || (() => {});
    this.onWhy = handlers.onWhy || (() => {});
    this.actions = [];
    this.path = [];
    this.enabled = true;
    root.addEventListener("click", (event) => {
      const el = event.target.closest("[data-key], [data-why]");
      if (!el || !root.contains(el)) {
        if (this.path.length) this.reset();
        return;
      }
      const key = el.dataset.key;
      if (key && this.clickable(key)) this.click(key);
      else {
        if (this.path.length) this.reset();
        if (el.dataset.why && this.enabled) this.onWhy(el.dataset.why);
      }
    });
    root.addEventListener("keydown", (event) => {
      const el = event.target.closest && event.target.closest("[data-key]");
      if (el && (event.key === "Enter" || event.key === " ")) {
        event.preventDefault();
        this.click(el.dataset.key);
      } else if (event.key === "Escape") {
        this.reset();
      }
    });
  }

  /** New legal actions (after every frame); a half-built move is kept while it can still be finished. */
  setActions(actions) {
    const path = this.path;
    this.actions = actions || [];
    const stillOpen = this.actions.some(
      (a) => a.path && a.path.length > path.length && path.every((k, i) => a.path[i] === k),
    );
    this.path = stillOpen ? path : [];
    this.refresh();
  }

  /** Allow or stop clicks (e.g. while a move is on its way). */
  setEnabled(enabled) {
    this.enabled = enabled;
    this.refresh();
  }

  reset() {
    this.path = [];
    this.refresh();
  }

  /** Actions whose path starts with the clicks so far. */
  candidates() {
    const path = this.path;
    return this.actions.filter(
      (a) => a.path && a.path.length > path.length - 1 && path.every((k, i) => a.path[i] === k),
    );
  }

  nextKeys() {
    const depth = this.path.length;
    const keys = new Set();
    for (const a of this.candidates()) if (a.path.length > depth) keys.add(a.path[depth]);
    return keys;
  }

  /** Whether clicking ``key`` continues or starts a move now. */
  clickable(key) {
    return this.nextKeys().has(key) || this.actions.some((a) => a.path && a.path[0] === key);
  }

  click(key) {
    if (!this.enabled) return;
    if (this.nextKeys().has(key)) {
      this.path = [...this.path, key];
    } else if (this.actions.some((a) => a.path && a.path[0] === key)) {
      this.path = [key]; // start again from another element
    } else {
      this.reset();
      return;
    }
    const done = this.candidates().filter((a) => a.path.length === this.path.length);
    if (done.length === 1 && this.candidates().length === 1) {
      const id = done[0].id;
      this.path = [];
      this.refresh();
      this.onAction(id);
      return;
    }
    this.refresh();
  }

  refresh() {
    const next = this.enabled ? this.nextKeys() : new Set();
    const chosen = new Set(this.path);
    for (const el of this.root.querySelectorAll("[data-key]")) {
      const key = el.dataset.key;
      const legal = next.has(key);
      el.classList.toggle("zg-legal", legal);
      el.classList.toggle("zg-selected", chosen.has(key));
      if (legal) {
        el.setAttribute("tabindex", "0");
        el.setAttribute("role", "button");
      } else {
        el.removeAttribute("tabindex");
        el.removeAttribute("role");
      }
    }
    this.onChange(this.candidates(), this.path);
  }
}
