// MOTU: the row (or, solo, the two cards shown) with its coconuts, the Destinies and Travelers,
// every seat's island on a grid you can pan and zoom, the card to place as a ghost that follows
// the pointer or the keys over the spots the server lists as legal, the interim Source choices
// with their values now, the solo Opponent, and the final scores part by part.
//
// Every rule fact comes from the view (kiti/games/motu/view.py): a row card's cost, what a solo
// take pays to or wins from the Beach Hut, the discard price, the rounds, how many Sources an
// interim scores, where the card in hand may go.  Every move is chosen through the server's
// steps (State.move_steps): the view names the step token of each thing to pick (a row card, a
// Destiny, a set of Sources, a rotation, then a spot), the page finds that token among the steps
// offered and sends the move the step gives (playStep, the one call that makes a move).  A pick
// the server does not offer is refused here, sending nothing; nothing here reads or writes notation.

import {add, h, listing, s} from "../dom.js";
import {cellGroup, islandCard} from "./motu/cards.js";

const CELL = 30;

function coconuts(n) {
  return `${n ?? "?"} coconut${n === 1 ? "" : "s"}`;
}

function seatOf(ctx) {
  return typeof ctx.you === "number" ? ctx.you : null;
}

// A solo take's change of coconuts (the view's offers[].change), in words (short: "pay 1").
function change(n, short = false) {
  if (!n) return short ? "gain nothing" : "gain nothing (the Beach Hut is empty)";
  const amount = short ? String(Math.abs(n)) : coconuts(Math.abs(n));
  return (n < 0 ? "pay " : "gain ") + amount + (short ? "" : n < 0 ? " to the Beach Hut" : " from the Beach Hut");
}

// ------------------------------------------------------------------ steps
// What the server answers for the steps after `prefix`: asked once per question and kept until the
// next one ({steps: null} while the answer is on its way, `ready` once it is in).
function asked(ctx, prefix) {
  const cache = ctx.ui.steps || (ctx.ui.steps = {});
  const key = JSON.stringify(prefix);
  if (!(key in cache)) {
    const entry = {steps: null};
    entry.ready = ctx.askSteps(prefix).then((steps) => { entry.steps = steps || []; }, () => { entry.steps = []; })
      .then(() => { if (ctx.ui.steps === cache) ctx.rerender(); });
    cache[key] = entry;
  }
  return cache[key];
}

// The steps offered after `prefix`, by token: the message's first steps, else the server's answer
// (none until it is in, and none when it is not this seat's turn).
function offered(ctx, prefix = []) {
  if (ctx.mode !== "live" || !ctx.yourTurn) return new Map();
  const steps = prefix.length ? asked(ctx, prefix).steps : ctx.steps;
  return new Map((steps || []).map((step) => [step.token, step]));
}

// The one way this page makes a move: the move the server's step gives, as it is.
function playStep(ctx, step) {
  ctx.play(step.move);
}

// A pick the server offers no step for: refused here (nothing is sent), saying what to pick instead.
function notOffered(ctx, sentence) {
  ctx.refuse(sentence);
}

function stepButton(ctx, step, label, {primary = false} = {}) {
  return h("button", {type: "button", class: primary ? "primary" : "", "data-move": step.move, "data-step": step.token,
                      "data-key": step.token, onclick: () => playStep(ctx, step)}, label);
}

// ------------------------------------------------------------------ the row, Destinies, seats
function rowView(ctx) {
  const v = ctx.view;
  if (v.solo) return soloRow(ctx);
  const first = offered(ctx);
  const cards = v.row.map((item, i) => {
    const step = first.get(item.step);
    const inner = [islandCard(item.card, ctx.catalog, {size: 14}),
                   h("span", {class: "coconuts", "aria-label": `${coconuts(item.coconuts)} on it`}, item.coconuts ? `${item.coconuts} ●` : ""),
                   h("span", {class: "cost muted", "data-cost": item.cost}, item.cost ? `costs ${item.cost}` : "free")];
    if (ctx.mode !== "live" || seatOf(ctx) === null) return h("div", {class: "row-card"}, h("span", {class: "muted"}, `${i + 1}`), inner);
    return h("button", {type: "button", class: ["pick", "row-card", step && "legal"], "data-move": step?.move, "data-step": item.step,
                        "data-key": item.step, "aria-label": `Take card ${i + 1}, ${item.card}, for ${coconuts(item.cost)}, with ${coconuts(item.coconuts)} on it`,
                        onclick: () => (step ? playStep(ctx, step) : notOffered(ctx, `card ${i + 1} (${item.card}) cannot be taken now: take a highlighted card`))},
      h("span", {class: "muted"}, `${i + 1}`), inner);
  });
  return h("div", {class: "row-box"},
    h("div", {class: "section-title"}, "The row ", v.over ? null : h("span", {class: "muted"}, "(a card's cost is paid one coconut on each card to its left)")),
    h("div", {class: "row-cards"}, cards));
}

