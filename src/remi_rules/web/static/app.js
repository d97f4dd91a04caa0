// The reference web table's page.  It implements no rule: every control sends a step
// in the library's JSON form, chosen from (or checked against) the legal steps the
// server sent, and shows what the server answers.  Its strings come from the gettext
// catalogues (GET /api/i18n/<lang>).
"use strict";

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...kids) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids) if (kid !== null && kid !== undefined) node.append(kid);
  return node;
};

const app = {
  config: null, strings: {}, lang: "en",
  ws: null, seat: null, tiles: [], players: 0, kinds: [], rules: "",
  state: null, legal: [], rackOrder: [], selected: new Set(), hint: null,
  table: null, token: null, closedWhy: null, retry: 0,
  updates: 0, refusals: 0, hints: 0, // counts of the messages received, for tests
};
window.remiTable = app; // for tests and for anyone reading the page from the console

// -- strings ---------------------------------------------------------------------------
function t(key, params = {}) {
  const template = app.strings[key];
  if (template === undefined) return key;
  return template.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : "?"));
}
function applyStrings() {
  document.documentElement.lang = app.lang;
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
  $("rounds").placeholder = t("rounds_default");
}
async function loadStrings(lang) {
  const answer = await fetch(`/api/i18n/${lang}`);
  app.strings = await answer.json();
  app.lang = lang;
  localStorage.setItem("remi-lang", lang);
  applyStrings();
}
function seatName(seat) {
  if (seat === null || seat === undefined) return t("spectator");
  return seat === app.seat ? t("you", { n: seat }) : t("seat", { n: seat });
}
function kindName(kind) { return t(`kind_${kind}`); }
function tileText(id) { return app.tiles[id] ? app.tiles[id].text : "?"; }

// -- tiles -----------------------------------------------------------------------------
function tileNode(id, opts = {}) {
  const info = app.tiles[id] || { text: "?", color: null, joker: false };
  const label = opts.text || info.text;
  const node = el("button", {
    type: "button",
    class: `tile ${info.joker ? "joker" : "c-" + info.color}`,
    "data-id": id,
    title: label,
    "aria-label": label,
  }, info.joker ? "J" : String(info.rank));
  return node;
}

// -- lobby -----------------------------------------------------------------------------
function renderSeatKinds() {
  const n = Number($("players").value);
  const box = $("seat-kinds");
  const before = [...box.querySelectorAll("select")].map((s) => s.value);
  box.querySelectorAll("label").forEach((x) => x.remove());
  for (let s = 0; s < n; s++) {
    const select = el("select", { "data-seat": s, id: `kind-${s}` });
    for (const kind of app.config.seat_kinds) {
      select.append(el("option", { value: kind, text: kindName(kind) }));
    }
    select.value = before[s] || (s === 0 ? "human" : app.config.bots);
    box.append(el("label", {}, el("span", { text: t("seat", { n: s }) }), select));
  }
}
async function refreshTables() {
  const list = await (await fetch("/api/tables")).json();
  const ul = $("tables");
  ul.replaceChildren();
  if (!list.length) ul.append(el("li", { text: t("no_tables") }));
  for (const table of list) {
    const seats = table.seats.map(kindName).join(", ");
    ul.append(el("li", {},
      el("a", { href: `/t/${table.id}`, text: t("watch") }), " ",
      t("table_line", { rules: table.rules, seats, round: table.round, rounds: table.rounds })));
  }
}
async function createTable(event) {
  event.preventDefault();
  $("lobby-error").textContent = "";
  const n = Number($("players").value);
  const seats = [];
  for (let s = 0; s < n; s++) seats.push($(`kind-${s}`).value);
  const body = { seats };
  if ($("variant").value === "__house__") body.house_rules = $("house").value;
  else body.variant = $("variant").value;
  if ($("rounds").value) body.rounds = Number($("rounds").value);
  const answer = await fetch(`/api/tables?lang=${app.lang}`, {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await answer.json();
  if (!answer.ok) { $("lobby-error").textContent = data.error.message; return; }
  const ul = $("links");
  ul.replaceChildren();
  for (const link of data.links) {
    const url = new URL(link.url, location.href).href;
    ul.append(el("li", {}, t("seat", { n: link.seat }), ": ", el("a", { href: url, class: "seat-link", text: url })));
  }
  ul.append(el("li", {}, t("spectators"), ": ", el("a", { href: data.watch, text: new URL(data.watch, location.href).href })));
  $("created").hidden = false;
  refreshTables();
  if (data.links.length) location.href = data.links[0].url;
}
function setupLobby() {
  const variant = $("variant");
  for (const name of app.config.variants) variant.append(el("option", { value: name, text: name }));
  variant.append(el("option", { value: "__house__", "data-t": "house_option", text: t("house_option") }));
  variant.value = app.config.house_rules ? "__house__" : app.config.variant;
  if (app.config.house_rules) { $("house").value = app.config.house_rules; $("house-label").hidden = false; }
  variant.addEventListener("change", () => { $("house-label").hidden = variant.value !== "__house__"; });
  $("house-file").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (file) $("house").value = await file.text();
  });
  $("players").addEventListener("change", renderSeatKinds);
  $("new-table").addEventListener("submit", createTable);
  renderSeatKinds();
  refreshTables();
  $("lobby").hidden = false;
}

