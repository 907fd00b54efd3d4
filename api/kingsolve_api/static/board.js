// kingsolve analysis board: plain JavaScript over the JSON API, no build step.
// The server is the only judge of the rules: the board asks /legal for the cards a seat
// may play and /solve/stream for their values, and only lays out what they answer.
// The stream sends estimates at once, then proved ranges and exact values as the
// analysis improves; a new position aborts it, which stops the analysis on the server.
"use strict";

(() => {
  const SEATS = ["N", "E", "S", "W"];
  const SUITS = ["S", "H", "D", "C"];
  const SYMBOL = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  const RANKS = "AKQJT98765432";
  const SEAT_COLOUR = { N: "#1565c0", E: "#c62828", S: "#2e7d32", W: "#8e24aa" };
  // In doubles a seat's value is its side's (docs/rules.md 11): each side's is shown
  // once, on the side's first seat.
  const SIDE = { N: "N+S", S: "N+S", E: "E+W", W: "E+W" };
  const SIDE_SEAT = { N: "N", S: "N", E: "E", W: "E" };
  const SOLVE_MS = 10000;   // an analysis improves this long at most (the server may cap it lower)
  const REVIEW_LAST = 3;    // tricks a review covers by default: full-hand searches are still slow

  const $ = (id) => document.getElementById(id);
  const { el } = window.KingsolveDom;
  const I = window.KingsolveI18n;
  const { t } = I;
  const seatName = (seat) => t(`seat.${seat}`);
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
    answers: new Map(), // play key -> latest analysis (this deal and setup only), final once its stream ended
    stream: null,       // the AbortController of the running analysis stream
    token: 0,           // the latest refresh; older answers are dropped
    review: null,       // the /review answer being stepped through, with byIndex: index -> card review
    doubles: false,     // the position on the board is played in doubles: values are the sides'
    tip: null,          // the card whose value the tip shows, null when hidden
    tipBy: null,        // what showed it: hover, focus or tap
    house: null,        // house rules in use: {document, source, rules, base, differences} (POST /variants/check)
    line: null,         // the best line shown: {base: the play it starts from, line: /solve's line, ends, shown}
    seed: null,         // the seed of the last random deal
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
      return { ok: false, status: 0, body: { error: "network", message: t("error.network") } };
    }
    let data;
    try {
      data = await resp.json();
    } catch (err) {
      data = { error: "http", message: t("board.error.http", { status: resp.status }) };
    }
    return { ok: resp.ok, status: resp.status, body: data };
  }

  // POST a solve request to /solve/stream and call onEvent(name, data) for each event
  // ("message": an analysis, "done", "error"). EventSource cannot POST, so the stream
  // is read from fetch; aborting ``signal`` closes the connection, and the server then
  // stops the analysis.
  async function streamAnalysis(body, signal, onEvent) {
    const resp = await fetch("/api/v1/solve/stream", {
      method: "POST", signal, body: JSON.stringify(body),
      headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
    });
    if (!resp.ok) {
      let data;
      try { data = await resp.json(); } catch (err) { data = { message: t("board.error.http", { status: resp.status }) }; }
      onEvent("error", data);
      return;
    }
    const reader = resp.body.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      text += value;
      let end;
      while ((end = text.indexOf("\n\n")) >= 0) {
        let name = "message", data = "";
        for (const line of text.slice(0, end).split("\n")) {
          if (line.startsWith("event: ")) name = line.slice(7);
          else if (line.startsWith("data: ")) data += line.slice(6);
        }
        text = text.slice(end + 2);
        if (data) onEvent(name, JSON.parse(data));      // comment lines only keep the stream alive
      }
    }
  }

  function stopAnalysis() {
    if (state.stream) state.stream.abort();
    state.stream = null;
  }

  function say(text, kind = "") {
    const m = $("message");
    m.textContent = text;
    m.className = kind;
  }

  // --- set-up ------------------------------------------------------------------------
  // House rules sit in the rule-set list beside the built-ins under a value no built-in
  // name can take (names are lower-case letters, digits and '-').
  const HOUSE = "*house";
  const variant = () => ($("variant").value === HOUSE ? state.house.rules : state.variants[$("variant").value]);
  // What a request names as its rule set: a built-in's name, or the house rules' document.
  const requestVariant = () => ($("variant").value === HOUSE ? state.house.document : $("variant").value);
  const contract = () => variant().contracts[$("contract").value];

  function fillSelect(select, items, keep) {
    const old = keep ?? select.value;
    select.replaceChildren(...items.map(([value, label]) => el("option", { value, text: label })));
    if (items.some(([value]) => value === old)) select.value = old;
  }

  function onVariant() {
    const v = variant();
    fillSelect($("contract"), Object.keys(v.contracts).map((n) => [n, I.named("contract", n)]));
    fillSelect($("players"), v.players.map((p) => [String(p), String(p)]), String(Math.max(...v.players)));
    $("doubles").disabled = !v.doubles;
    if (!v.doubles) $("doubles").checked = false;
    onContract();
  }

  function onContract() {
    fillTrump();
    fillOptions([]);
  }

  function fillTrump() {
    const c = contract();
    const suits = SUITS.map((s) => [s, `${SYMBOL[s]} ${t(`suit.${s}`)}`]);
    let items = [["", t("board.trump.none")]];
    if (c.trump === "named") items = suits;
    else if (c.trump === "named-or-none") items = items.concat(suits);
    fillSelect($("trump"), items);
    $("trump").disabled = c.trump === "none" || c.trump === undefined;
  }

  // The contract's options as check boxes, those named in `checked` ticked.
  function fillOptions(checked) {
    $("options").replaceChildren(...(contract().options || []).map((o) => el("label", { class: "check" },
      el("input", { type: "checkbox", name: "option", value: o, checked: checked.includes(o) }),
      ` ${I.named("board.option", o)}`)));
  }

  function setup() {
    return {
      variant: requestVariant(),
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
    leaveReview();
    leaveLine(false);
    state.play = [];
    state.redo = [];
    state.answers = new Map();
    state.hands = null;
    refresh();
  }

  // A new rule set keeps the deal when it fits the set's deck, else deals a new one.
  function dealDeck(text) {
    return /[2-6]/.test(text.trim().replace(/^[NESW]:/i, "")) ? 52 : 32;
  }

  function onNewVariant() {
    onVariant();
    const deal = $("deal").value.trim();
    if (deal && dealDeck(deal) !== variant().deck) randomDeal();
    else newDeal();
  }

  async function randomDeal() {
    stopAnalysis();
    const params = new URLSearchParams({ deck: variant().deck, players: $("players").value });
    const seed = $("seed").value.trim();
    if (seed) params.set("seed", seed);
    const token = state.token;
    const r = await api("GET", `/api/v1/deal?${params}`);
    if (token !== state.token) return;      // a review (or another position) came first
    if (!r.ok) { say(t("board.error.deal", { message: r.body.message }), "error"); return; }
    $("deal").value = r.body.deal;
    state.seed = r.body.seed;
    showSeed();
    newDeal();
  }

  // The seed of the last random deal, in the seed field's placeholder.
  function showSeed() {
    $("seed").placeholder = state.seed === null ? t("board.seed.random") : t("board.seed.last", { seed: state.seed });
  }

  // --- house rules: a rule document of the user's, checked by the server -------------
  const HOUSE_KEPT = "kingsolve-house-rules";   // localStorage: a reload keeps the house rules
  // A rule document's field in words: the catalogue's (board.field.<name>), else its name.
  function fieldWords(field) {
    const words = t(`board.field.${field}`);
    return words === `board.field.${field}` ? field.replace(/_/g, " ") : words;
  }

  function fillVariants(keep) {
    const items = Object.keys(state.variants).map((n) => [n, I.named("variant", n)]);
    if (state.house) {
      items.push([HOUSE, t("board.house.item", { base: `${state.house.base}${state.house.differences.length ? "+" : ""}` })]);
    }
    fillSelect($("variant"), items, keep);
  }

  // Check a rule document's text with the server and, when it is playable, make it the
  // board's rule set: every request then carries it in place of a variant name.
  async function useRules(text, source, quiet = false) {
    let document;
    try {
      document = JSON.parse(text);
    } catch (err) {
      if (!quiet) say(t("board.rules.not-json"), "error");
      return false;
    }
    const r = await api("POST", "/api/v1/variants/check", document);
    if (!r.ok) {
      if (!quiet) say(t("board.rules.refused", { message: r.body.message }), "error");
      return false;
    }
    state.house = { document, source, ...r.body };
    try { localStorage.setItem(HOUSE_KEPT, JSON.stringify({ document, source })); } catch (err) { /* private mode */ }
    fillVariants(HOUSE);
    renderHouse();
    return true;
  }

  async function loadRules(e) {
    e.preventDefault();
    const text = $("rules-text").value.trim();
    if (!text) { say(t("board.rules.empty"), "error"); return; }
    if (await useRules(text, $("rules-text").dataset.source || "")) onNewVariant();
  }

  async function readRuleFile() {
    const file = $("rules-file").files[0];
    if (!file) return;
    $("rules-text").value = await file.text();
    $("rules-text").dataset.source = file.name;
    if (await useRules($("rules-text").value, file.name)) onNewVariant();
  }

  function leaveRules() {
    const base = state.house ? state.house.base : "italian";
    state.house = null;
    try { localStorage.removeItem(HOUSE_KEPT); } catch (err) { /* private mode */ }
    fillVariants(base);
    renderHouse();
    onNewVariant();
  }

  // A value of a rule document in few words: cards by suit (a whole suit as "all"),
  // a lead restriction, flags, lists.
  function ruleValue(v) {
    if (v === null || v === undefined || (Array.isArray(v) && !v.length)) return t("board.rule.none");
    if (v === true) return t("board.rule.yes");
    if (v === false) return t("board.rule.no");
    if (Array.isArray(v) && v.every((c) => typeof c === "string" && /^[SHDC][AKQJT2-9]$/.test(c))) {
      const perSuit = state.house.rules.deck / 4;
      return SUITS.map((s) => v.filter((c) => c[0] === s)).filter((cs) => cs.length)
        .map((cs) => (cs.length === perSuit ? t("board.rule.all", { suit: SYMBOL[cs[0][0]] }) : cs.map(pretty).join(" "))).join(" ");
    }
    if (Array.isArray(v)) return v.map(ruleValue).join(", ");
    if (typeof v === "object" && "suit" in v && "mode" in v) return `${SYMBOL[v.suit]} ${v.mode}`;
    if (typeof v === "object" && "cards" in v && "points" in v) return `${ruleValue(v.cards)} ${v.points}`;
    return typeof v === "object" ? JSON.stringify(v) : String(v);
  }

  // What the house rules change from their base, a line a contract: "no-hearts: lead any; forced discards all ♥".
  function renderHouse() {
    const h = state.house;
    $("house").hidden = !h;
    if (!h) return;
    const how = `${h.source ? "from-" : ""}${h.differences.length ? "with" : "unchanged"}`;
    $("house-title").textContent = t(`board.house.title-${how}`, { source: h.source, base: h.base });
    const lines = new Map();
    for (const d of h.differences) {
      const head = d.contract || t("board.house.rule-set");
      const text = d.field === null ? t(d.base === null ? "board.house.added" : "board.house.dropped")
        : `${fieldWords(d.field)} ${ruleValue(d.rules)}`;
      lines.set(head, (lines.get(head) || []).concat(text));
    }
    $("house-changes").replaceChildren(...[...lines].map(([head, texts]) =>
      el("li", {}, el("strong", { text: `${head}: ` }), texts.join("; "))));
  }

  // --- play ---------------------------------------------------------------------------
  function playCard(card) {
    leaveLine(false);
    state.play.push(card);
    if (state.redo.length && state.redo[state.redo.length - 1] === card) state.redo.pop();
    else state.redo = [];
    refresh(true);
  }

  function undo() {
    if (state.line) { lineStep(-1); return; }
    if (!state.play.length) return;
    state.redo.push(state.play.pop());
    refresh(true);
  }

  function redo() {
    if (state.line) { lineStep(1); return; }
    if (!state.redo.length) return;
    state.play.push(state.redo.pop());
    refresh(true);
  }

  const key = (play) => play.join(" ");

  async function refresh(keepFocus = false) {
    stopAnalysis();
    const token = ++state.token;
    const req = { ...setup(), play: state.play };
    state.doubles = req.doubles;
    saveHash(req);
    if (!req.deal) { say(t("board.msg.no-deal")); return; }
    say(t("board.msg.reading"), "busy");
    const r = await api("POST", "/api/v1/legal", req);
    if (token !== state.token) return;
    if (!r.ok) {
      state.legal = null;
      if (state.play.length && r.body.error === "illegal-play") state.play.pop();
      render();
      say(t("board.error.position", { message: r.body.message }), "error");
      return;
    }
    state.legal = r.body;
    state.hands = parseDeal(req.deal);
    state.holder = {};
    for (const seat of SEATS) for (const c of state.hands[seat] || []) state.holder[c] = seat;
    render(keepFocus);
    if (state.line && state.line.shown) { tellLine(); return; }   // a line played out: no analysis
    if (r.body.complete) { say(t("board.msg.complete")); return; }
    await analyse(req, token);
  }

  // --- the best line (docs/rules.md 11): /solve's line, played out trick by trick -------
  async function showLine() {
    if (!state.legal || state.legal.complete || state.line) return;
    stopAnalysis();
    const token = ++state.token;
    say(t("board.line.searching", { seat: seatName(state.legal.to_move) }), "busy");
    const r = await api("POST", "/api/v1/solve", { ...setup(), play: state.play, line: true, ms: SOLVE_MS });
    if (token !== state.token) return;
    if (!r.ok || !r.body.line) {
      say(t("board.line.none", { message: r.ok ? t("board.line.none-in-answer") : r.body.message }), "error");
      refresh(true);
      return;
    }
    const line = r.body.line;
    state.line = { base: state.play.slice(), line, ends: lineEnds(line), shown: 0 };
    state.redo = [];
    lineStep(1);
  }

  // Where each step of the line ends, in cards of the line: a trick each (the first
  // may have begun before the line), four cards a step in the domino.
  function lineEnds(line) {
    const ends = [];
    let end = line.cards.length - line.tricks.reduce((n, t) => n + t.cards.length, 0);
    for (const t of line.tricks) { end += t.cards.length; ends.push(end); }
    if (!line.tricks.length) for (let i = 4; i < line.cards.length + 4; i += 4) ends.push(Math.min(i, line.cards.length));
    return ends;
  }

  function lineStep(by) {
    const ln = state.line;
    const shown = Math.max(0, Math.min(ln.ends.length, ln.shown + by));
    if (shown === ln.shown && by) return;
    ln.shown = shown;
    state.play = ln.base.concat(ln.line.cards.slice(0, shown ? ln.ends[shown - 1] : 0));
    renderLine();
    refresh(true);
  }

  function leaveLine(again = true) {
    if (!state.line) return;
    state.play = state.line.base;
    state.line = null;
    renderLine();
    if (again) refresh(true);
  }

  // The line's play at card index i of the play shown, if the line played it.
  function linePlay(i) {
    const ln = state.line;
    return ln && i >= ln.base.length ? ln.line.plays[i - ln.base.length] : null;
  }

  function tellLine() {
    const ln = state.line, l = ln.line;
    const who = l.side.length > 1 ? l.side.join("+") : seatName(l.seat);
    const told = t("board.line.told", { who, shown: ln.shown, total: ln.ends.length, value: num(l.value) });
    say(l.exact ? told : t("board.line.guessed", { text: told, card: l.exact_from + 1 }));
  }

  function renderLine() {
    const ln = state.line;
    $("line-panel").hidden = !ln;
    $("line-show").disabled = Boolean(ln);
    if (!ln) return;
    const l = ln.line;
    $("line-title").textContent = t(l.exact ? "board.line.title" : "board.line.title-estimate",
                                    { side: l.side.join("+"), value: num(l.value) });
    $("line-now").textContent = t("board.line.now", { shown: ln.shown, total: ln.ends.length });
    $("line-back").disabled = ln.shown === 0;
    $("line-next").disabled = ln.shown === ln.ends.length;
    let from = 0;
    $("line-tricks").replaceChildren(...ln.ends.map((end, k) => {
      const li = el("li", { "aria-current": k === ln.shown - 1 ? "step" : "false" });
      l.plays.slice(from, end).forEach((p, i) => li.append(i ? " " : "", linePlayNode(p)));
      const trick = l.tricks[k];
      if (trick) li.append(` \u2192 ${trick.winner} (${num(trick.points)})`);
      from = end;
      return li;
    }));
  }

  // A card of a line: marked ~ when the estimate chose it, its equal cards in the title.
  function linePlayNode(p) {
    return el("span", { class: p.exact ? "line-card" : "line-card estimated",
      title: [t(p.exact ? "board.line.card-best" : "board.line.card-estimated")].concat(
        p.equal.length ? [t("board.line.card-equal", { cards: p.equal.map(pretty).join(", ") })] : []).join("; "),
      text: `${p.seat} ${pretty(p.card)}${p.exact ? "" : "~"}` });
  }

  function lineText(l) {
    return l.plays.map((p) => `${p.seat} ${pretty(p.card)}${p.exact ? "" : "~"}`).join(" ") + ` (${num(l.value)})`;
  }

  // Stream the analysis of the position on the board, drawing each improvement; an
  // analysis that ran to its end is kept, one cut short starts again when revisited.
  async function analyse(req, token) {
    const k = key(req.play);
    const kept = state.answers.get(k);
    if (kept) tell(kept);
    if (kept && kept.final) { analysisState(kept.solved ? "solved" : "stopped"); return; }
    if (!kept) say(t("board.msg.analysing", { seat: seatName(state.legal.to_move) }), "busy");
    const ctrl = new AbortController();
    state.stream = ctrl;
    analysisState("running");
    try {
      await streamAnalysis({ ...req, ms: SOLVE_MS }, ctrl.signal, (name, data) => {
        if (token !== state.token) return;
        if (name === "message") {
          state.answers.set(k, { ...data, final: false });
        } else if (name === "done") {
          const last = state.answers.get(k);
          if (last) last.final = true;
          analysisState(data.solved ? "solved" : "stopped");
        } else if (name === "error") {
          analysisState("failed");
          say(t("board.error.analysis", { message: data.message }), "error");
          return;
        }
        render();
        tell(state.answers.get(k));
      });
    } catch (err) {
      if (err.name === "AbortError" || token !== state.token) return;
      analysisState("failed");
      say(t("board.error.analysis", { message: t("error.network") }), "error");
    } finally {
      if (state.stream === ctrl) state.stream = null;
    }
  }

  // The analysis's state, on the table for tests and styles: running, solved, stopped
  // (the deadline came first) or failed; the message says it in words.
  function analysisState(name) {
    $("table").dataset.analysis = name;
  }

  function tell(a) {
    if (!a) return;
    const seat = a.to_move;
    const best = a.best.map(pretty).join(", ");
    const [lo, hi] = a.bounds[seat] || [];
    const side = state.doubles ? `${SIDE[seat]} ` : "";
    const fields = { seat: seatName(seat), cards: best, side: SIDE[seat], value: num(lo), range: range(lo, hi),
      estimate: a.estimates[seat] === undefined ? "" : `${side}\u2248${num(a.estimates[seat])}` };
    if (a.solved) {
      say(t(state.doubles ? "board.tell.solved-side" : "board.tell.solved", fields));
      return;
    }
    const how = !best ? "no-estimate" : fields.estimate ? "best" : "best-unvalued";
    const text = t(`board.tell.${how}`, fields);
    if (a.final) say(t("board.tell.unproved", { text }));
    else say(t("board.tell.running", { text }), "busy");
  }

  // --- drawing ------------------------------------------------------------------------
  const rankText = (rank) => (rank === "T" ? "10" : rank);

  function pretty(card) {
    return SYMBOL[card[0]] + rankText(card[1]);
  }

  function spoken(card) {
    const r = card[1];
    return t(`board.card-of.${card[0]}`, { rank: "AKQJT".includes(r) ? t(`board.rank.${r}`) : r });
  }

  function num(v) {
    return String(Math.round(v * 100) / 100);
  }

  function range(lo, hi) {
    return lo === hi ? num(lo) : `${num(lo)}..${num(hi)}`;
  }

  // Red for the worst card shown, green for the best; estimates greyer than exact values,
  // so the eye tells them apart before reading. Dark enough for white text at 4.5:1 or
  // more at every hue (the yellows are the lightest).
  function valueColour(v, lo, hi, exact) {
    const t = hi === lo ? 1 : (v - lo) / (hi - lo);
    return exact ? `hsl(${Math.round(120 * t)}, 70%, 27%)` : `hsl(${Math.round(120 * t)}, 28%, 34%)`;
  }

  // What a legal card shows: its exact value, else its estimate inside its proved range.
  function cardValue(a, card) {
    const bounds = a && a.card_bounds[card];
    if (!bounds) return null;
    const [lo, hi] = bounds;
    const estimate = a.card_estimates[card];
    const topLo = Math.max(...Object.values(a.card_bounds).map((r) => r[0]));
    return { lo, hi, exact: lo === hi, estimate: lo === hi ? lo : estimate, worse: hi < topLo };
  }

  function render(keepFocus = false) {
    // Redraws keep the keyboard focus on its card; after a play it moves to the new seat's cards.
    const focused = document.activeElement && document.activeElement.classList.contains("card")
      ? document.activeElement.dataset.card : null;
    const legal = state.legal;
    const answer = legal ? state.answers.get(key(state.play)) : null;
    const shown = answer ? Object.keys(answer.card_bounds).map((c) => cardValue(answer, c))
      .filter((v) => v && v.estimate !== undefined).map((v) => v.estimate) : [];
    const view = {
      legal, answer, played: new Set(state.play),
      legalSet: new Set(legal && !legal.complete ? legal.legal : []),
      lo: Math.min(...shown), hi: Math.max(...shown), next: reviewed(state.play.length),
    };
    for (const seat of SEATS) renderSeat(seat, view);
    fitSuits();
    renderTip();
    renderCentre();
    renderScores();
    renderHistory();
    renderChart();
    renderReview();
    $("undo").disabled = !state.play.length;
    $("redo").disabled = !state.redo.length;
    const same = focused && document.querySelector(`.card[data-card="${focused}"]:not(:disabled)`);
    if (same) same.focus();
    else if (keepFocus || focused) {
      const target = document.querySelector(".card.best:not(:disabled)") || document.querySelector(".card:not(:disabled)");
      if (target) target.focus();
    }
  }

  // One seat's box: its name and value, then its cards suit by suit.
  function renderSeat(seat, view) {
    const box = $(`seat-${seat}`);
    const hand = state.hands ? state.hands[seat] : undefined;
    const onMove = Boolean(view.legal && view.legal.to_move === seat && !view.legal.complete);
    box.classList.toggle("on-move", onMove);
    box.classList.toggle("out", hand === null);
    box.replaceChildren(seatHead(seat, view.answer, onMove));
    box.setAttribute("aria-label", t(onMove ? "board.seat.hand-on-move" : "board.seat.hand", { seat: seatName(seat) }));
    if (hand === null) { box.append(el("p", { class: "seat-note", text: t("board.seat.out") })); return; }
    if (!hand) return;
    for (const suit of SUITS) {
      const strip = el("div", { class: "suit-cards" });
      const cards = hand.filter((c) => c[0] === suit && !view.played.has(c))
        .sort((a, b) => RANKS.indexOf(a[1]) - RANKS.indexOf(b[1]));
      for (const card of cards) strip.append(cardButton(card, onMove, view));
      box.append(el("div", { class: "suit-row" },
        el("span", { class: `suit-sym s-${suit}`, text: SYMBOL[suit], "aria-hidden": "true" }), strip));
    }
  }

  // A seat's name with its value: exact, or an estimate in its proved range (its side's in doubles).
  function seatHead(seat, answer, onMove) {
    const head = el("div", { class: "seat-head" }, el("span", { text: seatName(seat) + (onMove ? " \u25cf" : "") }));
    const bounds = answer && answer.bounds[seat];
    const side = state.doubles ? SIDE[seat] : null;
    if (side && SIDE_SEAT[seat] !== seat) {
      head.append(el("span", { class: "value", text: t("board.seat.with", { side, seat: seatName(SIDE_SEAT[seat]) }) }));
    } else if (bounds && bounds[0] === bounds[1]) {
      head.append(el("span", side
        ? { class: "value", title: t("board.value.side-title", { side }), text: `${side} ${num(bounds[0])}` }
        : { class: "value", title: t("board.value.seat-title"), text: t("board.value.guarantees", { value: num(bounds[0]) }) }));
    } else if (bounds) {
      const est = answer.estimates[seat];
      head.append(el("span", { class: "value estimate",
        title: t(`board.value.${est === undefined ? "proved" : "estimate"}-title${side ? "-side" : ""}`,
                 { side, estimate: num(est), lo: num(bounds[0]), hi: num(bounds[1]) }),
        text: `${side ? `${side} ` : ""}${est !== undefined ? `\u2248${num(est)} ` : ""}(${range(...bounds)})` }));
    }
    return head;
  }

  // A card of a hand: playable when legal, with its value, range and marks from the analysis.
  function cardButton(card, onMove, view) {
    const { answer, next } = view;
    const isLegal = onMove && view.legalSet.has(card);
    const v = isLegal ? cardValue(answer, card) : null;
    const recorded = onMove && next && next.card === card ? next : null;
    const b = el("button", {
      type: "button", class: `card s-${card[0]}`, "data-card": card, disabled: !isLegal,
      "aria-label": [spoken(card), v ? spokenValue(v) : null, recorded ? recordedText(recorded) : null]
        .filter(Boolean).join(", "),
    }, el("span", { class: "rank", text: rankText(card[1]) }));
    if (recorded) markReviewed(b, recorded);
    if (!isLegal) return b;
    b.classList.add("legal");
    b.addEventListener("click", () => onCardClick(card));
    if (v && v.estimate !== undefined) {
      b.classList.add("valued", v.exact ? "exact" : "estimate");
      b.classList.toggle("worse", v.worse);
      b.classList.toggle("equal", (answer.equal || []).some((g) => g.includes(card)));
      b.style.background = valueColour(v.estimate, view.lo, view.hi, v.exact);
      b.append(el("span", { class: "val", text: v.exact ? num(v.estimate) : `\u2248${num(v.estimate)}` }));
      if (!v.exact) b.append(el("span", { class: "range", text: range(v.lo, v.hi) }));
      if (answer.best.includes(card)) b.classList.add("best");
    }
    return b;
  }

  // A suit keeps to one line beside its symbol. When its cards are wider than the seat,
  // they first drop their spare width; if that is not enough they overlap, each showing
  // its left part, rather than wrap under the next suit.
  const CARD_GAP = 2;     // px between cards, as in board.css
  function fitSuits() {
    const excess = (strip) => strip.scrollWidth - strip.clientWidth;
    for (const strip of document.querySelectorAll(".suit-cards")) {
      strip.classList.remove("tight", "fanned");
      strip.style.removeProperty("--overlap");
      const n = strip.children.length;
      if (n < 2 || excess(strip) <= 0) continue;
      strip.classList.add("tight");
      const over = excess(strip);
      if (over <= 0) continue;
      strip.classList.add("fanned");
      strip.style.setProperty("--overlap", `${Math.ceil(over / (n - 1)) + CARD_GAP}px`);
    }
  }

  // --- a card's value and range in a tip: on hover, keyboard focus or a tap ----------
  // A mouse plays a card with one click and reads its tip on the way; a finger has no
  // hover, so its first tap on a card shows the tip and a second tap plays the card.
  let pointer = "mouse";      // the kind of the last pointer pressed: mouse, touch or pen

  function onCardClick(card) {
    const touched = pointer !== "mouse";
    pointer = "mouse";      // a later Enter or Space plays at once
    if (touched && state.tip !== card && cardValue(currentAnswer(), card)) { showTip(card, "tap"); return; }
    hideTip();
    playCard(card);
  }

  const currentAnswer = () => (state.legal ? state.answers.get(key(state.play)) : null);

  function showTip(card, how) {
    state.tip = card;
    state.tipBy = how;
    renderTip();
  }

  function hideTip() {
    state.tip = null;
    renderTip();
  }

  // The tip of the card it belongs to, redrawn as the analysis improves, set above the
  // card (below it at the top of the window) and inside the page's width.
  function renderTip() {
    const tip = $("card-tip");
    const button = state.tip && document.querySelector(`.card.valued[data-card="${state.tip}"]`);
    const v = button && cardValue(currentAnswer(), state.tip);
    if (!v) { tip.hidden = true; state.tip = null; return; }
    const a = currentAnswer();
    const lines = [el("strong", { class: `s-${state.tip[0]}`, text: pretty(state.tip) }),
      el("span", { class: "tip-value", text: ` ${t(v.exact ? "board.tip.value" : "board.tip.estimate", { value: num(v.estimate) })}` })];
    const notes = [v.exact ? t("board.tip.exact") : t("board.tip.proved", { lo: num(v.lo), hi: num(v.hi) })];
    if (a.best.includes(state.tip)) notes.push(t(v.exact ? "board.tip.best" : "board.tip.best-estimate"));
    if (v.worse) notes.push(t("board.tip.worse"));
    const same = (a.equal || []).find((g) => g.includes(state.tip));
    if (same) notes.push(t("board.tip.equal", { cards: same.filter((c) => c !== state.tip).map(pretty).join(" ") }));
    const r = reviewed(state.play.length);
    if (r && r.card === state.tip && r.cost > 0) notes.push(recordedText(r));
    if (state.tipBy === "tap") notes.push(t("board.tip.tap"));
    tip.replaceChildren(el("div", {}, ...lines), ...notes.map((n) => el("div", { class: "tip-note", text: n })));
    tip.hidden = false;
    const card = button.getBoundingClientRect();
    const width = document.documentElement.clientWidth;
    const left = Math.max(4, Math.min(card.left + card.width / 2 - tip.offsetWidth / 2, width - tip.offsetWidth - 4));
    const above = card.top - tip.offsetHeight - 6;
    tip.style.left = `${left + window.scrollX}px`;
    tip.style.top = `${(above >= 0 ? above : card.bottom + 6) + window.scrollY}px`;
  }

  function watchTips() {
    const table = $("table");
    const valued = (e) => e.target.closest && e.target.closest(".card.valued");
    document.addEventListener("pointerdown", (e) => {
      pointer = e.pointerType || "mouse";
      if (!valued(e) && state.tip) hideTip();
    }, true);
    table.addEventListener("pointerover", (e) => {
      const b = valued(e);
      if (b && e.pointerType === "mouse") showTip(b.dataset.card, "hover");
    });
    table.addEventListener("pointerout", (e) => {
      const b = valued(e);
      if (b && e.pointerType === "mouse" && state.tipBy === "hover" && !b.contains(e.relatedTarget)) hideTip();
    });
    table.addEventListener("focusin", (e) => {
      const b = valued(e);
      if (b && b.matches(":focus-visible")) showTip(b.dataset.card, "focus");
    });
    table.addEventListener("focusout", () => { if (state.tipBy === "focus") hideTip(); });
    document.addEventListener("keydown", (e) => { if (e.key === "Escape" && state.tip) hideTip(); });
    window.addEventListener("resize", () => { if (state.tip) renderTip(); });
  }

  function spokenValue(v) {
    if (v.exact) return t("board.tip.value", { value: num(v.estimate) });
    const text = t("board.card.estimate", { value: num(v.estimate), lo: num(v.lo), hi: num(v.hi) });
    return v.worse ? `${text}, ${t("board.tip.worse")}` : text;
  }

  // A card the review's record played, with its cost when it had one.
  function recordedText(c) {
    return c.cost > 0 ? t("board.card.recorded-cost", { cost: costText(c.cost) }) : t("board.card.recorded");
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
          el("span", { text: run ? `${rankText(run[0])} \u2026 ${rankText(run[1])}` : "\u2014" }));
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
      const played = el("div", { class: `played ${seat}${i === 0 ? " lead" : ""}${last ? " last" : ""} s-${card[0]}` },
        pretty(card), el("small", { text: seat }));
      const c = reviewed(state.play.lastIndexOf(card));
      if (c && c.cost > 0) markReviewed(played, c);
      const p = linePlay(state.play.lastIndexOf(card));
      if (p) played.classList.add("line-card", ...(p.exact ? [] : ["estimated"]));
      centre.append(played);
    });
    if (legal.complete) centre.append(el("div", { class: "centre-note", text: t("board.centre.complete") }));
    else if (!legal.trick.length) {
      centre.append(el("div", { class: "centre-note", text: t("board.centre.lead", { seat: seatName(legal.to_move) }) }));
    }
  }

  function renderScores() {
    const legal = state.legal;
    if (!legal) { $("scores").textContent = ""; return; }
    const taken = legal.taken;
    const each = (f) => SEATS.filter((s) => state.hands && state.hands[s]).map((s) => `${s} ${f(s)}`).join(" \u00b7 ");
    if (legal.layout) {     // the domino scores only at the end; until then, the cards each seat holds
      const played = new Set(state.play);
      $("scores").textContent = legal.complete ? t("board.scores.score", { scores: each((s) => num(taken[s])) })
        : t("board.scores.left", { counts: each((s) => state.hands[s].filter((c) => !played.has(c)).length) });
      return;
    }
    $("scores").textContent = t("board.scores.taken", { scores: legal.sides
      ? `N+S ${num(legal.sides.NS)} (N ${num(taken.N)}, S ${num(taken.S)}) \u00b7 ` +
        `E+W ${num(legal.sides.EW)} (E ${num(taken.E)}, W ${num(taken.W)})`
      : Object.entries(taken).map(([s, v]) => `${s} ${num(v)}`).join(" \u00b7 ") });
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

  // The history numbers its own lines: a list marker sits outside the scrolling box,
  // which cuts two-digit numbers to their last digit.
  function historyLine(number, ...children) {
    return el("li", {}, el("span", { class: "num", text: number === null ? "" : `${number}.` }), " ", ...children);
  }

  // A played card in the history, with its cost when a review found one.
  function historyCard(index, card, winner) {
    const seat = state.holder[card];
    const p = linePlay(index);
    const span = el("span", { class: `${seat === winner ? "winner" : ""}${p ? " line-card" : ""}${p && !p.exact ? " estimated" : ""}`,
      text: `${seat} ${pretty(card)}${p && !p.exact ? "~" : ""}` });
    const r = reviewed(index);
    if (r && r.cost > 0) {
      span.classList.add("costly");
      span.title = t("board.history.cost", { cost: costText(r.cost), cards: r.best.map(pretty).join(", ") });
      span.append(el("span", { class: "cost", text: `\u2212${costText(r.cost)}` }));
    }
    return span;
  }

  function renderHistory() {
    const list = $("history");
    list.replaceChildren();
    const domino = Boolean(state.legal && state.legal.layout);
    $("history-title").textContent = t(domino ? "board.history.play" : "board.history.tricks");
    list.setAttribute("aria-label", t(domino ? "board.history.play-label" : "board.history.tricks-label"));
    if (!state.legal || !state.hands) return;
    if (domino) { renderDominoHistory(list); list.scrollTop = list.scrollHeight; return; }
    const size = SEATS.filter((s) => state.hands[s]).length;
    for (let start = 0; start < state.play.length; start += size) {
      const cards = state.play.slice(start, start + size);
      const done = cards.length === size;
      const next = state.play[start + size];
      const winner = !done ? null : next ? state.holder[next] : trickWinner(cards);
      const li = historyLine(start / size + 1);
      cards.forEach((c, i) => li.append(historyCard(start + i, c, winner), i < cards.length - 1 ? ", " : ""));
      if (winner) li.append(` \u2192 ${winner}`);
      list.append(li);
    }
    list.scrollTop = list.scrollHeight;
  }

  // The texts that say whose values are shown: a seat's, or in doubles a side's.
  function renderMeaning() {
    const kind = state.doubles ? "side" : "seat";
    $("values").textContent = t("board.legend.values", { meaning: t(`board.legend.${kind}`) });
    $("chart-title").textContent = t(`board.chart.${kind}`);
    $("chart").setAttribute("aria-label", t(`board.chart.${kind}-label`));
  }

  // The domino's turns in order (docs/rules.md 9): each card, or the pass of a seat
  // that could not play, marked when a card is its seat's last.
  function dominoTurns() {
    const passes = state.legal.passes || [];
    const left = Object.fromEntries(SEATS.map((s) => [s, (state.hands[s] || []).length]));
    const turns = [];
    let p = 0;
    for (let i = 0; i <= state.play.length; i++) {
      for (; p < passes.length && passes[p].before === i; p++) turns.push({ seat: passes[p].seat, index: i });
      if (i === state.play.length) break;
      const seat = state.holder[state.play[i]];
      turns.push({ seat, card: state.play[i], index: i, out: --left[seat] === 0 });
    }
    return turns;
  }

  // A line a round, from the opener's turn to the turn of the seat before it; the
  // passes of seats with no seven, before the opening, on a line of their own.
  function renderDominoHistory(list) {
    const turns = dominoTurns();
    const opener = state.play.length ? state.holder[state.play[0]] : null;
    let line = null, round = 0;
    const open = (number) => { line = historyLine(number); list.append(line); };
    turns.forEach((turn) => {
      if (!line) open(turn.card ? ++round : null);
      else if (turn.card && !round) open(++round);
      else if (round && turn.seat === opener) open(++round);
      else line.append(", ");
      if (!turn.card) {
        line.append(el("span", { class: "pass", text: t(round ? "board.history.pass" : "board.history.pass-no-seven", { seat: turn.seat }) }));
        return;
      }
      const span = historyCard(turn.index, turn.card, null);
      if (turn.out) span.append(el("span", { class: "went-out", text: ` ${t("board.history.out")}` }));
      line.append(span);
    });
    const out = turns.filter((turn) => turn.out).map((turn) => seatName(turn.seat));
    if (state.legal.complete && out.length) {
      list.append(el("li", { class: "end", text: t("board.history.over", { seats: out.join(t("board.and")) }) }));
    }
  }

  function renderChart() {
    renderMeaning();
    const chart = $("chart");
    chart.replaceChildren();
    if (!state.hands) return;
    const line = state.play.concat([...state.redo].reverse());
    const total = SEATS.reduce((n, s) => n + (state.hands[s] ? state.hands[s].length : 0), 0) || 1;
    const points = {};
    let lo = 0, hi = 0;
    for (let i = 0; i <= line.length; i++) {
      const a = state.answers.get(key(line.slice(0, i)));
      if (!a) continue;
      for (const [seat, v] of Object.entries(a.estimates)) {
        const [blo, bhi] = a.bounds[seat];
        (points[seat] = points[seat] || []).push([i, v, blo === bhi]);
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
    xl.textContent = t("board.chart.axis");
    chart.append(xl);
    chart.append(svg("line", { class: "now", x1: x(state.play.length), x2: x(state.play.length), y1: T, y2: H - B }));
    let lx = L + 6;
    // Equal values would draw the seats' lines on top of each other, hiding the first
    // (N): each seat's line sits a little apart, side by side. In doubles partners
    // share a value: a line a side.
    SEATS.forEach((seat, k) => {
      const pts = points[seat];
      if (!pts || (state.doubles && SIDE_SEAT[seat] !== seat)) return;
      const dy = (k - 1.5) * 2.2;
      const colour = SEAT_COLOUR[seat];
      chart.append(svg("polyline", { points: pts.map(([i, v]) => `${x(i)},${y(v) + dy}`).join(" "), fill: "none",
        stroke: colour, "stroke-width": 2, "data-seat": seat }));
      for (const [i, v, exact] of pts) {
        chart.append(svg("circle", { cx: x(i), cy: y(v) + dy, r: exact ? 2.5 : 3, fill: exact ? colour : "#fff",
          stroke: colour, "stroke-width": 1.5, class: exact ? "exact" : "estimate" }));
      }
      const legend = svg("text", { x: lx, y: H - 6, fill: colour, style: `fill:${colour};font-weight:bold` });
      legend.textContent = state.doubles ? SIDE[seat] : seat;
      chart.append(legend);
      lx += state.doubles ? 34 : 16;
    });
  }

  // --- review mode: a played record stepped through, each costly card marked ----------
  function costText(cost) {
    return String(Math.round(cost * 100) / 100);
  }

  // The review of card ``i`` while the line on the board still follows the record, else null.
  function reviewed(i) {
    const rv = state.review;
    const c = rv && i >= 0 ? rv.byIndex.get(i) : undefined;
    if (!c) return null;
    const line = state.play.concat([...state.redo].reverse());
    return line[i] === c.card ? c : null;
  }

  function markReviewed(node, c) {
    node.classList.add("recorded");
    if (c.cost > 0) {
      node.classList.add("costly");
      node.append(el("span", { class: "cost", text: `\u2212${costText(c.cost)}`, "aria-hidden": "true" }));
    }
  }

  // The tags and play lines of a record, read loosely to pick the start; the server reads it for real.
  function recordShape(text) {
    const contract = (text.match(/^\s*\[Contract\s+"([^"]*)"\]/mi) || [])[1] || "";
    const lines = text.split(/\r?\n/).map((l) => l.trim());
    const at = lines.findIndex((l) => /^\[Play\b/i.test(l));
    const play = at < 0 ? [] : lines.slice(at + 1).filter((l) => l && !/^[;%[]/.test(l));
    return { domino: /domino/i.test(contract), tricks: play.length,
      cards: play.join(" ").split(/\s+/).filter(Boolean).length };
  }

  // The play on the board as a record's text (kingsolve.game.record), house rules in
  // its tag Rules, for the review or to keep.
  function recordText() {
    const req = setup();
    const quote = (v) => `"${String(v).replace(/\\/g, "\\\\").replace(/"/g, "\\\"")}"`;
    const tags = [["Variant", variant().name]];
    if (state.house && $("variant").value === HOUSE) tags.push(["Rules", JSON.stringify(state.house.document)]);
    tags.push(["Contract", req.contract]);
    if (req.trump) tags.push(["Trump", req.trump]);
    if (req.options.length) tags.push(["Options", req.options.join(" ")]);
    if (req.doubles) tags.push(["Doubles", "true"]);
    tags.push(["Deal", req.deal], ["Play", req.leader]);
    const per = state.legal && state.legal.layout ? 13 : SEATS.filter((s) => state.hands && state.hands[s]).length || 4;
    const lines = tags.map(([k, v]) => `[${k} ${quote(v)}]`);
    for (let i = 0; i < state.play.length; i += per) lines.push(state.play.slice(i, i + per).join(" "));
    return lines.join("\n") + "\n";
  }

  function reviewStart(text) {
    const choice = $("review-from").value;
    const shape = recordShape(text);
    if (shape.domino) return choice === "auto" ? { from_card: Math.max(0, shape.cards - 4 * REVIEW_LAST) } : {};
    if (choice !== "auto") return { from_trick: Number(choice) };
    return { from_trick: Math.max(1, shape.tricks - REVIEW_LAST + 1) };
  }

  async function runReview(e) {
    e.preventDefault();
    const text = $("record").value.trim();
    if (!text) { say(t("board.review.empty"), "error"); return; }
    stopAnalysis();
    const token = ++state.token;
    say(t("board.review.running"), "busy");
    $("review").disabled = true;
    const r = await api("POST", "/api/v1/review",
                        { record: text, ...reviewStart(text), ms: SOLVE_MS, lines: true });
    $("review").disabled = false;
    if (token !== state.token) return;
    if (!r.ok) { say(t("board.review.error", { message: r.body.message }), "error"); return; }
    loadReview(r.body, token);
  }

  // A record with its own rules (tag Rules) brings them to the board as house rules.
  async function loadReview(rv, token) {
    const rec = rv.record;
    if (typeof rec.variant === "object") {
      const text = JSON.stringify(rec.variant);
      const same = state.house && JSON.stringify(state.house.document) === text;
      if (!same && (!await useRules(text, t("board.rules.from-record")) || token !== state.token)) return;
      $("variant").value = HOUSE;
    } else {
      $("variant").value = rec.variant;
    }
    onVariant();
    $("contract").value = rec.contract; onContract();
    $("trump").value = rec.trump || "";
    $("leader").value = rec.leader;
    $("doubles").checked = rec.doubles;
    for (const box of document.querySelectorAll("input[name=option]")) box.checked = rec.options.includes(box.value);
    $("deal").value = rec.deal;
    state.review = { ...rv, byIndex: new Map(rv.cards.map((c) => [c.index, c])) };
    state.answers = new Map();
    state.hands = null;
    $("review-panel").hidden = false;
    $("review-leave").hidden = false;
    renderReviewSummary();
    jumpTo(rv.start);
  }

  function jumpTo(index) {
    leaveLine(false);
    const play = state.review.record.play;
    state.play = play.slice(0, index);
    state.redo = play.slice(index).reverse();
    refresh();
  }

  function leaveReview() {
    state.review = null;
    $("review-panel").hidden = true;
    $("review-leave").hidden = true;
  }

  function renderReviewSummary() {
    const rv = state.review;
    const house = typeof rv.record.variant === "object";      // house rules: their own names
    const fields = { rules: house ? t("board.review.house") : I.named("variant", rv.record.variant),
      contract: house ? rv.record.contract : I.named("contract", rv.record.contract) };
    const from = rv.start_trick && rv.start_trick > 1 ? "-trick" : rv.start ? "-card" : "";
    $("review-title").textContent = t(`board.review.title${from}`,
                                      { ...fields, trick: rv.start_trick, card: rv.start + 1 });
    $("review-summary").tBodies[0].replaceChildren(...Object.values(rv.seats).map((s) => el("tr", { "data-seat": s.seat },
      el("th", { scope: "row", text: seatName(s.seat) }), el("td", { text: String(s.cards) }),
      el("td", { text: String(s.costly) }), el("td", { text: costText(s.cost) }),
      el("td", { text: s.largest ? largestText(s.largest) : "\u2014" }))));
    const costly = rv.cards.filter((c) => c.cost > 0);
    $("review-costly").replaceChildren(...costly.map((c) => {
      const b = el("button", { type: "button", "data-index": c.index,
        text: t(c.trick ? "board.review.costly-trick" : "board.review.costly", { trick: c.trick, seat: c.seat,
          card: pretty(c.card), cost: `\u2212${costText(c.cost)}`, cards: c.best.map(pretty).join(", ") }) });
      b.addEventListener("click", () => jumpTo(c.index));
      const line = c.line ? el("div", { class: "review-line", text: t("board.review.best-line", { line: lineText(c.line) }) }) : null;
      return el("li", {}, b, line);
    }));
    if (!costly.length) $("review-costly").append(el("li", { text: t("board.review.none") }));
  }

  function largestText(largest) {
    const card = pretty(largest.card);
    return largest.trick ? t("board.review.largest", { card, trick: largest.trick }) : card;
  }

  function renderReview() {
    const rv = state.review;
    if (!rv) return;
    const i = state.play.length;
    const c = reviewed(i);
    let text;
    if (c) {
      const fields = { where: t(c.trick ? "board.review.card-trick" : "board.review.card", { card: i + 1, trick: c.trick }),
        seat: seatName(c.seat), card: pretty(c.card), cost: costText(c.cost), before: c.before, after: c.after,
        cards: c.best.map(pretty).join(", ") };
      text = t(c.cost > 0 ? "board.review.played-costly" : c.forced ? "board.review.played-forced" : "board.review.played-best", fields);
    } else if (i < rv.start && reviewed(rv.start)) {
      text = t("board.review.before", { card: i + 1, start: rv.start + 1 });
    } else if (i === rv.record.play.length && !state.redo.length) {
      text = rv.final_scores ? t("board.review.end-score", {
        scores: Object.entries(rv.final_scores).map(([s, v]) => `${s} ${v}`).join(" \u00b7 ") }) : t("board.review.end");
    } else {
      text = t("board.review.off");
    }
    $("review-now").textContent = t("board.review.now", { text });
    for (const b of $("review-costly").querySelectorAll("button")) {
      b.setAttribute("aria-current", Number(b.dataset.index) === i ? "step" : "false");
    }
  }

  // --- the address bar keeps the position, so a link reopens it ---------------------
  function saveHash(req) {
    const p = new URLSearchParams({ variant: $("variant").value, contract: req.contract, leader: req.leader, deal: req.deal });
    if (req.trump) p.set("trump", req.trump);
    if (req.doubles) p.set("doubles", "1");
    if (req.options.length) p.set("options", req.options.join(","));
    if (req.play.length) p.set("play", req.play.join(","));
    history.replaceState(null, "", `#${p}`);
  }

  function loadHash() {
    const p = new URLSearchParams(location.hash.slice(1));
    const named = p.get("variant");
    if (named in state.variants || (named === HOUSE && state.house)) { $("variant").value = named; onVariant(); }
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

  // A link from the game page (/play): #review=<record>&from=<trick or auto> opens
  // that record's review.
  function reviewHash() {
    const p = new URLSearchParams(location.hash.slice(1));
    if (!p.get("review")) return false;
    $("review-setup").open = true;
    $("record").value = p.get("review");
    if ([...$("review-from").options].some((o) => o.value === p.get("from"))) $("review-from").value = p.get("from");
    runReview({ preventDefault() {} });
    return true;
  }

  // --- start ------------------------------------------------------------------------------
  // The page's own texts in the language chosen, and the lists built from them.
  function translate() {
    document.title = t("board.page-title");
    for (const node of document.querySelectorAll("[data-i18n-code]")) {
      const [before, after = ""] = t(node.dataset.i18nCode).split("{code}");
      node.replaceChildren(before, el("code", { text: node.dataset.code }), after);
    }
    showSeed();
    fillSelect($("leader"), SEATS.map((s) => [s, seatName(s)]), $("leader").value || "N");
    fillSelect($("review-from"), [["auto", t("board.review.from-last", { count: REVIEW_LAST })]].concat(
      Array.from({ length: 13 }, (_, k) => [String(k + 1), t("board.review.from-trick", { trick: k + 1 })])),
    $("review-from").value || "auto");
  }

  // A new language: every text drawn again, the position and its analysis kept.
  function retranslate() {
    translate();
    if (!state.variants) return;
    fillVariants($("variant").value);
    for (const option of $("contract").options) option.textContent = I.named("contract", option.value);
    fillTrump();
    fillOptions(setup().options);
    renderHouse();
    if (state.review) renderReviewSummary();
    renderLine();
    refresh(true);
  }

  async function start() {
    await I.load();
    I.apply();
    I.menu($("lang"), retranslate);
    translate();
    const r = await api("GET", "/api/v1/variants");
    if (!r.ok) { say(t("board.error.variants", { message: r.body.message }), "error"); return; }
    state.variants = r.body;
    fillVariants("italian");
    let kept = null;
    try { kept = JSON.parse(localStorage.getItem(HOUSE_KEPT)); } catch (err) { /* none kept */ }
    if (kept && !await useRules(JSON.stringify(kept.document), kept.source, true)) {
      try { localStorage.removeItem(HOUSE_KEPT); } catch (err) { /* private mode */ }
    }
    onVariant();
    $("variant").addEventListener("change", onNewVariant);
    $("contract").addEventListener("change", () => { onContract(); newDeal(); });
    for (const id of ["trump", "leader", "doubles"]) $(id).addEventListener("change", newDeal);
    $("options").addEventListener("change", newDeal);
    $("setup").addEventListener("submit", (e) => { e.preventDefault(); newDeal(); });
    $("random").addEventListener("click", randomDeal);
    $("undo").addEventListener("click", undo);
    $("review-form").addEventListener("submit", runReview);
    $("record-of-play").addEventListener("click", () => { $("record").value = recordText(); });
    $("rules-form").addEventListener("submit", loadRules);
    $("rules-file").addEventListener("change", readRuleFile);
    $("rules-text").addEventListener("input", () => { delete $("rules-text").dataset.source; });
    $("house-leave").addEventListener("click", leaveRules);
    $("review-leave").addEventListener("click", () => { leaveReview(); render(); });
    $("redo").addEventListener("click", redo);
    $("line-show").addEventListener("click", showLine);
    $("line-next").addEventListener("click", () => lineStep(1));
    $("line-back").addEventListener("click", () => lineStep(-1));
    $("line-leave").addEventListener("click", () => leaveLine());
    document.addEventListener("keydown", (e) => {
      if (e.ctrlKey || e.metaKey || e.altKey || e.target.closest("input, select, textarea")) return;
      if (e.key === "u") { e.preventDefault(); undo(); }
      else if (e.key === "r") { e.preventDefault(); redo(); }
      else if (e.key === "b") { e.preventDefault(); showLine(); }
    });
    new ResizeObserver(fitSuits).observe($("table"));
    watchTips();
    window.addEventListener("hashchange", () => {
      state.redo = [];
      state.answers = new Map();
      if (loadHash()) refresh();
    });
    if (reviewHash()) return;
    if (loadHash()) refresh();
    else randomDeal();
  }

  document.addEventListener("DOMContentLoaded", start);
})();