function soloRow(ctx) {
  const v = ctx.view;
  const solo = v.solo_table;
  const first = offered(ctx);
  const sides = (solo.offers || []).map(({side, card, change: n, step: token}) => {
    const note = change(n);
    const inner = [islandCard(card, ctx.catalog, {size: 14}), h("span", {class: "coconuts"}, `${side}: ${note}`)];
    if (ctx.mode !== "live") return h("div", {class: "row-card"}, inner);
    const step = first.get(token);
    return h("button", {type: "button", class: ["pick", "row-card", step && "legal"], "data-move": step?.move, "data-step": token, "data-key": token,
                        "aria-label": `Take the ${side} card, ${card}: ${note}`,
                        onclick: () => (step ? playStep(ctx, step) : notOffered(ctx, `the ${side} card (${card}) cannot be taken now: take a highlighted card`))}, inner);
  });
  const opp = solo.opponent || [];
  return h("div", {class: "solo-box"},
    sides.length ? h("div", {class: "row-cards"}, sides) : null,
    solo.other ? h("div", {class: "row-card"}, islandCard(solo.other, ctx.catalog, {size: 14}), h("span", {class: "coconuts"}, "the other card")) : null,
    h("div", {}, h("b", {}, "Beach Hut: "), `${solo.hut} ●`),
    h("div", {}, h("b", {}, `The Opponent (${solo.difficulty}): `), `starts at ${solo.start}, holds ${opp.length} card${opp.length === 1 ? "" : "s"}`,
      solo.opponent_score !== "?" ? `, scores ${solo.opponent_score}` : ""),
    opp.length && opp.some((c) => c !== "?") ? h("div", {class: "row-cards"}, opp.map((c) => islandCard(c, ctx.catalog, {size: 7}))) : null);
}

function destinyView(ctx) {
  const v = ctx.view;
  if (v.solo || !v.destinies) return null;
  const first = offered(ctx);
  const info = (d) => ctx.catalog?.destinies?.[d];
  const box = (d) => {
    const step = first.get(v.destinies.steps[d]);
    const text = info(d)?.text || d;
    if (step) {
      return h("button", {type: "button", class: "destiny pick legal", "data-move": step.move, "data-step": step.token, "data-key": step.token,
                          "data-help": text, onclick: () => playStep(ctx, step)},
        h("b", {}, `Buy ${d} · ${coconuts(info(d)?.price)}`), h("br", {}), text.replace(/^Destiny \w+ \(price \d+\): /, ""));
    }
    return h("div", {class: "destiny", "data-help": text}, h("b", {}, `${d} · ${coconuts(info(d)?.price)}`), h("br", {}), text.replace(/^Destiny \w+ \(price \d+\): /, ""));
  };
  return h("div", {class: "destiny-box"},
    h("div", {class: "section-title"}, "Destinies"),
    h("div", {class: "destinies"}, v.destinies.table.length ? v.destinies.table.map(box) : h("span", {class: "muted"}, "none left")));
}

function travelerText(ctx, t) {
  if (!t) return null;
  if (t.card === "?") return "Traveler: face down";
  const text = ctx.catalog?.travelers?.[t.card]?.text || t.card;
  return t.played ? `Traveler ${t.card} played: ${t.points} points` : text.replace(/^Traveler (\w+):/, "Traveler $1 (face down):");
}