// -- the connection -----------------------------------------------------------------------
function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const query = new URLSearchParams({ lang: app.lang });
  if (app.token) query.set("token", app.token);
  const ws = new WebSocket(`${proto}://${location.host}/ws/${app.table}?${query}`);
  app.ws = ws;
  ws.onmessage = (event) => receive(JSON.parse(event.data));
  ws.onopen = () => { app.retry = 0; };
  ws.onclose = (event) => {
    app.closedWhy = event.reason || String(event.code);
    setStatus(t("disconnected", { why: app.closedWhy }));
    if (event.code !== 1008 && event.code !== 1009 && app.retry < 5) {
      app.retry += 1;
      setTimeout(connect, 500 * app.retry); // reconnect with the same token
    }
  };
}
function send(message) {
  if (app.ws && app.ws.readyState === WebSocket.OPEN) app.ws.send(JSON.stringify(message));
}
function sendStep(step) {
  showMessage("");
  app.hint = null;
  renderHint();
  send({ type: "step", step });
}
function receive(msg) {
  if (msg.type === "welcome") {
    app.seat = msg.seat; app.tiles = msg.tiles; app.players = msg.players;
    app.kinds = msg.seats; app.rules = msg.rules;
    $("log").replaceChildren();
  } else if (msg.type === "update") {
    app.updates += 1;
    if (msg.fresh) { $("log").replaceChildren(); app.endRacks = null; }
    app.state = msg;
    app.legal = msg.legal;
    appendLog(msg.log, msg.events);
    render();
  } else if (msg.type === "refused") {
    app.refusals += 1;
    showMessage(msg.error.message, msg.error.code);
  } else if (msg.type === "hint") {
    app.hints += 1;
    app.hint = msg;
    renderHint();
  }
}
function showMessage(text, code) {
  const box = $("message");
  box.textContent = text;
  box.dataset.code = code || "";
}
function setStatus(text) { $("status").textContent = text; }

// -- the log ---------------------------------------------------------------------------------
// The events no step of the log stands for: what the engine did by itself.
const EVENT_LINES = new Set(["announced", "announcement_missed", "atu_returned", "stock_reshuffled", "round_ended"]);
function appendLog(lines, events) {
  const ol = $("log");
  for (const line of lines) {
    const text = line.text === null ? t("step_hidden", { kind: t(`step_${line.kind}`) }) : line.text;
    ol.append(el("li", { class: "step", "data-kind": line.kind, "data-seat": line.seat },
      `${seatName(line.seat)}: ${text}`));
  }
  for (const event of events) {
    if (event.kind === "round_ended") app.endRacks = event.racks; // public once it is over
    if (!EVENT_LINES.has(event.kind) || (event.kind === "announced" && !event.automatic)) continue;
    const params = { seat: seatName(event.seat), tile: event.atu == null ? "?" : tileText(event.atu),
      what: event.what ? t(`announce_${event.what}`) : "", reason: event.reason ? t(`end_${event.reason}`) : "" };
    ol.append(el("li", { class: "event", "data-kind": event.kind }, t(`ev_${event.kind}`, params)));
  }
  ol.scrollTop = ol.scrollHeight;
}

