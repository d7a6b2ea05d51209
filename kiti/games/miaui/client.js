// Miaui: the lagoon's three depths, Kiti and its tie orders, every seat's fish pile as this
// viewer may see it, who has chosen a diver, your divers, and the reveal animated depth by depth.
// Everything comes from the view and the events: the rule facts too (rounds, what each depth takes
// and how its ties go, where Kiti stands and moves, what a tie does). Moves are chosen through the
// server's steps (a diver's number, a card's code), never written or read as notation here.

import {add, h, listing, s, sleep} from "../dom.js";
import {diverCard, fishBack, fishCard, peekedFish} from "./miaui/cards.js";

function seatOf(ctx) {
  return typeof ctx.you === "number" ? ctx.you : null;
}

// The server's first steps, by token (a diver's number, a card's code): the move each one makes.
function stepMoves(ctx) {
  const steps = ctx.mode === "live" && ctx.steps ? ctx.steps : [];
  return new Map(steps.filter((st) => st.move).map((st) => [st.token, st.move]));
}

// A diver's move as the server last offered it (kept in ui), so that a diver clicked out of turn
// is still sent and the server answers with the engine's reason; null if never offered.
function diverMoves(ctx) {
  const known = (ctx.ui.diverMoves ||= new Map());
  for (const [t, move] of stepMoves(ctx)) known.set(t, move);
  return known;
}

// ------------------------------------------------------------------ the lagoon
function lagoonCard(code, ctx, space, index) {
  if (code === "?") return fishBack({label: "a face-down fish card (a Lantern's catch: only its catcher sees it)"});
  if (ctx.view.peeked?.[space]?.[index]) return peekedFish(code, ctx.catalog);
  return fishCard(code, ctx.catalog);
}

function tieLine(ctx, depth) {
  const order = depth.tie_order;
  if (!order) return null;  // no Kiti (No Fighting)
  const way = `${depth.tie_direction}, from Kiti's ${depth.tie_from}`;
  return h("div", {class: "ties", "data-direction": depth.tie_direction,
                   title: `Ties at ${depth.name}: Kiti picks the first tied seat in this order (${way})`},
    h("span", {}, depth.tie_direction === "clockwise" ? "↻ " : "↺ ", "Ties: "),
    order.map((seat, i) => [i ? " › " : "", h("b", {}, ctx.who(seat))]),
    h("span", {class: "depth-rule"}, way));
}

function kitiFigure() {
  return s("svg", {viewBox: "0 0 26 34", class: "kiti-figure", "aria-hidden": "true"},
    s("rect", {x: 4, y: 2, width: 18, height: 30, rx: 4, fill: "#8d5a2b", stroke: "#3e2a14"}),
    s("rect", {x: 7, y: 8, width: 4, height: 5, fill: "#ffd166"}), s("rect", {x: 15, y: 8, width: 4, height: 5, fill: "#ffd166"}),
    s("path", {d: "M8 20 h10 v4 h-10 Z", fill: "#3e2a14"}), s("path", {d: "M4 2 l9 -2 l9 2", fill: "#2a9d8f"}));
}

function lagoon(ctx) {
  const v = ctx.view;
  const box = h("div", {class: "lagoon", role: "group", "aria-label": "The lagoon"});
  for (const depth of [...v.depths].reverse()) {  // Shallow on top, as in the water
    const space = depth.space;
    const cards = v.lagoon[space] || [];
    box.append(h("div", {class: "depth", "data-space": space},
      h("div", {class: "depth-name"}, depth.name, h("span", {class: "depth-rule"}, depth.rule)),
      h("div", {class: "depth-cards"}, cards.length
        ? cards.map((c, i) => lagoonCard(c, ctx, space, i))
        : h("span", {class: "empty"}, "empty")),
      tieLine(ctx, depth)));
  }
  const rule = v.tie_rule.charAt(0).toUpperCase() + v.tie_rule.slice(1);
  if ((v.kiti === null || v.kiti === undefined) && !v.over) {
    box.append(h("div", {class: "kiti-line"}, h("span", {class: "ties"},
      `No Fighting: no Kiti. ${rule}.`, v.ties_carry_over ? " Fish left in a depth pile up for the next round." : "")));
  } else if (!v.over) {
    const next = v.kiti_next ? [" Next round: between ", h("b", {}, ctx.who(v.kiti_next[0])), " and ",
                                h("b", {}, ctx.who(v.kiti_next[1])), "."] : [];
    box.append(h("div", {class: "kiti-line"}, kitiFigure(),
      h("span", {}, "Kiti stands between ", h("b", {}, ctx.who(v.kiti)), " and ", h("b", {}, ctx.who(v.kiti_left)),
        `. It moves one place ${v.kiti_moves} after each round.`, ...next)));
  }
  return box;
}