function seatStrip(ctx, shown) {
  const v = ctx.view;
  return h("div", {class: "motu-seats", role: "group", "aria-label": "Seats (pick one to see its island)"},
    [...Array(v.players).keys()].map((seat) => {
      const totals = (v.interims[seat] || []).map((it) => `${it.pile}: ${it.total}`);
      const owned = v.destinies?.owned?.[seat] || [];
      const trav = v.travelers ? v.travelers[seat] : null;
      const acting = ctx.toAct.includes(seat) && !v.over;
      return h("button", {type: "button", class: ["tseat", seat === shown && "shown", acting && "acting"], "data-seat": seat, "data-key": `seat-${seat}`,
                          "aria-pressed": seat === shown ? "true" : "false", "aria-label": `Show ${ctx.name(seat)}'s island`,
                          onclick: () => { ctx.ui.shown = seat; ctx.ui.picked = true; ctx.ui.fit = true; ctx.rerender(); }},
        h("b", {}, ctx.name(seat)), (v.winners || []).includes(seat) && v.over ? " ★" : "",
        h("div", {}, `Score ${v.scores[seat]} · `, h("span", {class: "coco"}, `${v.coconuts[seat]} ●`), ` · beach ${v.beach[seat]}`),
        totals.length ? h("div", {class: "muted"}, `Interims ${totals.join(", ")}`) : null,
        owned.length ? h("div", {class: "muted"}, `Destinies ${owned.join(", ")}`) : null,
        trav ? h("div", {class: "muted"}, trav.card === "?" ? "Traveler face down" : `Traveler ${trav.card}${trav.played ? ` played (${trav.points})` : ""}`) : null);
    }));
}

// ------------------------------------------------------------------ the island
function cardSize(ctx, card, rotation) {
  const turned = ctx.catalog?.cards?.[card]?.rotations?.[String(rotation)];
  return turned ? {w: turned.rows[0].length, h: turned.rows.length} : {w: 3, h: 4};
}

function fitBox(island, extra) {
  const [x0, y0, x1, y1] = island.bounds;
  const pad = extra ? 3.5 : 1.5;
  return {x: (x0 - pad) * CELL, y: (y0 - pad) * CELL, w: (x1 - x0 + 1 + 2 * pad) * CELL, h: (y1 - y0 + 1 + 2 * pad) * CELL};
}

function edges(cells) {
  const at = new Map(cells.map((c) => [`${c.x},${c.y}`, c]));
  const out = [];
  for (const c of cells) {
    for (const [dx, dy, x1, y1, x2, y2] of [[0, -1, 0, 0, 1, 0], [0, 1, 0, 1, 1, 1], [-1, 0, 0, 0, 0, 1], [1, 0, 1, 0, 1, 1]]) {
      const n = at.get(`${c.x + dx},${c.y + dy}`);
      if (!n || n.card !== c.card) out.push([c.card, (c.x + x1) * CELL, (c.y + y1) * CELL, (c.x + x2) * CELL, (c.y + y2) * CELL]);
    }
  }
  return out;
}

function ghostGroup(ctx, card, rotation) {
  const turned = ctx.catalog?.cards?.[card]?.rotations?.[String(rotation)];
  const g = s("g", {class: "ghost", "pointer-events": "none"});
  if (!turned) return g;
  const symbols = new Map(turned.symbols.map(([x, y, k]) => [`${x},${y}`, k]));
  turned.rows.forEach((row, y) => [...row].forEach((t, x) => g.append(cellGroup(t, symbols.get(`${x},${y}`), x, y, CELL, ctx.catalog, {ghost: true}))));
  g.append(s("rect", {class: "ghost-frame", x: 0, y: 0, width: turned.rows[0].length * CELL, height: turned.rows.length * CELL,
                      fill: "none", "stroke-width": 3, rx: 3}));
  g.style.opacity = "0.85";
  return g;
}

function placing(ctx) {
  const v = ctx.view;
  return ctx.mode === "live" && ctx.yourTurn && v.phase === "place" && !!v.placing && v.placing.seat === seatOf(ctx);
}

// The ways the card in hand may be turned: the view's rotations whose steps the server offers
// first, each with its step (how many spots it has: the step's count).
function rotationsOffered(ctx) {
  const first = offered(ctx);
  return (ctx.view.placing?.rotations || []).filter((r) => first.has(r.step)).map((r) => ({...r, offer: first.get(r.step)}));
}