// -- rendering the table -----------------------------------------------------------------------
function legalOf(kind) { return app.legal.filter((entry) => entry.step.kind === kind); }
function findLegal(test) { return app.legal.find((entry) => test(entry.step)); }
function sameSet(a, b) {
  if (a.length !== b.length) return false;
  const s = new Set(a);
  return b.every((x) => s.has(x));
}

function render() {
  const msg = app.state;
  const view = msg.view;
  const myTurn = app.seat !== null && view.current === app.seat && !msg.result;
  const who = msg.result ? t("round_over") : (myTurn ? t("your_turn") : t("turn_of", { seat: seatName(view.current) }));
  setStatus(`${app.rules} · ${t("round_of", { round: msg.match.round, rounds: msg.match.rounds })} · ${who}` +
    (msg.failed ? ` · ${msg.failed}` : ""));
  renderSeats(msg);
  $("stock-count").textContent = String(view.stock_count);
  $("stock").disabled = !legalOf("draw").length;
  const atu = $("atu");
  atu.replaceChildren();
  if (view.atu_face_up) {
    const node = tileNode(view.atu);
    node.id = "atu-tile";
    if (legalOf("take_atu").length) node.classList.add("takeable");
    node.addEventListener("click", () => sendStep({ kind: "take_atu" }));
    atu.append(node);
  } else {
    atu.append(el("span", { text: t("atu_taken", { tile: tileText(view.atu) }) }));
  }
  renderRow(view);
  renderMelds(msg.melds);
  renderRack(view);
  renderControls(msg);
  renderResult(msg);
  renderHint();
}

function renderSeats(msg) {
  const box = $("seats");
  box.replaceChildren();
  msg.view.seats.forEach((seat, s) => {
    const badges = el("div", { class: "badges" });
    const add = (key) => badges.append(el("span", { text: t(key) }));
    if (seat.opened) add("opened");
    if (seat.announced_few) add("announced_few");
    if (seat.announced_atu) add("announced_atu");
    if (seat.declared_pe_tabla) add("declared_pe_tabla");
    if (seat.missed_announcement) add("missed_announcement");
    if (app.kinds[s] === "human") add(msg.connected.includes(s) ? "online" : "offline");
    box.append(el("div", { class: `seat${msg.view.current === s && !msg.result ? " turn" : ""}`, "data-seat": s },
      el("div", { class: "name", text: `${seatName(s)} · ${kindName(app.kinds[s])}` }),
      el("div", { class: "count", text: msg.tiles_text[s] }),
      el("div", { class: "total", text: t("total", { n: msg.match.totals[s] }) }),
      badges));
  });
}

function renderRow(view) {
  const row = $("row");
  row.replaceChildren();
  const last = view.row.length - 1;
  view.row.forEach((id, index) => {
    const node = tileNode(id);
    node.dataset.index = index;
    const take = index === last ? findLegal((s) => s.kind === "take_last_discard") : null;
    const rupere = findLegal((s) => s.kind === "rupere" && s.index === index);
    if (take || rupere) node.classList.add("takeable");
    node.addEventListener("click", () => {
      if (index === last && take) sendStep({ kind: "take_last_discard" });
      else sendStep({ kind: "rupere", index });
    });
    row.append(node);
  });
  row.ondragover = (e) => e.preventDefault();
  row.ondrop = (e) => {
    e.preventDefault();
    const id = Number(e.dataTransfer.getData("text/plain"));
    if (!Number.isNaN(id)) sendStep({ kind: "discard", tile: id });
  };
}

