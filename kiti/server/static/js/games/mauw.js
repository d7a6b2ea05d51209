// Mauw: each seat's four columns as stacks (nines as "9 ×2" backs, the card on top, the score),
// hands, teams, the draw and discard piles, attacks and defences, gains to place, and your hand.
// A move is picked in steps (a card, what a Joker stands for, a column) among the server's legal
// moves; a pick the rules refuse is still sent, and the server's reason is shown.

import {add, h, listing} from "../dom.js";
import {mauwBack, mauwCard} from "../cards/mauw.js";
import {Picker} from "../picker.js";

const SLOTS = ["A", "B", "C", "D"];

function aValue(value) {
  return `${value === 8 || value === 11 || value === 18 ? "an" : "a"} ${value}`;
}
const WORDS = {pass: "Pass (discard your hand, draw four)", decline: "Decline (no defence)", stop: "Stop the attack"};

function seatOf(ctx) {
  return typeof ctx.you === "number" ? ctx.you : null;
}

// The picks that make a move, read from its notation (docs/rules/mauw.md, "Move notation").
export function pathOf(move, me) {
  let m;
  if (/^(pass|decline|stop)$/.test(move)) return [`btn:${move}`];
  if (move === "TU") return ["hand:TU"];
  if ((m = move.match(/^place ([A-D])$/))) return [`col:${me}${m[1]}`];
  if ((m = move.match(/^(?:defend|renew) (JK=)?(\w+)$/))) return m[1] ? ["hand:JK", `as:${m[2]}`] : [`hand:${m[2]}`];
  if ((m = move.match(/^KI (\d)([A-D])>(\d)([A-D])$/))) return ["hand:KI", `col:${m[1]}${m[2]}`, `col:${m[3]}${m[4]}`];
  if ((m = move.match(/^(JK=)?(\w\w) (\d)([A-D])$/))) {
    return m[1] ? ["hand:JK", `as:${m[2]}`, `col:${m[3]}${m[4]}`] : [`hand:${m[2]}`, `col:${m[3]}${m[4]}`];
  }
  return [`other:${move}`];
}

// The notation of picks that are not a legal move (sent so that the server says why).
function attempt(path, phase) {
  const card = path[0]?.slice(5);
  const as = path.find((p) => p.startsWith("as:"))?.slice(3);
  const cols = path.filter((p) => p.startsWith("col:")).map((p) => p.slice(4));
  const named = card === "JK" && as ? `JK=${as}` : card;
  if (phase === "defend" || phase === "assist") return `defend ${named}`;
  if (phase === "renew") return `renew ${named}`;
  if (phase === "place" && !card) return `place ${cols[0]?.slice(1)}`;
  if (card === "KI" && cols.length >= 2) return `KI ${cols[0]}>${cols[1]}`;
  return `${named} ${cols[0]}`;
}

function picker(ctx) {
  const me = seatOf(ctx);
  return new Picker((ctx.mode === "live" && ctx.legal ? ctx.legal : []).map((move) => ({move, path: pathOf(move, me)})));
}

// One pick (a card in hand, what a Joker stands for, a column): a legal move is played once its
// picks are complete; picks that make no legal move are sent anyway, for the server's reason.
function choose(ctx, pick) {
  const ui = ctx.ui;
  const p = picker(ctx);
  const sel = ui.sel || [];
  const answering = ["defend", "assist", "renew"].includes(ctx.view.phase);
  let next;
  if (pick.startsWith("hand:")) {
    if (sel.length === 1 && sel[0] === pick) {  // a second click puts the card back
      ui.sel = [];
      ctx.rerender();
      return;
    }
    next = [pick];
  } else if (!sel.length && !p.allows([], pick)) {
    const col = pick.slice(4);
    if (ctx.view.phase === "place" && col[0] === String(seatOf(ctx))) ctx.play(`place ${col.slice(1)}`);  // the server says why not
    else ctx.refuse(ctx.view.phase === "place" ? "a gain is placed on one of your own columns" : "choose a card from your hand first, then where it goes");
    return;
  } else {
    next = [...sel, pick];
  }
  const {picks, complete} = p.next(next);
  if (complete && !picks.size) {
    ui.sel = [];
    ctx.play(complete);
  } else if (picks.size || complete) {
    ui.sel = next;
    ctx.rerender();
  } else if (pick.startsWith("hand:") && !answering) {
    ui.sel = next;  // no legal play with it: a column click will ask the server why
    ctx.rerender();
  } else {
    ui.sel = [];
    ctx.rerender();
    ctx.play(attempt(next, ctx.view.phase));
  }
}