// The legal spots of the card in hand turned `rotation`: the view's spots whose steps the server
// offers after the rotation's step (none while its answer is on the way), each with its step.
function spotsFor(ctx, rotation) {
  const turned = rotationsOffered(ctx).find((r) => r.rotation === rotation);
  if (!turned) return [];
  const next = offered(ctx, [turned.step]);
  return turned.spots.filter((spot) => next.has(spot.step)).map((spot) => ({...spot, offer: next.get(spot.step)}));
}

function at(cursor) {
  return (p) => p.x === cursor?.x && p.y === cursor?.y;
}

// Once the steps of every offered rotation are in, `then` runs (at once if they are).
function whenSpotsKnown(ctx, then) {
  const waits = rotationsOffered(ctx).map((r) => asked(ctx, [r.step])).filter((e) => e.steps === null).map((e) => e.ready);
  if (waits.length) Promise.all(waits).then(then); else then();
}

// Lay the card in hand at the cursor: the move of the step offered for that spot; a spot the
// steps do not offer is refused here (its ghost is framed red), nothing is sent.
function placeHere(ctx) {
  const ui = ctx.ui;
  const moment = ui.moment;
  whenSpotsKnown(ctx, () => {
    if (!ui.cursor || ui.moment !== moment) return;
    const spot = spotsFor(ctx, ui.rotation).find(at(ui.cursor));
    if (spot?.offer.move) playStep(ctx, spot.offer);
    else notOffered(ctx, `${ctx.view.holding} turned ${ui.rotation}° cannot go there: place it on a marked spot (N jumps to the next one)`);
  });
}

function islandView(ctx, seat) {
  const v = ctx.view;
  const island = v.islands[seat];
  const ui = ctx.ui;
  const active = placing(ctx) && seat === seatOf(ctx);
  if (ui.fit || !ui.vb || ui.vbSeat !== seat || !ui.userMoved) {  // follow the island until the user pans or zooms
    ui.vb = fitBox(island, active);
    ui.vbSeat = seat;
    ui.fit = false;
    ui.userMoved = false;
  }
  const svg = s("svg", {class: "island", tabindex: 0, role: "application", "data-key": "island",
                        "aria-label": `${ctx.name(seat)}'s island` + (active ? ": arrows move the card, R turns it, Enter places it, N jumps to the next legal spot" : "")});
  const setBox = () => svg.setAttribute("viewBox", `${ui.vb.x} ${ui.vb.y} ${ui.vb.w} ${ui.vb.h}`);
  setBox();
  const world = s("g", {});
  for (const c of island.cells) world.append(cellGroup(c.terrain, c.symbol, c.x, c.y, CELL, ctx.catalog));
  const last = island.placements[island.placements.length - 1]?.[0];
  for (const [card, x1, y1, x2, y2] of edges(island.cells)) {
    world.append(s("line", {x1, y1, x2, y2, stroke: card === last && island.placements.length > 1 ? "#e76f51" : "#1d2a32",
                            "stroke-width": card === last && island.placements.length > 1 ? 3 : 1.6, "stroke-linecap": "round"}));
  }
  svg.append(world);
  let ghost = null;
  let spots = null;
  if (active) {
    const rotation = ui.rotation;
    spots = spotsFor(ctx, rotation);
    const size = cardSize(ctx, v.holding, rotation);
    const cx = Math.floor((size.w - 1) / 2);
    const cy = Math.floor((size.h - 1) / 2);
    for (const spot of spots) {
      svg.append(s("circle", {class: "spot", cx: (spot.x + cx + .5) * CELL, cy: (spot.y + cy + .5) * CELL, r: CELL * .22, "data-spot": `${spot.x} ${spot.y}`}));
    }
    if (!ui.cursor && spots[0]) ui.cursor = {x: spots[0].x, y: spots[0].y};  // (once the spots' steps are in)
    ghost = ghostGroup(ctx, v.holding, rotation);
    if (ui.cursor) svg.append(ghost);
    const place = () => {
      if (!ui.cursor) return;
      if (!ghost.isConnected) svg.append(ghost);
      const ok = spots.some(at(ui.cursor));
      ghost.setAttribute("transform", `translate(${ui.cursor.x * CELL} ${ui.cursor.y * CELL})`);
      ghost.querySelector(".ghost-frame")?.setAttribute("stroke", ok ? "#2b9348" : "#b00020");
      svg.dataset.cursor = `${ui.cursor.x} ${ui.cursor.y}`;
      svg.dataset.legal = ok ? "yes" : "no";
      for (const dot of svg.querySelectorAll(".spot")) dot.classList.toggle("current", dot.dataset.spot === `${ui.cursor.x} ${ui.cursor.y}`);
    };
    place();
    ui.moveGhost = (x, y) => { ui.cursor = {x, y}; place(); };
    ui.anchorOffset = {cx, cy};
  }
  panZoom(svg, ui, setBox, active ? (cell) => ui.moveGhost(cell.x - ui.anchorOffset.cx, cell.y - ui.anchorOffset.cy) : null,
          active ? () => placeHere(ctx) : null);
  const tools = h("div", {class: "island-tools"},
    h("button", {type: "button", "aria-label": "Zoom in", onclick: () => { zoom(ui, .8); setBox(); }}, "+"),
    h("button", {type: "button", "aria-label": "Zoom out", onclick: () => { zoom(ui, 1.25); setBox(); }}, "−"),
    h("button", {type: "button", "aria-label": "Fit the island", onclick: () => { ui.fit = true; ctx.rerender(); }}, "⌂"));
  return h("div", {class: "island-wrap"}, svg, tools);
}