function renderMelds(melds) {
  const box = $("melds");
  box.replaceChildren();
  const chosen = [...app.selected];
  melds.forEach((meld, index) => {
    const tiles = el("div", { class: "tiles" });
    const jokerAt = new Map(meld.jokers.map((j) => [j.id, j]));
    meld.ids.forEach((id, k) => {
      const slot = jokerAt.get(id);
      const node = tileNode(id, { text: meld.text[k] + (slot ? ` = ${slot.stands_for.join("/")}` : "") });
      if (slot) node.dataset.joker = id;
      node.dataset.end = k < meld.ids.length / 2 ? "low" : "high";
      tiles.append(node);
    });
    const kind = t(`meld_${meld.kind}`);
    const box1 = el("div", { class: "meld", "data-meld": index },
      el("div", { class: "about", text: `${seatName(meld.owner)} · ${kind} · ${meld.points_text}` }),
      tiles);
    if (chosen.length === 1 && findLegal((s) => (s.kind === "lay_off" || s.kind === "swap_joker") && s.meld === index && s.tile === chosen[0])) {
      box1.classList.add("target");
    }
    box1.addEventListener("click", (e) => {
      const tile = e.target.closest(".tile");
      dropOnMeld(index, tile ? tile.dataset : {}, [...app.selected]);
    });
    box1.addEventListener("dragover", (e) => e.preventDefault());
    box1.addEventListener("drop", (e) => {
      e.preventDefault();
      const id = Number(e.dataTransfer.getData("text/plain"));
      const tile = e.target.closest(".tile");
      if (!Number.isNaN(id)) dropOnMeld(index, tile ? tile.dataset : {}, [id]);
    });
    box.append(box1);
  });
  if (!melds.length) box.append(el("div", { class: "caption", text: t("no_melds") }));
}

// A tile put on a meld: on a joker's slot, a swap; else a lay-off, at the end the
// legal steps name (or, when both ends are legal, the end it was put at).  A step that
// is not legal is sent all the same, so that the library says why.
function dropOnMeld(meld, where, ids) {
  if (ids.length !== 1) { showMessage(t("select_one")); return; }
  const tile = ids[0];
  if (where.joker !== undefined) {
    const joker = Number(where.joker);
    sendStep({ kind: "swap_joker", tile, meld, joker });
    app.selected.clear();
    return;
  }
  const options = app.legal.filter((e) => e.step.kind === "lay_off" && e.step.tile === tile && e.step.meld === meld);
  let step = { kind: "lay_off", tile, meld, end: null };
  if (options.length === 1) step = options[0].step;
  else if (options.length > 1) step = (options.find((e) => e.step.end === where.end) || options[0]).step;
  app.selected.clear();
  sendStep(step);
}

function sortRack(by) {
  const key = (id) => {
    const info = app.tiles[id];
    const colour = info.joker ? 9 : "RGAN".indexOf(info.color);
    const rank = info.joker ? 99 : info.rank;
    return by === "color" ? [colour, rank, id] : [rank, colour, id];
  };
  app.rackOrder.sort((a, b) => {
    const ka = key(a), kb = key(b);
    for (let i = 0; i < 3; i++) if (ka[i] !== kb[i]) return ka[i] - kb[i];
    return 0;
  });
  render();
}

function renderRack(view) {
  const rack = $("rack");
  rack.replaceChildren();
  const ids = view.rack || [];
  const present = new Set(ids);
  const fresh = ids.filter((id) => !app.rackOrder.includes(id));
  app.rackOrder = app.rackOrder.filter((id) => present.has(id)).concat(fresh);
  for (const id of [...app.selected]) if (!present.has(id)) app.selected.delete(id);
  const hinted = new Set(hintedTiles());
  for (const id of app.rackOrder) {
    const node = tileNode(id);
    node.draggable = true;
    if (app.selected.has(id)) node.classList.add("selected");
    if (hinted.has(id)) node.classList.add("hinted");
    node.addEventListener("click", () => {
      if (app.selected.has(id)) app.selected.delete(id); else app.selected.add(id);
      render();
    });
    node.addEventListener("dragstart", (e) => {
      e.dataTransfer.setData("text/plain", String(id));
      node.classList.add("dragging");
    });
    node.addEventListener("dragend", () => node.classList.remove("dragging"));
    node.addEventListener("dragover", (e) => e.preventDefault());
    node.addEventListener("drop", (e) => { // reorder within the rack
      e.preventDefault();
      e.stopPropagation();
      const moved = Number(e.dataTransfer.getData("text/plain"));
      if (Number.isNaN(moved) || moved === id || !app.rackOrder.includes(moved)) return;
      const order = app.rackOrder.filter((x) => x !== moved);
      order.splice(order.indexOf(id), 0, moved);
      app.rackOrder = order;
      render();
    });
    rack.append(node);
  }
}