// ------------------------------------------------------------------ the seats
function pileView(cards, ctx, seat) {
  const open = !cards.includes("?") && ctx.view.over;
  const box = h("div", {class: ["pile", open && "open"], "aria-label": `${ctx.name(seat)}'s fish pile, bottom to top`});
  if (!cards.length) {
    box.append(h("span", {class: "muted"}, "no fish yet"));
    return box;
  }
  const hidden = cards.filter((c) => c === "?").length;
  const shown = cards.filter((c) => c !== "?");
  const backs = Math.min(hidden, 3);
  for (let i = 0; i < backs; i++) box.append(fishBack({label: "a fish under the top card"}));
  const room = open ? 40 : 10;
  for (const c of shown.slice(-room)) box.append(fishCard(c, ctx.catalog));
  const notes = [];
  if (hidden) notes.push(`${hidden} hidden`);
  if (shown.length > room) notes.push(`${shown.length - room} more below`);
  box.append(h("span", {class: "count"}, `${cards.length} card${cards.length === 1 ? "" : "s"}` + (notes.length ? ` (${notes.join(", ")})` : "")));
  return box;
}

function diveSlot(ctx, seat) {
  const v = ctx.view;
  const slot = h("div", {class: "dive-slot"});
  const pending = v.pending_take;
  const committed = v.committed?.[seat];
  if (v.over) return slot;
  if (pending && pending.seat === seat) slot.append(h("span", {class: "tag hot"}, "ordering the catch"));
  else if (committed === null || committed === undefined) {
    if (ctx.toAct.includes(seat)) slot.append(h("span", {class: "tag hot"}, "choosing a diver…"));
  } else if (committed === "?") {
    slot.append(diverCard(0, {hidden: true, label: "a diver chosen face down"}), h("span", {class: "tag ok"}, "has chosen"));
  } else {
    slot.append(diverCard(committed), h("span", {class: "tag ok"}, seat === seatOf(ctx) ? "your dive (secret)" : `dive ${committed}`));
  }
  return slot;
}

// The divers a seat has played, in order: its discard pile where the view shows it (the referee,
// Open Baskets), else remembered from the reveals this viewer saw (never part of a seat's view).
function playedDivers(ctx, seat) {
  const pile = ctx.view.discards?.[seat] || [];
  if (!pile.includes("?")) return pile;
  return ctx.events.filter((e) => e.type === "reveal").map((e) => e.dives[seat]);
}

function played(ctx, seat) {
  const divers = playedDivers(ctx, seat);
  return divers.length && !ctx.view.over ? h("div", {class: "played"}, `Played: ${divers.join(", ")}`) : null;
}

function seatPanels(ctx) {
  const v = ctx.view;
  const box = h("div", {class: "miaui-seats"});
  for (let seat = 0; seat < v.players; seat++) {
    const score = v.scores[seat];
    const winner = v.over && (v.winners || []).includes(seat);
    box.append(h("div", {class: ["mseat", seat === seatOf(ctx) && "me", ctx.toAct.includes(seat) && !v.over && "acting"], "data-seat": seat},
      h("div", {class: "mseat-head"},
        h("span", {class: "mseat-name"}, ctx.name(seat), winner ? " ★" : ""),
        h("span", {class: "mseat-score", title: "Points in the fish pile", "aria-label": `score ${score ?? "hidden"}`},
          score === null || score === undefined ? "?" : String(score))),
      pileView(v.piles[seat], ctx, seat),
      diveSlot(ctx, seat),
      played(ctx, seat)));
  }
  return box;
}

// ------------------------------------------------------------------ your divers
function handBox(ctx) {
  const me = seatOf(ctx);
  const v = ctx.view;
  if (me === null || v.over || ctx.mode !== "live") return null;
  const moves = stepMoves(ctx);
  diverMoves(ctx);  // remembered for a click out of turn
  const hand = v.hands[me] || [];
  const digits = ctx.ui.digits ? h("span", {class: "tag hot"}, `diver ${ctx.ui.digits}…`) : null;
  return h("div", {class: "hand-box"},
    h("div", {class: "section-title"}, "Your divers ", digits),
    h("div", {class: "hand", role: "group", "aria-label": "Your divers"},
      hand.map((n) => {
        const move = moves.get(String(n));  // the step for this diver, if it may dive now
        return h("button", {type: "button", class: ["pick", move && "legal"], "data-key": `diver-${n}`, "data-move": move,
                            "aria-label": `Dive ${n}` + (move ? "" : " (not now)"), onclick: () => dive(ctx, String(n))},
          diverCard(n, {help: ctx.catalog?.diver_help}));
      })),
    h("p", {class: "kbd-help"}, "Click a diver, or type its number (1–12) on the keyboard."));
}

// Dive with the diver whose step token is ``token``: the server's move for it (it refuses one
// out of turn with the engine's reason), or a refusal here for a diver it never offered.
function dive(ctx, token) {
  const move = diverMoves(ctx).get(token);
  if (move) ctx.play(move);
  else ctx.refuse(`you have no diver ${token} to dive with now`);
}

