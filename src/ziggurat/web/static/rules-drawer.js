// The rules beside the board: a link marked data-rules-drawer opens the game's rules in a side panel
// instead of a new page, so a player reads them without leaving the table. Without this script the
// link simply opens the rules page.
const links = document.querySelectorAll("[data-rules-drawer]");
let drawer = null;
let opener = null;

function close() {
  if (!drawer) return;
  drawer.hidden = true;
  document.body.classList.remove("zg-drawer-open");
  for (const link of links) link.setAttribute("aria-expanded", "false");
  if (opener) opener.focus();
}

async function open(link) {
  opener = link;
  if (!drawer) {
    drawer = document.createElement("aside");
    drawer.className = "zg-drawer";
    drawer.id = "zg-rules-drawer";
    drawer.setAttribute("aria-label", link.dataset.drawerLabel || link.textContent.trim());
    drawer.tabIndex = -1;
    const bar = document.createElement("div");
    bar.className = "zg-drawer-bar";
    const full = document.createElement("a");
    full.href = link.href;
    full.target = "_blank";
    full.rel = "noopener";
    full.textContent = link.dataset.drawerFull || "↗";
    const shut = document.createElement("button");
    shut.type = "button";
    shut.className = "zg-drawer-close";
    shut.textContent = "×";
    shut.setAttribute("aria-label", link.dataset.drawerClose || "Close");
    shut.addEventListener("click", close);
    bar.append(full, shut);
    const body = document.createElement("div");
    body.className = "zg-drawer-body";
    drawer.append(bar, body);
    document.body.append(drawer);
    const url = new URL(link.href, location.href);
    url.pathname = url.pathname.replace(/\/?$/, "/panel");
    const r = await fetch(url);
    body.innerHTML = r.ok ? await r.text() : ""; // the server's rendering of the game's rules text
    // the contents' links scroll inside the drawer
    body.addEventListener("click", (event) => {
      const a = event.target.closest("a[href^='#']");
      if (!a) return;
      const target = body.querySelector(a.getAttribute("href"));
      if (target) {
        event.preventDefault();
        target.scrollIntoView({ block: "start" });
      }
    });
  }
  drawer.hidden = false;
  document.body.classList.add("zg-drawer-open");
  link.setAttribute("aria-controls", drawer.id);
  link.setAttribute("aria-expanded", "true");
  drawer.focus();
}

for (const link of links) {
  link.setAttribute("aria-expanded", "false");
  link.addEventListener("click", (event) => {
    if (event.ctrlKey || event.metaKey || event.shiftKey) return; // a new tab, as the person asked
    event.preventDefault();
    if (drawer && !drawer.hidden) close();
    else open(link);
  });
}
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && drawer && !drawer.hidden) close();
});