function zoom(ui, factor, at = null) {
  ui.userMoved = true;
  const vb = ui.vb;
  const px = at ? at.x : vb.x + vb.w / 2;
  const py = at ? at.y : vb.y + vb.h / 2;
  const w = Math.min(3000, Math.max(120, vb.w * factor));
  const k = w / vb.w;
  ui.vb = {x: px - (px - vb.x) * k, y: py - (py - vb.y) * k, w, h: vb.h * k};
}

// Drag pans, the wheel or two fingers zoom; a tap (no drag) places the card there.
function panZoom(svg, ui, setBox, hover, tap) {
  const points = new Map();
  let moved = 0;
  let pinch = null;
  const toWorld = (event) => {
    const ctm = svg.getScreenCTM();
    if (!ctm) return {x: 0, y: 0};
    const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(ctm.inverse());
    return {x: p.x, y: p.y};
  };
  const cellAt = (event) => {
    const p = toWorld(event);
    return {x: Math.floor(p.x / CELL), y: Math.floor(p.y / CELL)};
  };
  svg.addEventListener("wheel", (event) => {
    event.preventDefault();
    zoom(ui, event.deltaY > 0 ? 1.15 : 1 / 1.15, toWorld(event));
    setBox();
  }, {passive: false});
  svg.addEventListener("pointerdown", (event) => {
    svg.setPointerCapture?.(event.pointerId);
    points.set(event.pointerId, {x: event.clientX, y: event.clientY});
    moved = 0;
    if (points.size === 2) {
      const [a, b] = [...points.values()];
      pinch = {d: Math.hypot(a.x - b.x, a.y - b.y)};
    }
  });
  svg.addEventListener("pointermove", (event) => {
    const last = points.get(event.pointerId);
    if (!last) {
      if (hover && event.pointerType === "mouse") hover(cellAt(event));
      return;
    }
    if (points.size === 2 && pinch) {
      points.set(event.pointerId, {x: event.clientX, y: event.clientY});
      const [a, b] = [...points.values()];
      const d = Math.hypot(a.x - b.x, a.y - b.y);
      if (d > 0 && pinch.d > 0) zoom(ui, pinch.d / d);
      pinch.d = d;
      moved += 10;
      setBox();
      return;
    }
    const dx = event.clientX - last.x;
    const dy = event.clientY - last.y;
    moved += Math.abs(dx) + Math.abs(dy);
    points.set(event.pointerId, {x: event.clientX, y: event.clientY});
    if (moved > 6) {
      ui.userMoved = true;
      const k = ui.vb.w / svg.clientWidth;
      ui.vb = {...ui.vb, x: ui.vb.x - dx * k, y: ui.vb.y - dy * k};
      setBox();
    }
  });
  const up = (event) => {
    const had = points.delete(event.pointerId);
    if (points.size < 2) pinch = null;
    if (had && moved <= 6 && hover && tap && event.type === "pointerup") {
      hover(cellAt(event));
      tap();
    }
  };
  svg.addEventListener("pointerup", up);
  svg.addEventListener("pointercancel", up);
}