// ------------------------------------------------------------------ drawing
function teamOf(v, seat) {
  if (!v.teams) return null;
  const i = v.teams.findIndex((t) => t.includes(seat));
  return i < 0 ? null : i;
}

function stack(col, seat, slot, ctx) {
  const box = h("div", {class: ["stack", !col.nines && !col.top && "empty-slot"]});
  const nineCards = col.nine_cards || [];
  for (let i = 0; i < col.nines; i++) {
    box.append(nineCards[i] && nineCards[i] !== "?"
      ? mauwCard(nineCards[i], ctx.catalog, {note: "a nine, face down (shown now that everything is revealed)", cls: "nine-face"})
      : mauwBack({label: `a nine (9 ×2) in ${ctx.name(seat)}'s column ${slot}`}));
  }
  if (col.top) box.append(mauwCard(col.top, ctx.catalog, {note: `on top of column ${slot}`}));
  return box;
}

function columnView(ctx, seat, index, p, sel) {
  const v = ctx.view;
  const col = v.columns[seat][index];
  const slot = SLOTS[index];
  const pick = `col:${seat}${slot}`;
  const legal = p.allows(sel, pick);
  const attacked = v.attack && v.attack.defender === seat && v.attack.slot === slot;
  const what = col.top ? `${ctx.catalog?.cards?.[col.top]?.name || col.top}` : col.nines ? "bare nines" : "empty";
  const label = `${ctx.name(seat)}'s column ${slot}: ${col.nines} nine${col.nines === 1 ? "" : "s"}, ${what}, ${col.score} points` +
    (legal ? " (you may play here)" : "");
  const inner = [h("span", {class: "slot-name"}, slot), stack(col, seat, slot, ctx), h("span", {class: "col-score"}, String(col.score))];
  if (ctx.mode !== "live" || seatOf(ctx) === null) {
    return h("div", {class: ["column", attacked && "attacked"], "aria-label": label, role: "group"}, inner);
  }
  return h("button", {type: "button", class: ["column", legal && "legal", attacked && "attacked"], "aria-label": label,
                      "data-key": pick, "data-col": `${seat}${slot}`, "data-top": col.top || "", "data-nines": col.nines, onclick: () => choose(ctx, pick)}, inner);
}

function handLine(v, seat, ctx) {
  const hand = v.hands[seat] || [];
  if (seat === seatOf(ctx) || ctx.mode !== "live") {
    if (seat === seatOf(ctx) && ctx.mode === "live") return null;  // drawn below, as your hand
    return h("div", {class: "mini-hand"}, hand.map((c) => c === "?" ? mauwBack({label: "a card in hand"}) : mauwCard(c, ctx.catalog)));
  }
  const known = hand.filter((c) => c !== "?");
  return h("div", {class: "mini-hand", "aria-label": `${hand.length} cards in hand`},
    hand.filter((c) => c === "?").map(() => mauwBack({label: "a card in hand"})),
    known.map((c) => mauwCard(c, ctx.catalog, {note: "everyone knows this card is in hand"})),
    h("span", {}, `${hand.length} in hand` + (known.length ? ` (${known.join(", ")} known)` : "")));
}

