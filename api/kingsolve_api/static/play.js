// Play King against kingsolve: plain JavaScript over the JSON API, no build step.
// The server judges the rules and keeps the score: /legal gives the cards a seat may
// play, /sheet the library's score sheet (the schedule, dealer, first leader, each
// hand's scores), /hint the engine's cards and choices. Each engine seat asks /hint
// from its own view only: its hand as dealt, the play so far, the contract, trump and
// leader everybody knows; never another seat's cards.
// Each game lives in the browser (localStorage, by its id), and a tab knows its own game
// (sessionStorage): a reload resumes at the same card, two tabs hold two games, and a
// game whose tab was closed is offered to resume. A request refused or unanswered is
// tried again.
"use strict";

(() => {
  const I = window.KingsolveI18n;
  const t = (key, params) => I.t(key, params);
  const SEATS = ["N", "E", "S", "W"];
  const SUITS = ["S", "H", "D", "C"];
  const SYMBOL = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  const RANKS = "AKQJT98765432";
  const GAMES = "kingsolve-games";          // localStorage: this browser's games by id
  const TAB = "kingsolve-game-id";          // sessionStorage: the id of this tab's game
  const KEEP_GAMES = 20;                    // the most recent games kept
  const HOUSE = "*house";                   // the rule-set list's value of the board's house rules
  const HOUSE_KEPT = "kingsolve-house-rules";   // localStorage: the board's house rules
  const PACE_MS = { slow: 1400, normal: 700, instant: 0 };
  const REQUEST_MS = 60000;                 // a request unanswered this long is tried again
  const RETRY_MS = [1000, 2000, 4000, 8000];
  const HINT_MS = 20000;                    // what one engine card or choice may take
  const $ = (id) => document.getElementById(id);
  const { el } = window.KingsolveDom;
  const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

  const page = { variants: null, levels: null, legal: null, busy: false, hint: null };
  let game = null;

  // --- the API, tried again until it answers ----------------------------------------
  async function once(method, path, body) {
    const opts = { method, headers: { Accept: "application/json" } };
    if (body !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    const stop = new AbortController();
    const timer = setTimeout(() => stop.abort(), REQUEST_MS);
    try {
      const resp = await fetch(path, { ...opts, signal: stop.signal });
      let data;
      try { data = await resp.json(); } catch (err) { data = { message: `HTTP ${resp.status}` }; }
      return { ok: resp.ok, status: resp.status, body: data };
    } catch (err) {
      return { ok: false, status: 0, body: { message: t(stop.signal.aborted ? "error.timeout" : "error.network") } };
    } finally {
      clearTimeout(timer);
    }
  }

  // A refusal of the request itself (400) is final; a busy, failing or silent server is
  // asked again, saying so, with a growing pause.
  async function api(method, path, body) {
    for (let attempt = 0; ; attempt++) {
      const r = await once(method, path, body);
      const again = !r.ok && (r.status === 0 || r.status === 429 || r.status >= 500);
      if (!again) {
        if (attempt) say("");
        return r;
      }
      const pause = RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)];
      say(t("error.retry", { message: r.body.message || `HTTP ${r.status}`, seconds: pause / 1000 }), "error");
      await sleep(pause);
    }
  }

  function say(text, kind = "") {
    const m = $("g-message");
    m.textContent = text;
    m.className = kind;
    $("g-retry").hidden = true;
  }

  // A request the server refused: its message, and in a game a button to try again.
  function refused(r) {
    say(t("error.refused", { message: r.body.message }), "error");
    $("g-retry").hidden = !game;
  }

  // --- the game in this tab ---------------------------------------------------------
  function storedGames() {
    try { return JSON.parse(localStorage.getItem(GAMES)) || {}; } catch (err) { return {}; }
  }

  function keepGames(all) {
    const recent = Object.values(all).sort((a, b) => b.updated - a.updated).slice(0, KEEP_GAMES);
    try { localStorage.setItem(GAMES, JSON.stringify(Object.fromEntries(recent.map((g) => [g.id, g])))); }
    catch (err) { /* private mode or full: the tab still plays */ }
  }

  function save() {
    if (!game) return;
    if (!game.id) game.id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    game.updated = Date.now();
    keepGames({ ...storedGames(), [game.id]: game });
    try { sessionStorage.setItem(TAB, game.id); } catch (err) { /* private mode */ }
  }

  function restore() {
    let id = null;
    try { id = sessionStorage.getItem(TAB); } catch (err) { /* private mode */ }
    return id ? storedGames()[id] || null : null;
  }

  // The unfinished games no tab of this page holds now, most recent first: a closed
  // tab's game among them.
  function resumable() {
    return Object.values(storedGames()).filter((g) => !g.sheet.complete && (!game || g.id !== game.id))
      .sort((a, b) => b.updated - a.updated);
  }

  function renderResume() {
    const list = resumable();
    $("g-resume-row").hidden = !list.length;
    fill($("g-resume"), list.map((g) => [g.id, t("setup.resume-item", {
      variant: g.rules ? g.rules.name : I.named("variant", g.variant),
      number: g.hand ? g.hand.number : g.sheet.hands.length + 1,
      when: new Date(g.updated).toLocaleString(I.language) })]));
  }

  function resume() {
    const picked = storedGames()[$("g-resume").value];
    if (!picked) return;
    game = picked;
    page.legal = null;
    save();
    advance();
  }

  // A game under house rules carries its rule document and the rules checked from it.
  const rules = () => game.rules || page.variants[game.variant];
  const ruleSet = () => game.document || game.variant;      // what a request names
  const contractOf = (name) => rules().contracts[name];
  const seatsInOrder = () => (rules().direction === "counterclockwise" ? ["N", "W", "S", "E"] : SEATS);
  const after = (seat, k = 1) => { const o = seatsInOrder(); return o[(o.indexOf(seat) + k) % 4]; };
  const engineSeat = (seat) => seat !== game.seat;
  const tricksPerHand = () => rules().deck / 4;

  function handsOf(deal) {
    const [first, ...rest] = deal.split(":");
    const parts = rest.join(":").trim().split(/\s+/);
    const out = {};
    parts.forEach((text, i) => {
      const seat = SEATS[(SEATS.indexOf(first) + i) % 4];
      out[seat] = text.split(".").flatMap((cards, s) => [...cards].map((r) => SUITS[s] + r));
    });
    return out;
  }

  const dealtHand = (seat) => handsOf(game.hand.deal)[seat];
  const handText = (cards) => SUITS.map((s) => cards.filter((c) => c[0] === s).map((c) => c[1]).join("")).join(".");

  async function newGame(e) {
    e.preventDefault();
    const setup = { variant: $("g-variant").value, doubles: $("g-doubles").checked && !$("g-doubles").disabled,
                    seat: $("g-seat").value, level: Number($("g-level").value), pace: $("g-pace").value };
    if (setup.variant === HOUSE) Object.assign(setup, { document: page.house.document, rules: page.house.rules });
    const r = await api("POST", "/api/v1/sheet", { variant: setup.document || setup.variant, doubles: setup.doubles });
    if (!r.ok) { refused(r); return; }
    game = { ...setup, records: [], helped: [], sheet: r.body, hand: null };
    save();
    advance();
  }

  // Leaving a game forgets it.
  function quit() {
    const all = storedGames();
    if (game) delete all[game.id];
    game = null;
    keepGames(all);
    try { sessionStorage.removeItem(TAB); } catch (err) { /* private mode */ }
    page.legal = null;
    render();
    say("");
  }

  // --- the driver: one step at a time until the player's turn -------------------------
  async function advance() {
    if (page.busy) return;
    page.busy = true;
    try {
      while (game && await step()) {
        save();
        render();
      }
    } finally {
      page.busy = false;
    }
    if (game) save();
    render();
  }

  // One step of the game; false when it waits for the player (or is over).
  async function step() {
    if (!game.hand) {
      if (game.sheet.complete) return false;
      return newHand();
    }
    const h = game.hand;
    if (h.phase === "choose") return choiceStep(h);
    if (h.phase === "play" && h.festa === "433") return finishHand(h);     // no play
    if (h.phase === "play") return playStep(h);
    return false;
  }

  async function newHand() {
    const next = game.sheet.next;
    const r = await api("GET", `/api/v1/deal?deck=${rules().deck}`);
    if (!r.ok) { refused(r); return false; }
    const h = { number: next.number, contract: next.contract, dealer: next.dealer, leader: next.leader,
                trump: null, deal: r.body.deal, seed: r.body.seed, play: [], phase: "play",
                helped: false, sale: null, bid: null, festa: null, choice: null };
    if (h.contract === null) h.choice = { kind: "contract", seat: h.leader };
    else if (h.contract === "festa" && rules().schedule.includes("festa")) {
      const bidders = [1, 2, 3].map((k) => after(h.dealer, k));
      h.choice = { kind: "bid", seat: bidders[0], bidders, active: bidders, standing: null };
    } else if (contractOf(h.contract).trump === "named" || contractOf(h.contract).trump === "named-or-none") {
      h.choice = hasSale(h) ? { kind: "sale", seat: h.dealer } : { kind: "trump", seat: h.dealer };
    }
    if (h.choice) h.phase = "choose";
    game.hand = h;
    page.legal = null;
    return true;
  }

  // docs/rules.md 10: the Italian trumps hands may be sold by their dealer.
  const hasSale = (h) => h.contract === "trumps" && h.dealer !== null && !rules().quotas;

  // --- the play ---------------------------------------------------------------------
  function position(h) {
    const body = { variant: ruleSet(), contract: h.contract, deal: h.deal, leader: h.leader, play: h.play };
    if (h.trump) body.trump = h.trump;
    if (game.doubles && contractOf(h.contract).kind === "tricks") body.doubles = true;
    return body;
  }

  async function playStep(h) {
    const r = await api("POST", "/api/v1/legal", position(h));
    if (!r.ok) { refused(r); return false; }
    page.legal = r.body;
    if (r.body.complete) return finishHand(h);
    const seat = r.body.to_move;
    if (!engineSeat(seat)) { render(); return false; }
    render();
    const started = performance.now();
    const card = await engineCard(h, seat, r.body.legal);
    if (card === null || game.hand !== h) return false;
    const wait = PACE_MS[game.pace] - (performance.now() - started);
    if (wait > 0) await sleep(wait);
    h.play.push(card);
    return true;
  }

  // The engine's card: its hint from the seat's own view. The hint engine plays trick
  // contracts only: in the domino the engine plays the first card /legal lists.
  async function engineCard(h, seat, legal) {
    if (contractOf(h.contract).kind !== "tricks") return legal[0];
    if (legal.length === 1) return legal[0];
    const r = await api("POST", "/api/v1/hint", { ...seatView(h, seat), level: engineLevel(game.level), ms: HINT_MS });
    if (!r.ok) { refused(r); return null; }
    return r.body.recommended;
  }

  // What a seat knows of the hand: its own cards as dealt and what everybody sees.
  function seatView(h, seat) {
    const view = { variant: ruleSet(), contract: h.contract, seat, hand: handText(dealtHand(seat)),
                   leader: h.leader, play: h.play };
    if (h.trump) view.trump = h.trump;
    if (game.doubles) view.doubles = true;
    return view;
  }

  function playerCard(card) {
    const h = game && game.hand;
    if (!h || h.phase !== "play" || page.busy || !page.legal || page.legal.to_move !== game.seat) return;
    if (!page.legal.legal.includes(card)) return;
    h.play.push(card);
    page.hint = null;
    page.legal = null;
    save();
    render();           // the card leaves the hand at once, and no other can be played
    advance();
  }

  async function askHint() {
    const h = game && game.hand;
    if (!h || page.busy) return;
    h.helped = true;
    save();
    const body = h.phase === "play" ? { ...seatView(h, game.seat), level: page.levels.default, ms: HINT_MS }
      : choiceHintRequest(h, h.choice, game.seat, page.levels.default);
    if (!body) return;
    $("g-hint-text").textContent = t("hint.asking");
    const r = await api("POST", "/api/v1/hint", body);
    if (!r.ok) { refused(r); return; }
    page.hint = r.body;
    render();
  }

  // --- the end of a hand: its record, and the library's score sheet -----------------
  function recordText(h) {
    const quote = (v) => `"${String(v).replace(/\\/g, "\\\\").replace(/"/g, "\\\"")}"`;
    const tags = [["Event", t("record.event")], ["Hand", h.number], ["Variant", rules().name]];
    if (game.document) tags.push(["Rules", JSON.stringify(game.document)]);
    tags.push(["Contract", h.contract]);
    const trumpNeeded = ["named", "named-or-none"].includes(contractOf(h.contract).trump);
    if (h.trump || (trumpNeeded && h.festa !== "433")) tags.push(["Trump", h.trump || "-"]);
    if (h.dealer) tags.push(["Dealer", h.dealer]);
    tags.push(["Leader", h.leader], ["Doubles", game.doubles ? "true" : "false"], ["Seed", h.seed]);
    if (h.sale) tags.push(["Sale", `${h.sale.buyer} ${h.sale.price}`]);
    if (h.bid) tags.push(["Bid", `${h.bid.bidder} ${h.bid.tricks}${h.bid.kind === "null" ? " null" : ""}`]);
    if (h.festa) tags.push(["Festa", h.festa]);
    tags.push(["Deal", h.deal]);
    const lines = h.helped ? [`; ${t("record.helped")}`] : [];
    lines.push(...tags.map(([k, v]) => `[${k} ${quote(v)}]`));
    if (h.festa !== "433") {
      lines.push(`[Play ${quote(h.leader)}]`);
      const per = contractOf(h.contract).kind === "tricks" ? 4 : 8;
      for (let i = 0; i < h.play.length; i += per) lines.push(h.play.slice(i, i + per).join(" "));
    }
    return lines.join("\n") + "\n";
  }

  async function finishHand(h) {
    const text = recordText(h);
    const r = await api("POST", "/api/v1/sheet", { variant: ruleSet(), doubles: game.doubles,
                                                   records: [...game.records, text].join("\n") });
    if (!r.ok) { refused(r); return false; }
    game.records.push(text);
    if (h.helped) game.helped.push(h.number);
    game.sheet = r.body;
    h.phase = "over";
    return false;
  }

  function nextHand() {
    if (!game || !game.hand || game.hand.phase !== "over") return;
    game.hand = null;
    page.legal = null;
    page.hint = null;
    render();
    advance();
  }

  // --- the choices before the play ------------------------------------------------------
  // Each choice names the seat whose turn it is; an engine seat asks its hint, the
  // player answers in the choice panel (choose()).
  async function choiceStep(h) {
    const c = h.choice;
    if (!engineSeat(c.seat)) { render(); return false; }
    render();
    const started = performance.now();
    const answer = await engineChoice(h, c);
    if (answer === null || game.hand !== h) return false;
    const wait = PACE_MS[game.pace] - (performance.now() - started);
    if (wait > 0) await sleep(wait);
    choose(answer, false);
    return true;
  }

  // The engine's level: a game saved under a level the server no longer lists plays at
  // the default one.
  function engineLevel(level) {
    return page.levels.levels.some((l) => l.level === level) ? level : page.levels.default;
  }

  function choiceHintRequest(h, c, seat, level) {
    const base = { variant: ruleSet(), seat, hand: handText(dealtHand(seat)), level, ms: HINT_MS };
    if (c.kind === "contract") return { ...base, choice: "contract", contracts: game.sheet.choices };
    if (c.kind === "sale") return { ...base, choice: "sale" };
    if (c.kind === "trump" || c.kind === "buy" || c.kind === "declare") {
      return { ...base, choice: "trump", contract: h.contract, leader: h.leader };
    }
    if (["bid", "raise", "bidder-plays"].includes(c.kind)) return { ...base, choice: "festa", role: "bidder" };
    if (c.kind === "host" || c.kind === "host-plays") return { ...base, choice: "festa", role: "host" };
    return null;
  }

  async function engineChoice(h, c) {
    const r = await api("POST", "/api/v1/hint", choiceHintRequest(h, c, c.seat, engineLevel(game.level)));
    if (!r.ok) { refused(r); return null; }
    return thumb(h, c, r.body);
  }

  // Where the hint ranks no answer (buy or not, bid or pass, accept or not, raise to 8
  // or not), the engine follows a stated rule of thumb: yes when what its hint expects
  // beats an even share of what the hand hands out.
  const EVEN_SHARE = 4;     // a trick contract's points shared by four seats
  const bidPoints = (bid) => bid.tricks * (bid.kind === "null" ? 75 : 25);
  // docs/rules.md 6: a bid beats the standing one, or holds it (the same bid) from a
  // seat nearer the host's left than the standing bidder.
  const mayBid = (c, seat, bid) => beats(bid, c.standing) || (c.standing && bid.kind === c.standing.kind
    && bid.tricks === c.standing.tricks && c.bidders.indexOf(seat) < c.bidders.indexOf(c.standing.bidder));
  const beats = (a, b) => !b || bidPoints(a) > bidPoints(b) || (bidPoints(a) === bidPoints(b) && a.kind === "null" && b.kind === "plus");

  // The engine's answer from its hint: the recommended option, or where the choice is
  // a yes or no the hint does not rank, the rule of thumb above.
  function thumb(h, c, hint) {
    const best = hint.options[0];
    if (c.kind === "buy") {
      return best.mean - c.price > tricksPerHand() / EVEN_SHARE ? { buy: true, trump: best.option } : { buy: false };
    }
    if (c.kind === "bid") {       // the best-valued bid that may stand, if worth more than a share
      const open = hint.options.filter((o) => o.mean > 325 / EVEN_SHARE && mayBid(c, c.seat, parseBid(o.option)));
      return { bid: open.length ? parseBid(open[0].option) : null };
    }
    if (c.kind === "host") {
      return { accept: bidPoints(c.standing) + 325 / EVEN_SHARE >= best.mean };
    }
    if (c.kind === "raise") {
      const eight = hint.options.find((o) => o.option === "8 plus");
      return { raise: Boolean(eight && eight.mean > 325 / EVEN_SHARE) };
    }
    if (c.kind === "bidder-plays") {
      const same = hint.options.find((o) => o.option === `${c.bid.tricks} ${c.bid.kind}`) || best;
      return festaPlay(same.play);
    }
    if (c.kind === "host-plays") return festaPlay(hint.recommended);
    return { option: hint.recommended, options: hint.options };
  }

  const parseBid = (text) => { const [n, kind] = text.split(" "); return { tricks: Number(n), kind }; };

  // "D bidder leads", "null next leads", "433": the trump (or null) and who leads.
  function festaPlay(text) {
    if (text === "433") return { play: "433" };
    const [what, who] = text.split(" ");
    return { play: what === "null" ? "null" : "festa", trump: what === "null" ? null : what,
             next: who === "next" };
  }

  // The answer of the seat whose turn it is, the engine's or the player's.
  function choose(answer, byPlayer = true) {
    const h = game.hand;
    const c = h.choice;
    if (byPlayer && (page.busy || engineSeat(c.seat))) return;
    CHOICES[c.kind](h, c, answer);
    if (!h.choice) h.phase = "play";
    page.hint = null;
    save();
    if (byPlayer) advance();
  }

  const suitOf = (option) => (SUITS.includes(option) ? option : null);

  const CHOICES = {
    contract(h, c, a) {
      const [name, trump] = a.option.split(" ");
      h.contract = name;
      if (name === "trumps" && !trump) h.choice = { kind: "declare", seat: c.seat };
      else { h.trump = trump || null; h.choice = null; }
    },
    trump(h, c, a) { h.trump = suitOf(a.option); h.choice = null; },
    declare(h, c, a) { h.trump = suitOf(a.option); h.choice = null; },
    sale(h, c, a) {
      if (a.option === "declare" || SUITS.includes(a.option)) {
        const declared = a.options ? a.options.find((o) => o.option === "declare") : null;
        h.trump = suitOf(SUITS.includes(a.option) ? a.option : declared && declared.trump);
        h.choice = h.trump || rules().contracts.trumps.trump === "named-or-none" ? null : { kind: "trump", seat: c.seat };
        return;
      }
      const price = Number(a.option.split(" ")[1]);
      h.choice = { kind: "buy", seat: after(h.dealer), price, asked: 1 };
    },
    buy(h, c, a) {
      if (a.buy) {
        h.sale = { buyer: c.seat, price: c.price };
        h.choice = a.trump && engineSeat(c.seat) ? null : { kind: "declare", seat: c.seat };
        if (!h.choice) h.trump = suitOf(a.trump);
      } else if (c.asked < 3) {
        h.choice = { ...c, seat: after(c.seat), asked: c.asked + 1 };
      } else {
        h.choice = { kind: "trump", seat: h.dealer };      // nobody bought: the dealer declares
      }
    },
    // Round and round from the seat after the host; a seat that passes is out, and the
    // bidding ends once every seat but the standing bidder is out.
    bid(h, c, a) {
      const standing = a.bid ? { ...a.bid, bidder: c.seat } : c.standing;
      const active = a.bid ? c.active : c.active.filter((s) => s !== c.seat);
      const next = c.bidders.concat(c.bidders).slice(c.bidders.indexOf(c.seat) + 1)
        .find((s) => active.includes(s) && (!standing || s !== standing.bidder));
      if (next) h.choice = { ...c, seat: next, active, standing };
      else if (standing) h.choice = { kind: "host", seat: h.dealer, standing };
      else h.choice = { kind: "host-plays", seat: h.dealer };
    },
    host(h, c, a) {
      if (a.eightOrNull) { h.choice = { kind: "raise", seat: c.standing.bidder, standing: c.standing }; return; }
      if (!a.accept) { h.choice = { kind: "host-plays", seat: h.dealer }; return; }
      accepted(h, c.standing);
    },
    // docs/rules.md 6: to "8 or null" the bidder raises to 8 plus-tricks, or the host
    // plays null, nobody paying, and the seat after the host leads.
    raise(h, c, a) {
      if (a.raise) { accepted(h, { ...c.standing, tricks: 8 }); return; }
      h.bid = { bidder: c.standing.bidder, tricks: c.standing.tricks, kind: "plus" };
      h.festa = "refused";
      festaStart(h, h.dealer, { play: "null", next: true });
    },
    "bidder-plays"(h, c, a) { festaStart(h, c.seat, a); },
    "host-plays"(h, c, a) {
      h.festa = "host";
      if (a.play === "433") { h.festa = "433"; h.contract = "festa"; h.trump = null; h.choice = null; h.phase = "play"; return; }
      festaStart(h, c.seat, a.play === "null" ? { ...a, next: true } : a);
    },
  };

  function accepted(h, bid) {
    h.bid = { bidder: bid.bidder, tricks: bid.tricks, kind: bid.kind };
    h.festa = "accepted";
    h.choice = { kind: "bidder-plays", seat: h.bid.bidder, bid: h.bid };
  }

  // docs/rules.md 6: a festa is played with the trump named, or null; its leader is
  // the seat that chose it or the next one (the host's null: the next one).
  function festaStart(h, seat, a) {
    h.contract = a.play;
    h.trump = a.play === "festa" ? a.trump : null;
    h.leader = a.next ? after(seat) : seat;
    h.choice = null;
  }

  // --- rendering ------------------------------------------------------------------------
  const seatName = (seat) => t(`seat.${seat}`);
  const contractName = (name) => (name ? I.named("contract", name) : t("hand.chooser-picks"));
  const cardText = (card) => `${SYMBOL[card[0]]}${card[1] === "T" ? "10" : card[1]}`;

  function render() {
    $("game-setup").hidden = Boolean(game);
    $("game").hidden = !game;
    if (!game) { renderResume(); return; }
    renderStatus();
    renderChoice();
    renderSeats();
    renderCentre();
    renderSheet();
    renderAfter();
    renderHint();
  }

  function renderStatus() {
    const h = game.hand;
    if (!h) {
      $("g-hand-title").textContent = game.sheet.complete ? t("game.over") : t("hand.dealing");
      $("g-hand-info").textContent = game.sheet.complete ? finalText() : "";
      $("g-help").hidden = true;
      return;
    }
    $("g-hand-title").textContent = t("hand.title", { number: h.number, total: scheduleLength(), contract: contractName(h.contract) });
    const parts = [];
    if (h.dealer) parts.push(t("hand.dealer", { seat: seatName(h.dealer) }));
    if (h.phase !== "choose") parts.push(t("hand.leader", { seat: seatName(h.leader) }));
    if (h.trump) parts.push(t("hand.trump", { suit: t(`suit.${h.trump}`) }));
    else if (h.phase !== "choose" && h.contract === "trumps") parts.push(t("hand.no-trump"));
    if (h.sale) parts.push(t("hand.sold", { seat: seatName(h.sale.buyer), price: h.sale.price }));
    if (h.bid) parts.push(t("hand.bid", { seat: seatName(h.bid.bidder), bid: bidText(h.bid) }));
    $("g-hand-info").textContent = parts.join(" \u00b7 ");
    $("g-help").hidden = !h.helped;
  }

  const scheduleLength = () => (rules().quotas ? 20 : (game.doubles ? rules().doubles_schedule : rules().schedule).length);
  const bidText = (bid) => t(bid.kind === "null" ? "festa.bid-null" : "festa.bid-plus", { tricks: bid.tricks });

  function finalText() {
    const totals = game.doubles ? game.sheet.side_totals : game.sheet.totals;
    const best = Math.max(...Object.values(totals));
    const winners = Object.keys(totals).filter((k) => totals[k] === best).map((k) => sideName(k));
    return t("game.final", { winners: winners.join(", "), score: best });
  }

  const sideName = (key) => (key.length === 2 ? t(`side.${key}`) : seatName(key));

  function renderSeats() {
    const h = game.hand;
    const hands = h ? handsOf(h.deal) : null;
    const played = new Set(h ? h.play : []);
    const onMove = h && h.phase === "play" && page.legal && !page.legal.complete ? page.legal.to_move : h && h.choice ? h.choice.seat : null;
    for (const seat of SEATS) {
      const box = $(`g-seat-${seat}`);
      box.classList.toggle("on-move", seat === onMove);
      box.classList.toggle("you", seat === game.seat);
      const role = seat === game.seat ? t("seat.you") : t("seat.engine");
      const head = el("div", { class: "seat-head" }, el("span", { text: `${seatName(seat)} \u00b7 ${role}` }),
        h && h.dealer === seat ? el("span", { class: "value", text: t("seat.dealer") }) : null);
      const left = hands ? hands[seat].filter((c) => !played.has(c)) : [];
      box.replaceChildren(head, seat === game.seat ? ownCards(left, seat === onMove) : backs(left.length));
    }
  }

  function ownCards(cards, onMove) {
    const legal = onMove && page.legal && game.hand.phase === "play" ? new Set(page.legal.legal) : new Set();
    const recommended = page.hint && page.hint.cards ? page.hint.recommended : null;
    const rows = SUITS.map((s) => el("div", { class: "suit-row" }, el("span", { class: `suit-sym s-${s}`, text: SYMBOL[s] }),
      el("div", { class: "suit-cards" }, ...cards.filter((c) => c[0] === s)
        .sort((a, b) => RANKS.indexOf(a[1]) - RANKS.indexOf(b[1]))
        .map((c) => {
          const b = el("button", { type: "button", class: `card s-${s}${legal.has(c) ? " legal" : ""}${c === recommended ? " best" : ""}`,
                                   "data-card": c, text: c[1] === "T" ? "10" : c[1], "aria-label": cardText(c) });
          b.disabled = !legal.has(c) || page.busy;
          b.addEventListener("click", () => playerCard(c));
          return b;
        }))));
    return el("div", { class: "own-cards" }, ...rows);
  }

  function backs(n) {
    return el("div", { class: "backs", text: t("seat.cards", { count: n }) },
      el("div", { class: "back-row", "aria-hidden": "true" }, ...Array.from({ length: n }, () => el("span", { class: "back" }))));
  }

  function renderCentre() {
    const centre = $("g-centre");
    const h = game.hand;
    if (!h || !page.legal) { centre.replaceChildren(); return; }
    if (page.legal.layout) { centre.replaceChildren(dominoLayout(h)); return; }
    // the trick being played, else the last one taken until the next card
    const trick = page.legal.trick.length ? page.legal.trick : h.play.slice(-4);
    centre.replaceChildren(...trick.map((c) => el("div", { class: `played ${holder(h, c)} s-${c[0]}`, "data-card": c },
      el("span", { text: cardText(c) }), el("small", { text: seatName(holder(h, c)) }))));
  }

  const holder = (h, card) => { const hands = handsOf(h.deal); return SEATS.find((s) => hands[s].includes(card)); };

  function dominoLayout(h) {
    const played = new Set(h.play);
    return el("div", { class: "domino" }, ...SUITS.map((s) => el("div", { class: `suit-row s-${s}` },
      el("span", { class: "suit-sym", text: SYMBOL[s] }),
      el("span", { text: [...RANKS].reverse().filter((r) => played.has(s + r)).map((r) => (r === "T" ? "10" : r)).join(" ") || "\u2014" }))));
  }

  function renderSheet() {
    const sheet = game.sheet;
    const cols = game.doubles ? ["NS", "EW"] : sheet.seats;
    $("g-sheet").tHead.replaceChildren(el("tr", {}, el("th", { scope: "col", text: "#" }),
      el("th", { scope: "col", text: t("sheet.contract") }), ...cols.map((k) => el("th", { scope: "col", text: sideShort(k) })),
      el("th", { scope: "col", text: "" })));
    $("g-sheet").tBodies[0].replaceChildren(...sheet.hands.map((line, i) => {
      const scores = game.doubles ? line.sides : line.scores;
      const link = el("a", { href: reviewHref(game.records[i]), target: "_blank", rel: "noopener", class: "review-link",
                             title: t("after.review"), text: "R" });
      return el("tr", {}, el("td", { text: String(line.number) }), el("td", { text: contractName(line.contract || "festa") }),
        ...cols.map((k) => el("td", { class: "num", text: String(scores[k]) })),
        el("td", {}, game.helped.includes(line.number) ? el("span", { class: "helped", title: t("hand.helped"), text: "H " }) : null, link));
    }));
    const totals = game.doubles ? sheet.side_totals : sheet.totals;
    $("g-sheet").tFoot.replaceChildren(el("tr", {}, el("th", { scope: "row", colspan: 2, text: t("sheet.total") }),
      ...cols.map((k) => el("td", { class: "num", text: String(totals[k]) })), el("td")));
  }

  const sideShort = (key) => (key.length === 2 ? t(`side.${key}`) : t(`seat.short.${key}`));
  // A 32-card hand is reviewed whole; a 52-card one from the board's default start (its
  // last tricks), as a whole-hand review may take longer than one request is given.
  const reviewHref = (text) => `/#${new URLSearchParams({ review: text, from: rules().deck === 32 ? "1" : "auto" })}`;

  function renderAfter() {
    const h = game.hand;
    const over = h && h.phase === "over";
    $("g-after").hidden = !over;
    $("g-hint").disabled = !h || over || page.busy || !yourTurn(h);
    if (!over) return;
    const line = game.sheet.hands[game.sheet.hands.length - 1];
    const scores = game.doubles ? line.sides : line.scores;
    $("g-result").textContent = t("after.result", { scores: Object.entries(scores).map(([k, v]) => `${sideName(k)} ${v}`).join(" \u00b7 ") });
    $("g-review").href = reviewHref(game.records[game.records.length - 1]);
    $("g-review").hidden = h.festa === "433";
    $("g-next").textContent = game.sheet.complete ? t("after.final") : t("after.next");
  }

  const yourTurn = (h) => (h.phase === "choose" ? h.choice.seat === game.seat
    : Boolean(page.legal && !page.legal.complete && page.legal.to_move === game.seat));

  function renderHint() {
    const hint = page.hint;
    if (!hint) { $("g-hint-text").textContent = ""; return; }
    const text = hint.cards ? cardText(hint.recommended) : optionText(hint.recommended);
    $("g-hint-text").textContent = t("hint.answer", { option: text, samples: hint.samples });
  }

  function optionText(option) {
    if (SUITS.includes(option)) return t(`suit.${option}`);
    const [a, b] = option.split(" ");
    if (a in (rules().contracts || {})) return b ? `${contractName(a)} ${t(`suit.${b}`)}` : contractName(a);
    if (a === "sell") return t("sale.sell", { price: b });
    if (a === "declare") return t("sale.declare");
    if (/^\d+$/.test(a)) return bidText({ tricks: Number(a), kind: b });
    return option;
  }

  // --- the choice panel: the player's plain controls ---------------------------------
  function renderChoice() {
    const h = game.hand;
    const box = $("g-choice");
    box.hidden = !h || h.phase !== "choose";
    if (box.hidden) return;
    const c = h.choice;
    $("g-choice-title").textContent = t(`choice.${c.kind}`);
    const mine = !engineSeat(c.seat);
    $("g-choice-text").textContent = mine ? choicePrompt(c) : t("choice.waiting", { seat: seatName(c.seat) });
    $("g-choice-options").replaceChildren(...(mine && !page.busy ? PANELS[c.kind](h, c) : []));
  }

  function choicePrompt(c) {
    if (c.kind === "buy") return t("sale.offer", { seat: seatName(game.hand.dealer), price: c.price });
    if (c.kind === "host") return t("festa.standing", { seat: seatName(c.standing.bidder), bid: bidText(c.standing) });
    if (c.kind === "raise") return t("festa.eight-asked", { seat: seatName(game.hand.dealer) });
    if (c.kind === "bid" && c.standing) return t("festa.standing", { seat: seatName(c.standing.bidder), bid: bidText(c.standing) });
    return t("choice.yours");
  }

  const button = (text, answer, attrs = {}) => {
    const b = el("button", { type: "button", text, ...attrs });
    b.addEventListener("click", () => choose(answer));
    return b;
  };
  const suitButtons = (wrap) => SUITS.map((s) => button(`${SYMBOL[s]} ${t(`suit.${s}`)}`, wrap(s), { "data-option": s }));

  function salePanel(h) {
    const price = el("select", { id: "g-price", "aria-label": t("sale.price") },
      ...Array.from({ length: tricksPerHand() }, (_, k) => el("option", { value: String(k + 1), text: String(k + 1) })));
    const sell = el("button", { type: "button", id: "g-sell", text: t("sale.sell-button") });
    sell.addEventListener("click", () => choose({ option: `sell ${price.value}` }));
    const extra = rules().contracts.trumps.trump === "named-or-none" ? [button(t("hand.no-trump"), { option: "NT" })] : [];
    return [...suitButtons((s) => ({ option: s })), ...extra, el("span", { class: "or", text: t("sale.or") }), price, sell];
  }

  function bidPanel(h, c) {
    const options = [];
    for (let n = 1; n <= 3; n++) options.push({ tricks: n, kind: "null" });
    for (let n = 1; n <= 13; n++) options.push({ tricks: n, kind: "plus" });
    const open = options.filter((b) => mayBid(c, c.seat, b)).sort((a, b) => bidPoints(a) - bidPoints(b));
    const pick = el("select", { id: "g-bid", "aria-label": t("festa.your-bid") },
      ...open.map((b) => el("option", { value: `${b.tricks} ${b.kind}`, text: bidText(b) })));
    const bid = el("button", { type: "button", id: "g-bid-button", text: t("festa.bid") });
    bid.addEventListener("click", () => choose({ bid: parseBid(pick.value) }));
    const pass = button(t("festa.pass"), { bid: null }, { id: "g-pass" });
    return open.length ? [pick, bid, pass] : [pass];        // nothing left to outbid: pass
  }

  function festaPlayPanel(h, c, host) {
    const out = [];
    for (const next of [false, true]) {
      const who = t(next ? "festa.next-leads" : "festa.you-lead");
      if (!(c.bid && c.bid.kind === "null")) {
        out.push(...SUITS.map((s) => button(`${SYMBOL[s]} ${t(`suit.${s}`)} \u00b7 ${who}`, { play: "festa", trump: s, next },
                                            { "data-option": `${s}${next ? "-next" : ""}` })));
      }
      if (!host && c.bid && c.bid.kind === "null") out.push(button(`${t("festa.null")} \u00b7 ${who}`, { play: "null", next }));
    }
    if (host) out.push(button(t("festa.null"), { play: "null" }, { "data-option": "null" }),
                       button(t("festa.433"), { play: "433" }, { "data-option": "433" }));
    return out;
  }

  const PANELS = {
    contract: () => game.sheet.choices.map((name) => button(contractName(name), { option: name }, { "data-option": name })),
    trump: () => suitButtons((s) => ({ option: s })).concat(rules().contracts.trumps && rules().contracts.trumps.trump === "named-or-none"
      ? [button(t("hand.no-trump"), { option: "NT" })] : []),
    declare: () => suitButtons((s) => ({ option: s, trump: s, buy: true })),
    sale: salePanel,
    buy: () => [button(t("sale.buy"), { buy: true }, { id: "g-buy" }), button(t("sale.pass"), { buy: false }, { id: "g-no-buy" })],
    bid: bidPanel,
    host: (h, c) => [button(t("festa.accept"), { accept: true }, { id: "g-accept" }),
      button(t("festa.refuse"), { accept: false }, { id: "g-refuse" }),
      ...(c.standing.kind === "plus" && [6, 7].includes(c.standing.tricks)
        ? [button(t("festa.eight-or-null"), { eightOrNull: true }, { id: "g-8-or-null" })] : [])],
    raise: () => [button(t("festa.raise"), { raise: true }, { id: "g-raise" }),
      button(t("festa.drop"), { raise: false }, { id: "g-drop" })],
    "bidder-plays": (h, c) => festaPlayPanel(h, c, false),
    "host-plays": (h, c) => festaPlayPanel(h, c, true),
  };

  // --- save and load a whole game: its records, one after the other --------------------
  function saveGame() {
    const head = `; ${t("record.game")}\n; kingsolve-game ${JSON.stringify({ seat: game.seat, level: game.level, pace: game.pace, helped: game.helped })}\n\n`;
    const blob = new Blob([head + game.records.join("\n")], { type: "text/plain" });
    const a = el("a", { href: URL.createObjectURL(blob), download: `kingsolve-${rules().name}-game.txt` });
    document.body.append(a);
    a.click();
    a.remove();
  }

  async function loadGame() {
    const file = $("g-load").files[0];
    if (!file) return;
    const text = await file.text();
    const settings = JSON.parse((text.match(/^; kingsolve-game (.*)$/m) || [null, "{}"])[1]);
    const house = await recordRules(text);
    const variant = house ? HOUSE : (text.match(/^\[Variant "([^"]*)"\]/m) || [])[1];
    const doubles = /^\[Doubles "true"\]/m.test(text);
    if (!house && !(variant in page.variants)) { say(t("error.load"), "error"); return; }
    const records = text.split(/\n\s*\n/).map((b) => b.trim()).filter((b) => /^\[Variant/m.test(b)).map((b) => b + "\n");
    const r = await api("POST", "/api/v1/sheet", { variant: house ? house.document : variant, doubles, records: records.join("\n") });
    if (!r.ok) { refused(r); return; }
    game = { variant, ...house, doubles, seat: settings.seat || $("g-seat").value, level: settings.level ?? Number($("g-level").value),
             pace: settings.pace || $("g-pace").value, records, helped: settings.helped || [], sheet: r.body, hand: null };
    save();
    say(t("game.loaded", { hands: records.length }));
    advance();
  }

  // A saved game under house rules: the rule document of its records' tag Rules, checked.
  async function recordRules(text) {
    const tag = text.match(/^\[Rules "((?:[^"\\]|\\.)*)"\]/m);
    if (!tag) return null;
    return checkedRules(JSON.parse(tag[1].replace(/\\(.)/g, "$1")));
  }

  async function checkedRules(document) {
    const r = await api("POST", "/api/v1/variants/check", document);
    if (!r.ok) { refused(r); return null; }
    return { document, rules: r.body.rules };
  }

  // --- set-up ---------------------------------------------------------------------------
  function fill(select, items, keep) {
    select.replaceChildren(...items.map(([value, text]) => el("option", { value, text })));
    if (keep !== undefined && items.some(([v]) => v === keep)) select.value = keep;
  }

  function fillSetup() {
    const keep = (id) => $(id).value || undefined;
    const house = page.house ? [[HOUSE, t("setup.house", { name: page.house.rules.name })]] : [];
    fill($("g-variant"), Object.keys(page.variants).map((v) => [v, I.named("variant", v)]).concat(house),
         keep("g-variant") || "italian");
    fill($("g-seat"), SEATS.map((s) => [s, seatName(s)]), keep("g-seat") || "S");
    fill($("g-level"), page.levels.levels.map((l) => [String(l.level), `${l.level} \u00b7 ${I.named("level", l.name)}`]),
         keep("g-level") || String(page.levels.default));
    fill($("g-pace"), Object.keys(PACE_MS).map((p) => [p, t(`pace.${p}`)]), keep("g-pace") || "normal");
    onVariant();
  }

  function onVariant() {
    const v = $("g-variant").value === HOUSE ? page.house.rules : page.variants[$("g-variant").value];
    $("g-doubles").disabled = !(v && v.doubles);
    if ($("g-doubles").disabled) $("g-doubles").checked = false;
  }

  // The house rules the analysis board keeps (docs/rules.md 13), offered as a rule set.
  async function keptHouseRules() {
    let kept = null;
    try { kept = JSON.parse(localStorage.getItem(HOUSE_KEPT)); } catch (err) { /* none kept */ }
    return kept && kept.document ? checkedRules(kept.document) : null;
  }

  async function start() {
    await I.load();
    I.apply();
    const [variants, levels] = await Promise.all([api("GET", "/api/v1/variants"), api("GET", "/api/v1/levels")]);
    if (!variants.ok || !levels.ok) { say(t("error.refused", { message: (variants.ok ? levels : variants).body.message }), "error"); return; }
    page.variants = variants.body;
    page.levels = levels.body;
    page.house = await keptHouseRules();
    fillSetup();
    $("g-variant").addEventListener("change", onVariant);
    $("game-setup").addEventListener("submit", newGame);
    $("g-load").addEventListener("change", loadGame);
    I.menu($("lang"), () => { fillSetup(); render(); });
    $("g-next").addEventListener("click", nextHand);
    $("g-hint").addEventListener("click", askHint);
    $("g-save").addEventListener("click", saveGame);
    $("g-quit").addEventListener("click", quit);
    $("g-retry").addEventListener("click", () => { say(""); advance(); });
    $("g-resume-button").addEventListener("click", resume);
    game = restore();
    if (game && !game.rules && !(game.variant in page.variants)) game = null;
    render();
    if (game) advance();
  }

  document.addEventListener("DOMContentLoaded", start);
})();
