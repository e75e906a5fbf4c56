// A board that stays readable on a phone, and help that works by touch.
//
// Boards are drawn for a width of about 640 units. Shown whole on a 390-px phone, their smallest texts would
// be a few pixels high; so, on a narrow screen, the board is drawn wide enough that its smallest text (the
// server says which: data-min-font) is READABLE pixels high, and the board scrolls sideways. A button
// switches between that and the whole board at a glance, and the choice is remembered.
//
// Hover help (every part of a board has a <title>) does not exist on a touch screen: tapping or focusing a
// part of the board writes its help in a line under the board (read by screen readers too).
import { _ } from "./i18n.js";

const READABLE = 11; // px: the smallest text a person can read on a phone
const KEY = "zg-board-fit";

function wantReadable() {
  const saved = localStorage.getItem(KEY);
  return saved === null ? true : saved === "readable";
}

/** Size ``wrap``'s board for this screen (call it after every new board). */
export function fitBoard(wrap, button) {
  const svg = wrap.querySelector("svg.zg-board");
  if (!svg) return;
  const min = Number(svg.dataset.minFont);
  const width = svg.viewBox && svg.viewBox.baseVal ? svg.viewBox.baseVal.width : 0;
  svg.style.width = "";
  svg.style.maxWidth = "";
  if (!min || !width) return;
  const style = getComputedStyle(wrap);
  const available = wrap.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const needed = (width * READABLE) / min; // the board's width at which its smallest text is READABLE px
  const narrow = needed > available + 1;
  if (button) {
    button.hidden = !narrow;
    const readable = wantReadable();
    button.textContent = readable ? _("See the whole board") : _("Readable size");
    button.setAttribute("aria-pressed", String(!readable));
  }
  if (narrow && wantReadable()) {
    svg.style.width = `${Math.ceil(needed)}px`;
    svg.style.maxWidth = "none";
  }
}

/** The size button: switches between a readable board and the whole board, and remembers it. */
export function fitButton(wrap, button) {
  if (!button) return;
  button.addEventListener("click", () => {
    localStorage.setItem(KEY, wantReadable() ? "whole" : "readable");
    fitBoard(wrap, button);
  });
  window.addEventListener("resize", () => fitBoard(wrap, button));
}

/** The help of the part of the board that was tapped, clicked or focused, written in ``line``. */
export function boardHelp(wrap, line) {
  if (!line) return;
  const show = (event) => {
    let el = event.target instanceof Element ? event.target : null;
    while (el && el !== wrap) {
      const title = [...el.children].find((c) => c.tagName.toLowerCase() === "title");
      if (title && el.tagName.toLowerCase() !== "svg") {
        // a seat's page asks why a part that is no move now cannot be played (table.js) instead of its help
        if (!(el.dataset.why && event.type === "click" && line.dataset.asks === "why")) {
          line.textContent = title.textContent;
          delete line.dataset.why;
        }
        return;
      }
      el = el.parentElement;
    }
  };
  wrap.addEventListener("click", show);
  wrap.addEventListener("focusin", show);
}