function area(ctx, seat, p, sel) {
  const v = ctx.view;
  const team = teamOf(v, seat);
  const mates = team === null ? [] : v.teams[team].filter((x) => x !== seat);
  const acting = ctx.toAct.includes(seat) && !v.over;
  return h("div", {class: ["area", seat === seatOf(ctx) && "me", acting && "acting", team !== null && `team-${team}`], "data-seat": seat},
    h("div", {class: "area-head"},
      h("span", {class: "area-name"}, ctx.name(seat), (v.winners || []).includes(seat) && v.over ? " ★" : ""),
      team !== null ? h("span", {class: "tag"}, `Team ${team + 1}` + (mates.length ? ` with ${listing(mates.map((x) => ctx.who(x)))}` : " (alone)")) : null,
      acting ? h("span", {class: "tag hot"}, v.turn === seat && v.phase === "turn" ? "to play" : v.phase) : null,
      h("span", {class: "area-score", "aria-label": `score ${v.scores[seat]}`}, String(v.scores[seat]))),
    handLine(v, seat, ctx),
    h("div", {class: "columns"}, [0, 1, 2, 3].map((i) => columnView(ctx, seat, i, p, sel))));
}

function attackBanner(ctx) {
  const a = ctx.view.attack;
  if (!a) return null;
  const card = a.card ? mauwCard(a.card, ctx.catalog, {as: a.as}) : null;
  const awaiting = a.awaiting;
  const clock = ctx.clockLeft(awaiting) !== null
    ? h("span", {class: "tag hot"}, h("span", {class: "clock", "data-clock": awaiting}), " left") : null;
  return h("div", {class: "banner-attack", role: "status"},
    h("b", {}, "⚔ Attack"),
    mauwCard(a.target, ctx.catalog, {note: "attacked"}),
    h("span", {}, `${ctx.who(a.attacker) === "you" ? "You attack" : `${ctx.who(a.attacker)} attacks`} the ${a.target} in ` +
      `${ctx.who(a.defender) === "you" ? "your" : `${ctx.who(a.defender)}'s`} column ${a.slot}`,
      a.card ? ` with ${a.as ? `a Joker as ${a.as}` : a.card}` : ": defended", `. Answers must be ${aValue(a.value)} (or a Joker).`),
    card,
    h("span", {class: "tag"}, `waiting for ${ctx.who(awaiting)}`), clock);
}

function gainBanner(ctx) {
  const g = ctx.view.gain;
  if (!g) return null;
  const cards = [];
  for (let i = 0; i < g.nines; i++) cards.push(mauwBack({label: "a nine"}));
  if (g.top) cards.push(mauwCard(g.top, ctx.catalog));
  return h("div", {class: "banner-gain", role: "status"}, h("b", {}, "Gain"), cards,
    h("span", {}, `${ctx.who(g.seat) === "you" ? "You place" : `${ctx.who(g.seat)} places`} a gain: pick an empty slot or bare nines.`));
}

function centre(ctx) {
  const v = ctx.view;
  const drawCount = Array.isArray(v.draw_pile) ? v.draw_pile.length : v.draw_pile;
  const discard = v.discard || [];
  return h("div", {class: "mauw-center"},
    h("div", {class: "pile-box"}, mauwBack({label: `the draw pile: ${drawCount} cards`}), h("span", {}, `Draw pile: ${drawCount}`)),
    h("div", {class: "pile-box"},
      h("div", {class: "discard-fan"}, discard.slice(-6).map((c) => mauwCard(c, ctx.catalog))),
      h("span", {}, `Discards: ${discard.length}`)),
    v.team_scores ? h("span", {class: "tag"}, "Teams: " + v.team_scores.map((sc, i) => `Team ${i + 1}: ${sc}`).join(" · ")) : null);
}