function takeBox(ctx) {
  const v = ctx.view;
  const me = seatOf(ctx);
  const pending = v.pending_take;
  if (!pending || pending.seat !== me || ctx.mode !== "live") return null;
  const moves = stepMoves(ctx);
  return h("div", {class: "take-box", role: "group", "aria-label": "Which card joins your pile next"},
    h("span", {}, `Your ${v.depths[pending.space].name} catch: which card joins your pile next?`),
    pending.cards.map((code, i) => {
      const move = moves.get(code);  // the step for this card
      return h("button", {type: "button", class: ["pick", move && "legal"], "data-key": `take-${code}-${i}`, "data-move": move,
                          "aria-label": `Take ${ctx.catalog?.cards?.[code]?.name || code}`, onclick: () => move && ctx.play(move)},
        fishCard(code, ctx.catalog));
    }));
}

export function render(board, ctx) {
  const v = ctx.view;
  const flags = [["open_baskets", "Open Baskets"], ["no_fighting", "No Fighting"], ["taker_chooses_order", "taker orders"]]
    .filter(([k]) => v.options?.[k]).map(([, w]) => h("span", {class: "tag"}, w));
  add(board,
    h("div", {class: "game-top"},
      h("b", {}, v.over ? "Final table" : `Round ${v.round} of ${v.rounds}`),
      h("span", {class: "muted"}, `Deck: ${Array.isArray(v.deck) ? v.deck.length : v.deck} · Box: ${Array.isArray(v.box) ? v.box.length : v.box}`),
      flags),
    v.over && !v.lagoon.some((space) => space.length) ? null : lagoon(ctx),
    takeBox(ctx),
    handBox(ctx),
    seatPanels(ctx));
}

export function statusText(ctx) {
  const v = ctx.seatView;
  const waiting = ctx.toAct.map((seat) => ctx.who(seat));
  if (v.pending_take) {
    return {mine: "Your move: choose which card of your catch joins your pile next",
            others: `${ctx.who(v.pending_take.seat)} is ordering a catch…`};
  }
  return {mine: "Your move: choose a diver (click it or type its number)",
          others: waiting.length ? `Waiting for ${listing(waiting)} to choose a diver…` : "The divers are revealed…"};
}

// Digits dive: "9" dives at once, "1" waits a moment for "10"-"12" when those are still in hand.
export function onKey(event, ctx) {
  const me = seatOf(ctx);
  if (me === null || ctx.mode !== "live") return false;
  const hand = ctx.view.hands[me] || [];
  const ui = ctx.ui;
  const send = (text) => {
    clearTimeout(ui.digitTimer);
    ui.digits = "";
    dive(ctx, String(Number(text)));
  };
  if (/^[0-9]$/.test(event.key)) {
    const typed = (ui.digits || "") + event.key;
    const longer = hand.some((d) => String(d).startsWith(typed) && String(d) !== typed);
    clearTimeout(ui.digitTimer);
    if (!longer) {
      send(typed);
    } else {
      ui.digits = typed;
      ui.digitTimer = setTimeout(() => { if (ui.digits) send(ui.digits); }, 1200);
      ctx.rerender();
    }
    return true;
  }
  if (event.key === "Enter" && ui.digits) { send(ui.digits); return true; }
  if (event.key === "Escape" && ui.digits) { ui.digits = ""; clearTimeout(ui.digitTimer); ctx.rerender(); return true; }
  return false;
}

// ------------------------------------------------------------------ the reveal, depth by depth
export async function animate(board, before, after, events) {
  const reveals = events.filter((e) => e.type === "reveal");
  if (reveals.length !== 1 || before.mode !== "live" || before.seatView.round !== reveals[0].round) return;
  const reveal = reveals[0];
  const round = events.filter((e) => e.round === reveal.round);
  for (const [seat, dive] of reveal.dives.entries()) {
    const slot = board.querySelector(`.mseat[data-seat="${seat}"] .dive-slot`);
    if (!slot) continue;
    slot.replaceChildren(diverCard(dive), h("span", {class: "tag"}, `dives ${dive}`));
    slot.classList.add("revealed");
  }
  await sleep(900);
  for (const space of [0, 1, 2]) {
    const row = board.querySelector(`.depth[data-space="${space}"]`);
    if (!row) continue;
    row.classList.add("active");
    const cards = row.querySelector(".depth-cards");
    const caught = round.find((e) => e.type === "catch" && e.space === space);
    const tie = round.find((e) => e.type === "tie" && e.space === space);
    let outcome;
    if (caught) {
      cards.replaceChildren(...caught.cards.map((c) => fishCard(c, after.catalog)));
      const tied = caught.tied?.length ? ` (tie of ${listing(caught.tied.map((x) => after.who(x)))}: Kiti chooses)` : "";
      const gull = round.find((e) => e.type === "seagull" && e.seat === caught.seat);
      outcome = `→ ${after.who(caught.seat)}, diver ${reveal.dives[caught.seat]}${tied}` +
        (gull && caught.cards.includes("S") ? ` · the Seagull eats ${gull.ate || "nothing"}` : "");
    } else if (tie) {
      outcome = `Tie of ${listing(tie.seats.map((x) => after.who(x)))}: ${after.view.tie_rule}`;
    } else {
      outcome = "No diver left for this depth";
    }
    row.append(h("span", {class: "outcome"}, outcome));
    await sleep(1000);
    if (caught) for (const card of cards.children) card.classList.add("catching");
    await sleep(450);
    row.classList.remove("active");
  }
  await sleep(300);
}
