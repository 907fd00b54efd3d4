// kingsolve analysis board: plain JavaScript over the JSON API, no build step.
// The server is the only judge of the rules: the board asks /legal for the cards a seat
// may play and /solve for their values, and only lays out what they answer.
"use strict";

(() => {
  const SEATS = ["N", "E", "S", "W"];
  const SUITS = ["S", "H", "D", "C"];
  const SYMBOL = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  const SUIT_NAME = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
  const RANKS = "AKQJT98765432";
  const RANK_NAME = { A: "ace", K: "king", Q: "queen", J: "jack", T: "ten" };
  const SEAT_NAME = { N: "North", E: "East", S: "South", W: "West" };
  const SEAT_COLOUR = { N: "#1565c0", E: "#c62828", S: "#2e7d32", W: "#8e24aa" };
  const SOLVE_MS = 10000;   // a person waits this long for values at most (the server may cap it lower)

  const $ = (id) => document.getElementById(id);
  const el = (tag, attrs = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (v !== false && v !== null && v !== undefined) node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children) if (c !== null && c !== undefined) node.append(c);
    return node;
  };
  const svg = (tag, attrs = {}) => {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    return node;
  };

  const state = {
    variants: null,     // GET /api/v1/variants
    hands: null,        // seat -> list of cards (null: not in play), from the deal text
    holder: {},         // card -> seat
    play: [],           // cards played so far
    redo: [],           // cards undone, last undone at the end
    legal: null,        // the /legal answer for the current play
    solved: new Map(),  // play key -> /solve answer (this deal and setup only)
    token: 0,           // the latest refresh; older answers are dropped
  };

  // --- the API ---------------------------------------------------------------------
  async function api(method, path, body) {
    const opts = { method, headers: { Accept: "application/json" } };
    if (body !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    let resp;
    try {
      resp = await fetch(path, opts);
    } catch (err) {
      return { ok: false, status: 0, body: { error: "network", message: "the server cannot be reached" } };
    }
    let data;
    try {
      data = await resp.json();
    } catch (err) {
      data = { error: "http", message: `the server answered HTTP ${resp.status}` };
    }
    return { ok: resp.ok, status: resp.status, body: data };
  }

  function say(text, kind = "") {
    const m = $("message");
    m.textContent = text;
    m.className = kind;
  }

  // --- set-up ------------------------------------------------------------------------
  const variant = () => state.variants[$("variant").value];
  const contract = () => variant().contracts[$("contract").value];

  function fillSelect(select, items, keep) {
    const old = keep ?? select.value;
    select.replaceChildren(...items.map(([value, label]) => el("option", { value, text: label })));
    if (items.some(([value]) => value === old)) select.value = old;
  }

  function onVariant() {
    const v = variant();
    fillSelect($("contract"), Object.keys(v.contracts).map((n) => [n, n]));
    fillSelect($("players"), v.players.map((p) => [String(p), String(p)]), String(Math.max(...v.players)));
    $("doubles").disabled = !v.doubles;
    if (!v.doubles) $("doubles").checked = false;
    onContract();
  }

  function onContract() {
    const c = contract();
    const suits = SUITS.map((s) => [s, `${SYMBOL[s]} ${SUIT_NAME[s]}`]);
    let items = [["", "none"]];
    if (c.trump === "named") items = suits;
    else if (c.trump === "named-or-none") items = items.concat(suits);
    fillSelect($("trump"), items);
    $("trump").disabled = c.trump === "none" || c.trump === undefined;
    $("options").replaceChildren(...(c.options || []).map((o) =>
      el("label", { class: "check" }, el("input", { type: "checkbox", name: "option", value: o }), ` ${o}`)));
  }

  function setup() {
    return {
      variant: $("variant").value,
      contract: $("contract").value,
      trump: $("trump").value || null,
      options: [...document.querySelectorAll("input[name=option]:checked")].map((i) => i.value),
      doubles: $("doubles").checked,
      deal: $("deal").value.trim(),
      leader: $("leader").value,
    };
  }

  function parseDeal(text) {
    let body = text.trim();
    let first = "N";
    if (/^[NESW]:/i.test(body)) {
      first = body[0].toUpperCase();
      body = body.slice(2);
    }
    const parts = body.split(/\s+/);
    const hands = {};
    parts.forEach((part, i) => {
      const seat = SEATS[(SEATS.indexOf(first) + i) % 4];
      if (part === "-") { hands[seat] = null; return; }
      hands[seat] = [];
      part.split(".").forEach((ranks, k) => {
        for (const r of ranks.toUpperCase().replace(/10/g, "T")) hands[seat].push(SUITS[k] + r);
      });
    });
    return hands;
  }

  function newDeal() {
    state.play = [];
    state.redo = [];
    state.solved = new Map();
    state.hands = null;
    refresh();
  }

  async function randomDeal() {
    const params = new URLSearchParams({ deck: variant().deck, players: $("players").value });
    const seed = $("seed").value.trim();
    if (seed) params.set("seed", seed);
    const r = await api("GET", `/api/v1/deal?${params}`);
    if (!r.ok) { say(`Cannot deal: ${r.body.message}`, "error"); return; }
    $("deal").value = r.body.deal;
    $("seed").placeholder = `last: ${r.body.seed}`;
    newDeal();
  }

  // --- play ---------------------------------------------------------------------------
  function playCard(card) {
    state.play.push(card);
    if (state.redo.length && state.redo[state.redo.length - 1] === card) state.redo.pop();
    else state.redo = [];
    refresh(true);
  }

  function undo() {
    if (!state.play.length) return;
    state.redo.push(state.play.pop());
    refresh(true);
  }

  function redo() {
    if (!state.redo.length) return;
    state.play.push(state.redo.pop());
    refresh(true);
  }

  const key = (play) => play.join(" ");

  async function refresh(keepFocus = false) {
    const token = ++state.token;
    const req = { ...setup(), play: state.play };
    saveHash(req);
    if (!req.deal) { say("Paste a deal or make a random one."); return; }
    say("Reading the position\u2026", "busy");
    const r = await api("POST", "/api/v1/legal", req);
    if (token !== state.token) return;
    if (!r.ok) {
      state.legal = null;
      if (state.play.length && r.body.error === "illegal-play") state.play.pop();
      render();
      say(`Cannot show this position: ${r.body.message}`, "error");
      return;
    }
    state.legal = r.body;
    state.hands = parseDeal(req.deal);
    state.holder = {};
    for (const seat of SEATS) for (const c of state.hands[seat] || []) state.holder[c] = seat;
    render(keepFocus);
    if (r.body.complete) { say("The hand is complete."); return; }
    await solve(req, token, keepFocus);
  }

  async function solve(req, token, keepFocus) {
    const k = key(req.play);
    if (!state.solved.has(k)) {
      say(`Solving for ${SEAT_NAME[state.legal.to_move]}\u2026`, "busy");
      const r = await api("POST", "/api/v1/solve", { ...req, ms: SOLVE_MS });
      if (token !== state.token) {
        if (r.ok) state.solved.set(k, r.body);
        return;
      }
      if (!r.ok) {
        say(`Values unavailable: ${r.body.message}. The legal cards are outlined; click one to play it.`,
          "error");
        return;
      }
      state.solved.set(k, r.body);
    }
    render(keepFocus);
    const s = state.solved.get(k);
    const best = s.best.map(pretty).join(", ");
    say(`${SEAT_NAME[s.to_move]} to play: best ${best} (guaranteed ${s.values[s.to_move]}).`);
  }

  // --- drawing ------------------------------------------------------------------------
  function pretty(card) {
    return SYMBOL[card[0]] + (card[1] === "T" ? "10" : card[1]);
  }

  function spoken(card) {
    const r = card[1];
    return `${RANK_NAME[r] || r} of ${SUIT_NAME[card[0]]}`;
  }

  function valueColour(v, lo, hi) {
    const t = hi === lo ? 1 : (v - lo) / (hi - lo);
    return `hsl(${Math.round(120 * t)}, 62%, 36%)`;
  }

  function render(keepFocus = false) {
    const hadCardFocus = keepFocus || (document.activeElement && document.activeElement.classList.contains("card"));
    const legal = state.legal;
    const solved = legal ? state.solved.get(key(state.play)) : null;
    const played = new Set(state.play);
    const legalSet = new Set(legal && !legal.complete ? legal.legal : []);
    const values = solved ? Object.values(solved.cards) : [];
    const lo = Math.min(...values), hi = Math.max(...values);

    for (const seat of SEATS) {
      const box = $(`seat-${seat}`);
      const hand = state.hands ? state.hands[seat] : undefined;
      const onMove = legal && legal.to_move === seat && !legal.complete;
      box.classList.toggle("on-move", Boolean(onMove));
      box.classList.toggle("out", hand === null);
      const head = el("div", { class: "seat-head" }, el("span", { text: SEAT_NAME[seat] + (onMove ? " \u25cf" : "") }));
      if (solved && solved.values[seat] !== undefined) {
        head.append(el("span", { class: "value", title: "value this seat can guarantee",
          text: `guarantees ${solved.values[seat]}` }));
      }
      box.replaceChildren(head);
      box.setAttribute("aria-label", `${SEAT_NAME[seat]}'s hand${onMove ? ", on move" : ""}`);
      if (hand === null) { box.append(el("div", { class: "centre-note", text: "not in play" })); continue; }
      if (!hand) continue;
      for (const suit of SUITS) {
        const row = el("div", { class: "suit-row" }, el("span", { class: `suit-sym s-${suit}`, text: SYMBOL[suit], "aria-hidden": "true" }));
        const cards = hand.filter((c) => c[0] === suit && !played.has(c))
          .sort((a, b) => RANKS.indexOf(a[1]) - RANKS.indexOf(b[1]));
        for (const card of cards) {
          const isLegal = onMove && legalSet.has(card);
          const value = solved && isLegal ? solved.cards[card] : undefined;
          const b = el("button", {
            type: "button", class: `card s-${suit}`, "data-card": card, disabled: !isLegal,
            "aria-label": spoken(card) + (value !== undefined ? `, value ${value}` : ""),
          }, el("span", { text: card[1] === "T" ? "10" : card[1] }));
          if (isLegal) {
            b.classList.add("legal");
            b.addEventListener("click", () => playCard(card));
            if (value !== undefined) {
              b.classList.add("valued");
              b.style.background = valueColour(value, lo, hi);
              b.append(el("span", { class: "val", text: String(value) }));
              if (solved.best.includes(card)) b.classList.add("best");
            }
          }
          row.append(b);
        }
        box.append(row);
      }
    }
    renderCentre();
    renderScores();
    renderHistory();
    renderChart();
    $("undo").disabled = !state.play.length;
    $("redo").disabled = !state.redo.length;
    if (hadCardFocus) {
      const target = document.querySelector(".card.best:not(:disabled)") || document.querySelector(".card:not(:disabled)");
      if (target) target.focus();
    }
  }

  function renderCentre() {
    const centre = $("centre");
    centre.replaceChildren();
    const legal = state.legal;
    if (!legal) return;
    if (legal.layout) {     // domino: the runs laid out in each suit
      const grid = el("div", { class: "layout" });
      for (const suit of SUITS) {
        const run = legal.layout[suit];
        grid.append(el("span", { class: `s-${suit}`, text: SYMBOL[suit] }),
          el("span", { text: run ? `${run[0]} \u2026 ${run[1]}` : "\u2014" }));
      }
      centre.append(grid);
      return;
    }
    // An empty trick shows the last one, faded, until the next lead.
    const size = SEATS.filter((s) => state.hands[s]).length;
    const shown = legal.trick.length || !state.play.length ? legal.trick : state.play.slice(-size);
    const last = shown !== legal.trick;
    shown.forEach((card, i) => {
      const seat = state.holder[card];
      centre.append(el("div", { class: `played ${seat}${i === 0 ? " lead" : ""}${last ? " last" : ""} s-${card[0]}` },
        pretty(card), el("small", { text: seat })));
    });
    if (legal.complete) centre.append(el("div", { class: "centre-note", text: "Hand complete" }));
    else if (!legal.trick.length) {
      centre.append(el("div", { class: "centre-note", text: `${SEAT_NAME[legal.to_move]} to lead` }));
    }
  }

  function renderScores() {
    const legal = state.legal;
    if (!legal) { $("scores").textContent = ""; return; }
    const parts = Object.entries(legal.taken).map(([s, v]) => `${s} ${v}`);
    let text = `Taken: ${parts.join(" \u00b7 ")}`;
    if (legal.sides) text += ` (sides: ${Object.entries(legal.sides).map(([s, v]) => `${s} ${v}`).join(", ")})`;
    $("scores").textContent = text;
  }

  function trickWinner(cards) {
    const trump = $("trump").value;
    let win = cards[0];
    for (const c of cards.slice(1)) {
      const beatsSuit = c[0] === win[0] && RANKS.indexOf(c[1]) < RANKS.indexOf(win[1]);
      const ruffs = trump && c[0] === trump && win[0] !== trump;
      if (beatsSuit || ruffs) win = c;
    }
    return state.holder[win];
  }

  function renderHistory() {
    const list = $("history");
    list.replaceChildren();
    if (!state.legal || !state.hands) return;
    if (state.legal.layout) {
      state.play.forEach((c) => list.append(el("li", { text: `${state.holder[c]} ${pretty(c)}` })));
      return;
    }
    const size = SEATS.filter((s) => state.hands[s]).length;
    for (let start = 0; start < state.play.length; start += size) {
      const cards = state.play.slice(start, start + size);
      const done = cards.length === size;
      const next = state.play[start + size];
      const winner = !done ? null : next ? state.holder[next] : trickWinner(cards);
      const li = el("li");
      cards.forEach((c, i) => {
        const seat = state.holder[c];
        li.append(el("span", { class: seat === winner ? "winner" : "", text: `${seat} ${pretty(c)}` }),
          i < cards.length - 1 ? ", " : "");
      });
      if (winner) li.append(` \u2192 ${winner}`);
      list.append(li);
    }
    list.scrollTop = list.scrollHeight;
  }

  function renderChart() {
    const chart = $("chart");
    chart.replaceChildren();
    if (!state.hands) return;
    const line = state.play.concat([...state.redo].reverse());
    const total = SEATS.reduce((n, s) => n + (state.hands[s] ? state.hands[s].length : 0), 0) || 1;
    const points = {};
    let lo = 0, hi = 0;
    for (let i = 0; i <= line.length; i++) {
      const s = state.solved.get(key(line.slice(0, i)));
      if (!s) continue;
      for (const [seat, v] of Object.entries(s.values)) {
        (points[seat] = points[seat] || []).push([i, v]);
        lo = Math.min(lo, v); hi = Math.max(hi, v);
      }
    }
    if (hi === lo) hi = lo + 1;
    const W = 400, H = 200, L = 34, R = 8, T = 10, B = 22;
    const x = (i) => L + (W - L - R) * i / total;
    const y = (v) => T + (H - T - B) * (hi - v) / (hi - lo);
    const size = SEATS.filter((s) => state.hands[s]).length;
    for (let i = 0; i <= total; i += size) {
      chart.append(svg("line", { class: "grid", x1: x(i), x2: x(i), y1: T, y2: H - B }));
    }
    for (const v of [lo, (lo + hi) / 2, hi].map((v) => Math.round(v))) {
      chart.append(svg("line", { class: "grid", x1: L, x2: W - R, y1: y(v), y2: y(v) }));
      const label = svg("text", { x: L - 4, y: y(v) + 3, "text-anchor": "end" });
      label.textContent = v;
      chart.append(label);
    }
    chart.append(svg("line", { class: "axis", x1: L, x2: L, y1: T, y2: H - B }));
    chart.append(svg("line", { class: "axis", x1: L, x2: W - R, y1: y(0), y2: y(0) }));
    const xl = svg("text", { x: W - R, y: H - 6, "text-anchor": "end" });
    xl.textContent = "cards played";
    chart.append(xl);
    chart.append(svg("line", { class: "now", x1: x(state.play.length), x2: x(state.play.length), y1: T, y2: H - B }));
    let lx = L + 6;
    for (const seat of SEATS) {
      const pts = points[seat];
      if (!pts) continue;
      chart.append(svg("polyline", { points: pts.map(([i, v]) => `${x(i)},${y(v)}`).join(" "), fill: "none",
        stroke: SEAT_COLOUR[seat], "stroke-width": 2, "data-seat": seat }));
      for (const [i, v] of pts) chart.append(svg("circle", { cx: x(i), cy: y(v), r: 2.5, fill: SEAT_COLOUR[seat] }));
      const legend = svg("text", { x: lx, y: H - 6, fill: SEAT_COLOUR[seat], style: `fill:${SEAT_COLOUR[seat]};font-weight:bold` });
      legend.textContent = seat;
      chart.append(legend);
      lx += 16;
    }
  }

  // --- the address bar keeps the position, so a link reopens it ---------------------
  function saveHash(req) {
    const p = new URLSearchParams({ variant: req.variant, contract: req.contract, leader: req.leader, deal: req.deal });
    if (req.trump) p.set("trump", req.trump);
    if (req.doubles) p.set("doubles", "1");
    if (req.options.length) p.set("options", req.options.join(","));
    if (req.play.length) p.set("play", req.play.join(","));
    history.replaceState(null, "", `#${p}`);
  }

  function loadHash() {
    const p = new URLSearchParams(location.hash.slice(1));
    if (p.get("variant") in state.variants) { $("variant").value = p.get("variant"); onVariant(); }
    if (p.get("contract") in variant().contracts) { $("contract").value = p.get("contract"); onContract(); }
    if (p.get("trump")) $("trump").value = p.get("trump");
    if (p.get("leader")) $("leader").value = p.get("leader");
    $("doubles").checked = p.get("doubles") === "1" && !$("doubles").disabled;
    for (const o of (p.get("options") || "").split(",")) {
      const box = document.querySelector(`input[name=option][value="${CSS.escape(o)}"]`);
      if (box) box.checked = true;
    }
    if (p.get("deal")) $("deal").value = p.get("deal");
    state.play = (p.get("play") || "").split(",").filter(Boolean);
    return Boolean(p.get("deal"));
  }

  // --- start ------------------------------------------------------------------------------
  async function start() {
    fillSelect($("leader"), SEATS.map((s) => [s, SEAT_NAME[s]]), "N");
    const r = await api("GET", "/api/v1/variants");
    if (!r.ok) { say(`Cannot load the rule sets: ${r.body.message}`, "error"); return; }
    state.variants = r.body;
    fillSelect($("variant"), Object.keys(r.body).map((n) => [n, n]), "italian");
    onVariant();
    $("variant").addEventListener("change", () => { onVariant(); newDeal(); });
    $("contract").addEventListener("change", () => { onContract(); newDeal(); });
    for (const id of ["trump", "leader", "doubles"]) $(id).addEventListener("change", newDeal);
    $("options").addEventListener("change", newDeal);
    $("setup").addEventListener("submit", (e) => { e.preventDefault(); newDeal(); });
    $("random").addEventListener("click", randomDeal);
    $("undo").addEventListener("click", undo);
    $("redo").addEventListener("click", redo);
    document.addEventListener("keydown", (e) => {
      if (e.ctrlKey || e.metaKey || e.altKey || e.target.closest("input, select, textarea")) return;
      if (e.key === "u") { e.preventDefault(); undo(); }
      else if (e.key === "r") { e.preventDefault(); redo(); }
    });
    window.addEventListener("hashchange", () => {
      state.redo = [];
      state.solved = new Map();
      if (loadHash()) refresh();
    });
    if (loadHash()) refresh();
    else randomDeal();
  }

  document.addEventListener("DOMContentLoaded", start);
})();