function button(key, onclick, { enabled = true, id = null, cls = "", title = null } = {}) {
  return el("button", { type: "button", id, class: cls, disabled: !enabled, title, onclick, text: t(key) });
}

function renderControls(msg) {
  const controls = $("controls");
  controls.replaceChildren();
  const extra = $("extra");
  extra.replaceChildren();
  if (app.seat === null) { controls.append(el("span", { text: t("watching") })); return; }
  const chosen = [...app.selected];
  const one = chosen.length === 1 ? chosen[0] : null;
  const mark = (entry) => (entry && entry.finishable === false ? "unfinishable" : "");
  const drawEntry = legalOf("draw")[0];
  controls.append(button("draw", () => sendStep({ kind: "draw" }), { enabled: !!drawEntry, id: "btn-draw", cls: mark(drawEntry) }));
  const take = legalOf("take_last_discard")[0];
  controls.append(button("take_last", () => sendStep({ kind: "take_last_discard" }), { enabled: !!take, id: "btn-take", cls: mark(take) }));
  const meldEntry = chosen.length >= 3 ? findLegal((s) => s.kind === "meld" && sameSet(s.tiles, chosen)) : null;
  controls.append(button("meld", () => {
    const step = meldEntry ? meldEntry.step : { kind: "meld", tiles: app.rackOrder.filter((id) => app.selected.has(id)) };
    app.selected.clear();
    sendStep(step);
  }, { enabled: chosen.length >= 1 && legalOf("meld").length > 0, id: "btn-meld", cls: mark(meldEntry) }));
  const discard = one !== null ? findLegal((s) => s.kind === "discard" && s.tile === one) : null;
  controls.append(button("discard", () => { app.selected.clear(); sendStep({ kind: "discard", tile: one }); },
    { enabled: one !== null && legalOf("discard").length > 0, id: "btn-discard", cls: mark(discard) }));
  const close = one !== null ? findLegal((s) => s.kind === "close" && s.tile === one) : null;
  controls.append(button("close", () => { app.selected.clear(); sendStep({ kind: "close", tile: one }); },
    { enabled: one !== null && legalOf("close").length > 0, id: "btn-close", cls: mark(close) }));
  controls.append(button("undo", () => sendStep({ kind: "undo" }), { enabled: legalOf("undo").length > 0, id: "btn-undo" }));
  controls.append(button("hint", () => { showMessage(""); send({ type: "hint" }); },
    { enabled: msg.view.current === app.seat && !msg.result, id: "btn-hint", cls: "primary" }));
  // Every other step the seat may make now (announcements, pe tablă, a redeal, the
  // doubles exchange …): one button each, labelled by its kind and the library's text.
  const handled = new Set(["draw", "take_last_discard", "rupere", "take_atu", "meld", "lay_off", "swap_joker", "discard", "close", "undo"]);
  for (const entry of app.legal) {
    if (handled.has(entry.step.kind)) continue;
    extra.append(el("button", {
      type: "button", class: `other ${mark(entry)}`, "data-kind": entry.step.kind,
      onclick: () => sendStep(entry.step),
      text: `${t(`step_${entry.step.kind}`)} (${entry.label})`,
    }));
  }
  if (msg.result && !msg.match.over) {
    extra.append(button("next_round", () => send({ type: "next_round" }), { id: "btn-next", cls: "primary" }));
  }
}

function hintedTiles() {
  if (!app.hint || !app.hint.steps.length) return [];
  const step = app.hint.steps[0].step;
  return step.tiles || (step.tile !== undefined ? [step.tile] : []);
}
function renderHint() {
  const box = $("hint");
  if (!app.hint) { box.replaceChildren(); return; }
  const steps = app.hint.steps.map((s) => s.label).join(" → ");
  box.replaceChildren(el("b", { text: `${t("hint")}: ` }), el("span", { class: "reason", text: app.hint.reason }),
    el("div", { class: "caption", text: steps }));
}

