// kingsolve's board texts in the players' languages: one catalogue a language, a JSON
// file in /static/i18n/ (keys starting with "_" are notes, never shown). A text missing
// from a catalogue falls back to English; the language follows the browser's until the
// menu chooses one, which is remembered.
"use strict";

window.KingsolveI18n = (() => {
  const LANGUAGES = { en: "English", it: "Italiano", pt: "Português", tr: "Türkçe", ru: "Русский" };
  const KEPT = "kingsolve-language";     // localStorage: the language the menu chose
  let english = {};
  let catalogue = {};
  let language = "en";

  function browserLanguage() {
    let kept = null;
    try { kept = localStorage.getItem(KEPT); } catch (err) { /* private mode */ }
    if (kept in LANGUAGES) return kept;
    for (const tag of navigator.languages || [navigator.language || "en"]) {
      const code = String(tag).slice(0, 2).toLowerCase();
      if (code in LANGUAGES) return code;
    }
    return "en";
  }

  async function fetchCatalogue(code) {
    const r = await fetch(`/static/i18n/${code}.json`, { cache: "no-cache" });
    if (!r.ok) throw new Error(`catalogue ${code}: HTTP ${r.status}`);
    return r.json();
  }

  async function load(code = browserLanguage()) {
    if (!Object.keys(english).length) english = await fetchCatalogue("en");
    catalogue = code === "en" ? english : await fetchCatalogue(code);
    language = code;
    document.documentElement.lang = code;
    return code;
  }

  function remember(code) {
    try { localStorage.setItem(KEPT, code); } catch (err) { /* private mode */ }
  }

  // The text of `key` with its {name} fields filled in from `params`.
  function t(key, params = {}) {
    const text = catalogue[key] ?? english[key] ?? key;
    return text.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
  }

  // A text the API names in English (a level's name): the catalogue's, else the English.
  function named(prefix, name) {
    const key = `${prefix}.${name}`;
    return catalogue[key] ?? english[key] ?? name;
  }

  // Every element of the page that names its text's key: data-i18n (its text),
  // data-i18n-aria (its aria-label), data-i18n-title (its title).
  function apply(root = document) {
    for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
    for (const node of root.querySelectorAll("[data-i18n-aria]")) node.setAttribute("aria-label", t(node.dataset.i18nAria));
    for (const node of root.querySelectorAll("[data-i18n-title]")) node.title = t(node.dataset.i18nTitle);
  }

  // The pages' language menu: each language in its own name, the page's chosen. A
  // choice is remembered, loaded and applied, then `redraw` draws what the page builds.
  function menu(select, redraw) {
    select.replaceChildren(...Object.entries(LANGUAGES).map(([code, name]) => new Option(name, code)));
    select.value = language;
    select.addEventListener("change", async () => {
      remember(select.value);
      await load(select.value);
      apply();
      redraw();
    });
  }

  return { LANGUAGES, load, remember, t, named, apply, menu, get language() { return language; } };
})();