function placeBar(ctx) {
  if (!placing(ctx)) return null;
  const v = ctx.view;
  const ui = ctx.ui;
  const rotations = rotationsOffered(ctx).map((r) => ({rotation: r.rotation, count: r.offer.count}));
  return h("div", {class: "place-bar", role: "group", "aria-label": "Place the card"},
    h("div", {class: "holding", "aria-label": `The card to place: ${v.holding}`}, islandCard(v.holding, ctx.catalog, {rotation: ui.rotation, size: 18})),
    h("div", {},
      h("div", {class: "section-title"}, `Place ${v.holding}: turn it, then click a marked spot`),
      h("div", {class: "action-row"},
        rotations.map((r) => h("button", {type: "button", class: ["small", r.rotation === ui.rotation && "primary"], "data-rotation": r.rotation,
                                          "data-key": `rot-${r.rotation}`, "aria-pressed": r.rotation === ui.rotation ? "true" : "false",
                                          onclick: () => turnTo(ctx, r.rotation)}, `${r.rotation}° (${r.count})`)),
        h("button", {type: "button", class: "small", "data-key": "next-spot", onclick: () => jump(ctx, 1)}, "Next spot"),
        h("button", {type: "button", class: "small primary", "data-key": "place-here",
                     onclick: () => placeHere(ctx)}, "Place here")),
      h("p", {class: "kbd-help"}, "Keys: arrows move the card, R turns it, N / P next or previous legal spot, Enter places it. ",
        "Drag to pan, wheel or pinch to zoom.")));
}

function turnTo(ctx, rotation) {
  const ui = ctx.ui;
  ui.rotation = rotation;
  whenSpotsKnown(ctx, () => {
    const spots = spotsFor(ctx, rotation);
    if (ui.rotation === rotation && spots.length && !spots.some(at(ui.cursor))) ui.cursor = {x: spots[0].x, y: spots[0].y};
    ctx.rerender();
  });
}

function jump(ctx, by) {
  const ui = ctx.ui;
  const spots = spotsFor(ctx, ui.rotation);
  if (!spots.length) return;
  const i = spots.findIndex(at(ui.cursor));
  const next = spots[(i + by + spots.length) % spots.length];
  ui.cursor = {x: next.x, y: next.y};
  ctx.rerender();
}

// ------------------------------------------------------------------ other steps
// The buttons of the one-word steps, by step token, in this order.
function wordButtons(ctx) {
  const v = ctx.view;
  return {
    scrap: () => ["Scrap the leftmost card (no card fits)"],
    travel: () => [`Play your Traveler ${v.travelers?.[seatOf(ctx)]?.card || ""}`, {primary: true}],
    done: () => ["End my turn"],
    give: () => ["Give the other card to the Opponent"],
    discard: () => [`Discard it (pay ${coconuts(v.solo_table?.discard_price)})`],
  };
}

function actionBar(ctx) {
  const v = ctx.view;
  if (ctx.mode !== "live" || !ctx.yourTurn) return null;
  const first = offered(ctx);
  const buttons = Object.entries(wordButtons(ctx)).filter(([token]) => first.has(token))
    .map(([token, words]) => stepButton(ctx, first.get(token), ...words()));
  if (!buttons.length) return null;
  const note = v.phase === "extras" ? "Optional: buy a Destiny (highlighted above), play your Traveler, or end your turn." : null;
  return h("div", {class: "hand-box"}, note ? h("p", {}, note) : null, h("div", {class: "action-row"}, buttons));
}