const TERMS = ["melded", "credits", "rack", "closing_bonus", "atu_bonus", "flat_penalty", "multiplier", "total"];
function renderResult(msg) {
  const box = $("result");
  if (!msg.result) { box.hidden = true; return; }
  box.hidden = false;
  const result = msg.result;
  const head = el("tr", {}, el("th", { text: t("seat_column") }), ...TERMS.map((k) => el("th", { text: t(`term_${k}`) })));
  const rows = result.seats.map((s) => el("tr", { "data-seat": s.seat },
    el("td", { text: seatName(s.seat) }),
    el("td", { text: String(s.melded) }),
    el("td", { text: String(s.credits) }),
    el("td", { text: s.rack ? `−${s.rack}` : "0" }),
    el("td", { text: String(s.closing_bonus) }),
    el("td", { text: String(s.atu_bonus) }),
    el("td", { text: s.flat_penalty ? `${t(`penalty_${s.flat_penalty.kind}`)} ${s.flat_penalty.points}` : "—" }),
    el("td", { text: `×${s.multiplier}` + (s.multiplier_reasons.length ? ` (${s.multiplier_reasons.map((r) => t(`mult_${r}`)).join(", ")})` : "") }),
    el("td", { class: "total", text: String(s.total) })));
  const parts = [el("h2", { text: t("score") }), el("div", { class: "wide" }, el("table", {}, head, ...rows))];
  if (result.double_game) parts.push(el("p", { text: t("double_game", { why: t(`mult_${result.double_game_reason}`) }) }));
  if (app.endRacks) {
    const racks = el("ul", { class: "end-racks" });
    app.endRacks.forEach((ids, s) => {
      const tiles = el("span", { class: "row" }, ...ids.map((id) => tileNode(id)));
      racks.append(el("li", { "data-seat": s }, `${seatName(s)}: `, tiles));
    });
    parts.push(el("h3", { text: t("end_racks") }), racks);
  }
  parts.push(el("p", { class: "winners", text: t("winners", { seats: result.winners.map(seatName).join(", ") }) }));
  const totals = msg.match.totals.map((n, s) => `${seatName(s)} ${n}`).join(" · ");
  parts.push(el("p", { class: "match-totals", text: `${t("match_totals")}: ${totals}` }));
  if (msg.match.over) parts.push(el("p", { class: "match-over", text: t("match_over", { seats: msg.match.winners.map(seatName).join(", ") }) }));
  box.replaceChildren(...parts);
}

// -- start -----------------------------------------------------------------------------------
async function main() {
  app.config = await (await fetch("/api/config")).json();
  const saved = localStorage.getItem("remi-lang");
  const lang = new URLSearchParams(location.search).get("lang") || saved || app.config.lang;
  await loadStrings(app.config.langs.includes(lang) ? lang : app.config.lang);
  const select = $("lang");
  for (const code of app.config.langs) select.append(el("option", { value: code, text: code }));
  select.value = app.lang;
  select.addEventListener("change", async () => {
    await loadStrings(select.value);
    send({ type: "lang", lang: app.lang });
    if (!$("lobby").hidden) { renderSeatKinds(); refreshTables(); }
  });
  $("sort-color").addEventListener("click", () => sortRack("color"));
  $("sort-rank").addEventListener("click", () => sortRack("rank"));
  $("stock").addEventListener("click", () => sendStep({ kind: "draw" }));
  const match = location.pathname.match(/^\/t\/([A-Za-z0-9_-]+)$/);
  if (!match) { setupLobby(); return; }
  app.table = match[1];
  const params = new URLSearchParams(location.search);
  const key = `remi-token-${app.table}`;
  app.token = params.get("token") || sessionStorage.getItem(key);
  if (app.token) sessionStorage.setItem(key, app.token);
  $("table").hidden = false;
  connect();
}
main();