function myHand(ctx, p, sel) {
  const me = seatOf(ctx);
  const v = ctx.view;
  if (me === null || ctx.mode !== "live") return null;
  const hand = v.hands[me] || [];
  const chosen = sel[0];
  const cards = hand.map((code, i) => {
    const pick = `hand:${code}`;
    const legal = p.allows([], pick);
    const on = chosen === pick && (ctx.ui.selIndex ?? i) === i;
    return h("button", {type: "button", class: ["pick", legal && "legal", on && "chosen"], "data-key": `${pick}-${i}`,
                        "data-card": code, "aria-pressed": on ? "true" : "false",
                        "aria-label": `${ctx.catalog?.cards?.[code]?.name || code}` + (legal ? "" : " (no legal play now)"),
                        onclick: () => { ctx.ui.selIndex = i; choose(ctx, pick); }}, mauwCard(code, ctx.catalog));
  });
  const asPicks = [...p.next(sel).picks].filter((x) => x.startsWith("as:"));
  const chooser = chosen === "hand:JK" && asPicks.length
    ? h("div", {class: "chooser", role: "group", "aria-label": "What the Joker stands for"},
      h("span", {}, "The Joker stands for:"),
      asPicks.map((pick) => h("button", {type: "button", class: "pick legal", "data-key": pick, "data-as": pick.slice(3),
                                         "aria-label": `Joker as ${ctx.catalog?.cards?.[pick.slice(3)]?.name || pick.slice(3)}`,
                                         onclick: () => choose(ctx, pick)}, mauwCard(pick.slice(3), ctx.catalog))))
    : null;
  const declared = sel.find((x) => x.startsWith("as:"));
  const buttons = [...p.next([]).picks].filter((x) => x.startsWith("btn:")).map((x) =>
    h("button", {type: "button", class: x === "btn:pass" ? "" : "primary", "data-key": x, "data-move": x.slice(4),
                 onclick: () => ctx.play(x.slice(4))}, WORDS[x.slice(4)] || x.slice(4)));
  const named = (code) => ctx.catalog?.cards?.[code]?.name || code;
  const hint = !sel.length ? "Pick a card, then a highlighted column."
    : chosen === "hand:JK" && !declared ? "Joker chosen: say what it stands for, then pick a highlighted column."
      : `${declared ? `Joker as ${named(declared.slice(3))}` : named(chosen.slice(5))} chosen: now pick a highlighted column (or the card again to put it back).`;
  return h("div", {class: "hand-box"},
    h("div", {class: "section-title"}, "Your hand"),
    h("div", {class: "my-hand", role: "group", "aria-label": "Your hand"}, cards),
    chooser,
    h("div", {class: "action-row"}, buttons, sel.length ? h("button", {type: "button", class: "ghost", onclick: () => { ctx.ui.sel = []; ctx.rerender(); }}, "Cancel") : null),
    ctx.yourTurn ? h("p", {class: "kbd-help"}, hint, " Keys: Tab to a card or column, Enter to pick, Esc to cancel.") : null);
}

export function render(board, ctx) {
  const v = ctx.view;
  const me = seatOf(ctx);
  const moment = JSON.stringify([v.phase, v.turn, me === null ? null : v.hands[me], ctx.yourTurn]);
  if (ctx.ui.moment !== moment) {  // a new question: nothing stays picked
    ctx.ui.moment = moment;
    ctx.ui.sel = [];
  }
  const p = picker(ctx);
  const sel = ctx.ui.sel || [];
  const order = [...Array(v.players).keys()].filter((x) => x !== me);
  if (me !== null) order.push(me);
  add(board,
    v.over && v.end_reason ? h("p", {class: "tag"}, `The game ended: ${v.end_reason}`) : null,
    centre(ctx),
    attackBanner(ctx),
    gainBanner(ctx),
    h("div", {class: "areas"}, order.map((seat) => area(ctx, seat, p, sel))),
    myHand(ctx, p, sel));
}

export function statusText(ctx) {
  const v = ctx.seatView;
  const a = v.attack;
  let mine = "Your turn: play a card (pick it, then a column) or pass";
  if (v.phase === "defend" && a) mine = `You are attacked: defend with ${aValue(a.value)} (or a Joker), or decline`;
  else if (v.phase === "assist" && a) mine = `${ctx.who(a.defender)} declined: defend your teammate with ${aValue(a.value)}, or decline`;
  else if (v.phase === "renew" && a) mine = `Your attack was defended: renew with another ${a.value}, or stop`;
  else if (v.phase === "place") mine = "Place your gain: pick one of your highlighted columns";
  const acting = ctx.toAct.map((x) => ctx.who(x));
  const others = v.phase === "turn" ? `${listing(acting)}'s turn` : `Waiting for ${listing(acting)} (${v.phase})`;
  return {mine, others};
}

export function onKey(event, ctx) {
  if (event.key === "Escape" && ctx.ui.sel?.length) {
    ctx.ui.sel = [];
    ctx.rerender();
    return true;
  }
  return false;
}