function interimBox(ctx) {
  const v = ctx.view;
  const me = seatOf(ctx);
  if (v.phase !== "interim" || me === null || ctx.mode !== "live") return null;
  const first = offered(ctx);
  const choices = (v.choices || []).filter((c) => first.has(c.step));
  const mine = v.interims[me] || [];
  const scored = new Set(mine.flatMap((it) => (Array.isArray(it.sources) ? it.sources : [])));
  const ui = ctx.ui;
  const picks = v.picks;
  ui.sources = ui.sources || [];
  ui.sources = ui.sources.filter((x) => !scored.has(x));
  const values = v.sources[me];
  const chosen = choices.find((c) => c.sources.length === ui.sources.length && c.sources.every((x) => ui.sources.includes(x)));
  const step = chosen ? first.get(chosen.step) : null;
  const names = ctx.catalog?.sources || {};
  return h("div", {class: "hand-box", role: "group", "aria-label": "Interim total"},
    h("div", {class: "section-title"}, `Interim total, pile ${v.pile}`),
    ctx.yourTurn
      ? h("p", {}, `Choose ${picks} Source${picks > 1 ? "s" : ""} to score now (each scores once a game). The points are what each would record now:`)
      : h("p", {}, "Your choice is made: waiting for the others to choose. Their choices are revealed together."),
    h("div", {class: "sources"}, Object.keys(values).map((src) => {
      const done = scored.has(src);
      const picked = ui.sources.includes(src);
      const can = ctx.yourTurn && !done && choices.some((c) => c.sources.includes(src));
      return h("button", {type: "button", class: ["source", picked && "picked", done && "done"], disabled: !can,
                          "data-source": src, "data-key": `src-${src}`, "aria-pressed": picked ? "true" : "false",
                          onclick: () => {
                            ui.sources = picked ? ui.sources.filter((x) => x !== src) : [...ui.sources, src].slice(-picks);
                            ctx.rerender();
                          }},
        h("span", {}, names[src] || src, done ? " (scored)" : ""), h("span", {class: "val"}, String(values[src])));
    })),
    ctx.yourTurn ? h("div", {class: "action-row"},
      h("button", {type: "button", class: "primary", disabled: !step, "data-key": "score", "data-move": step?.move || "",
                   "data-step": step?.token || "", onclick: () => { ui.sources = []; playStep(ctx, step); }},
        step ? `Score ${ui.sources.map((x) => names[x] || x).join(" + ")}` : `Pick ${picks}`)) : null);
}

function interimTable(ctx) {
  const v = ctx.view;
  if (!v.interims.some((list) => list.length)) return null;
  return h("table", {class: "final-table", "aria-label": "Interim totals"},
    h("thead", {}, h("tr", {}, h("th", {}, "Interims"), Object.keys(v.piles).map((p) => h("th", {}, `pile ${p}`)))),
    h("tbody", {}, [...Array(v.players).keys()].map((seat) => h("tr", {},
      h("td", {}, ctx.name(seat)),
      Object.keys(v.piles).map((p) => {
        const it = v.interims[seat].find((x) => x.pile === p);
        if (!it) return h("td", {}, "");
        if (!Array.isArray(it.sources)) return h("td", {}, "chosen (secret)");
        const named = it.sources.map((x) => ctx.catalog?.sources?.[x] || x);  // the rulebook's names
        return h("td", {title: named.map((x, i) => `${x} ${it.points[i]}`).join(", ")},
          `${it.total} (${named.join(", ")})`);
      })))));
}

function finalTable(ctx) {
  const v = ctx.view;
  if (!v.final) return null;
  const parts = Object.keys(v.final[0]).filter((k) => k !== "total");
  const rows = v.final.map((f, seat) => h("tr", {}, h("td", {}, ctx.name(seat)), parts.map((k) => h("td", {}, String(f[k]))), h("td", {}, h("b", {}, String(f.total)))));
  const opp = v.solo_table?.opponent_final;
  if (opp) {
    rows.push(h("tr", {}, h("td", {}, "The Opponent"), h("td", {colspan: parts.length},
      Object.entries(opp).filter(([k]) => k !== "total").map(([k, x]) => `${k} ${x}`).join(" · ")), h("td", {}, h("b", {}, String(opp.total)))));
  }
  return h("table", {class: "final-table", "aria-label": "Final scores"},
    h("thead", {}, h("tr", {}, h("th", {}, "Final"), parts.map((k) => h("th", {}, k)), h("th", {}, "total"))),
    h("tbody", {}, rows));
}

