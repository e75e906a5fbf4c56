// What the scripts show, in the page's language: the catalog comes with the page as a JSON data
// block (id "zg-i18n", written by ziggurat/web/i18n.py from the same gettext catalogs as the pages).
//
//   _("Connected.")                               a message
//   _("step {k} of {n}", { k: 3, n: 40 })         with {name} placeholders filled after the lookup
//   ngettext("{n} player", "{n} players", count)  the form that suits the number ({n} is filled)
//
// Only calls with literal texts are found by the catalog's extraction (Babel), so never build a message.
function load() {
  const el = document.getElementById("zg-i18n");
  if (!el) return {};
  try {
    return JSON.parse(el.textContent);
  } catch {
    return {};
  }
}

const data = load();
const messages = data.messages || {};
const plurals = data.plurals || {};

/** The page's language (its <html lang>). */
export const lang = data.lang || document.documentElement.lang || "en";

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** ``message`` in the page's language, its {placeholders} filled from ``params``. */
export function _(message, params) {
  return fill(messages[message] || message, params);
}

/** The singular or plural form for ``n`` (both languages of the site have one and other), translated. */
export function ngettext(singular, plural, n, params) {
  const forms = plurals[singular];
  const index = n === 1 ? 0 : 1;
  const text = forms ? forms[Math.min(index, forms.length - 1)] : index === 0 ? singular : plural;
  return fill(text, { n, ...params });
}