export function render(board, ctx) {
  const v = ctx.view;
  const me = seatOf(ctx);
  const ui = ctx.ui;
  const moment = `${v.round}:${v.turn}:${v.phase}:${v.holding}`;
  if (ui.moment !== moment) {  // a new step: the ghost starts over
    ui.moment = moment;
    ui.cursor = null;
    ui.rotation = v.placing?.rotations[0]?.rotation ?? 0;
    if (placing(ctx)) { ui.shown = me; ui.picked = false; ui.fit = true; }
  }
  const question = JSON.stringify([moment, ctx.yourTurn, ctx.steps]);
  if (ui.question !== question) {  // a new question: its steps are asked afresh
    ui.question = question;
    ui.steps = {};
    if (placing(ctx)) {  // every rotation's spots at once, so that turning the card shows them without a wait
      const rotations = rotationsOffered(ctx);
      for (const r of rotations) asked(ctx, [r.step]);
      if (rotations.length && !rotations.some((r) => r.rotation === ui.rotation)) ui.rotation = rotations[0].rotation;
    }
  }
  if (!ui.picked || ui.shown === undefined || ui.shown === null || ui.shown >= v.players) {
    ui.shown = me ?? (typeof v.turn === "number" ? v.turn : 0);  // yours, else the seat to play
  }
  const piles = Object.entries(v.piles).map(([k, list]) => `${k} ${list.length}`).join(" · ");
  add(board,
    h("div", {class: "game-top"},
      h("b", {}, v.over ? "Final table" : `${v.solo ? "Turn" : "Round"} ${v.round} of ${v.rounds}`),
      h("span", {class: "muted"}, `Pile ${v.pile} · piles ${piles}` + (v.solo ? "" : ` · supply: ${coconuts(v.supply)}`)),
      v.solo ? h("span", {class: "tag"}, "Solo against the Opponent") : null),
    h("div", {class: "motu-top"}, rowView(ctx), destinyView(ctx)),
    me !== null && v.travelers?.[me] ? h("p", {class: "muted traveler-line"}, travelerText(ctx, v.travelers[me])) : null,
    interimBox(ctx),
    placeBar(ctx),
    actionBar(ctx),
    islandView(ctx, ui.shown),
    seatStrip(ctx, ui.shown),
    interimTable(ctx),
    finalTable(ctx));
}

function soloTakeWords(v) {
  const [left, right] = (v.solo_table?.offers || []).map((o) => change(o.change, true));
  return `take the left card (${left}) or the right one (${right})`;
}

export function statusText(ctx) {
  const v = ctx.seatView;
  const words = {
    take: v.solo ? soloTakeWords(v) : "take a card from the row",
    place: `place ${v.holding}: turn it and click a marked spot`,
    extras: "buy a Destiny, play your Traveler, or end your turn",
    other: "give the other card to the Opponent, or discard it",
    interim: "choose the Sources to score now",
  };
  const acting = ctx.toAct.map((x) => ctx.who(x));
  return {mine: `Your move: ${words[v.phase] || "your move"}`,
          others: v.phase === "interim" ? `Interim total: waiting for ${listing(acting)} to choose` : `${listing(acting)} to ${words[v.phase] || "move"}…`};
}

export function onKey(event, ctx) {
  if (!placing(ctx)) return false;
  const ui = ctx.ui;
  const arrows = {ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1]};
  if (event.key in arrows && ui.moveGhost && ui.cursor) {
    const [dx, dy] = arrows[event.key];
    ui.moveGhost(ui.cursor.x + dx, ui.cursor.y + dy);
    return true;
  }
  if (event.key === "r" || event.key === "R") {
    const rotations = rotationsOffered(ctx).map((r) => r.rotation);
    const i = rotations.indexOf(ui.rotation);
    if (rotations.length) turnTo(ctx, rotations[(i + (event.shiftKey ? -1 : 1) + rotations.length) % rotations.length]);
    return true;
  }
  if (event.key === "n" || event.key === "N") { jump(ctx, 1); return true; }
  if (event.key === "p" || event.key === "P") { jump(ctx, -1); return true; }
  const onIsland = event.target === document.body || event.target.classList?.contains("island");
  if (event.key === "Enter" && onIsland && ui.cursor) {
    placeHere(ctx);
    return true;
  }
  if (event.key === "+" || event.key === "=") { zoom(ui, .8); ctx.rerender(); return true; }
  if (event.key === "-") { zoom(ui, 1.25); ctx.rerender(); return true; }
  return false;
}
