// Mauw: each seat's four columns as stacks (nines as backs, the card on top, the score), hands,
// teams, the draw and discard piles, attacks and defences, gains to place, and your hand.
// A move is picked in steps, as the server offers them (State.move_steps): a card in hand, what a
// Joker stands for ("as Y2"), a column (its name in the view, "1C"); each screen element is matched
// to its step token, never read from move notation.  A pick the server does not offer is still
// sent (its steps joined, which the rules read as a move), and the server's reason is shown.
// Every rule fact shown (what answers an attack, where a gain goes, a nine's worth, a hand's size)
// comes from the view.

import {add, h, listing} from "../dom.js";
import {mauwBack, mauwCard} from "./mauw/cards.js";

const NUMBER = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];

function aValue(value) {
  return `${value === 8 || value === 11 || value === 18 ? "an" : "a"} ${value}`;
}

function seatOf(ctx) {
  return typeof ctx.you === "number" ? ctx.you : null;
}

function named(ctx, code) {
  return ctx.catalog?.cards?.[code]?.name || code;
}

function either(words) {
  return words.length > 1 ? `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}` : words.join("");
}

// ------------------------------------------------------------------ steps
// The steps offered after `prefix` (the message's first steps, else asked once per question and
// kept until the next one; [] while the answer is on its way).
function stepsAfter(ctx, prefix) {
  if (ctx.mode !== "live" || !ctx.yourTurn) return [];
  if (!prefix.length) return ctx.steps || [];
  const cache = ctx.ui.steps || (ctx.ui.steps = {});
  const key = JSON.stringify(prefix);
  if (!(key in cache)) {
    cache[key] = null;
    ctx.askSteps(prefix).then((steps) => {
      if (ctx.ui.steps !== cache) return;  // a new question since
      cache[key] = steps || [];
      ctx.rerender();
    }).catch(() => { cache[key] = []; });
  }
  return cache[key] || [];
}

function offered(ctx, prefix) {
  return new Map(stepsAfter(ctx, prefix).map((step) => [step.token, step]));
}

// What a Joker may stand for, by step token ("as Y2" -> "Y2"), for every card of the catalog.
function jokerTokens(ctx) {
  return new Map(Object.keys(ctx.catalog?.cards || {}).map((code) => [`as ${code}`, code]));
}

// Why a pick the server does not offer is refused, from the view's rule facts (answers, gains).
function refusal(ctx, kind, token) {
  const v = ctx.view;
  if (v.attack && ["defend", "assist", "renew"].includes(v.phase)) {
    return `${named(ctx, token)} does not answer this attack: ${either(v.attack.answers.map((c) => named(ctx, c)))} does`;
  }
  if (v.phase === "place" && v.gain) return `the gain goes on your column ${either(v.gain.slots)}`;
  return "choose a card from your hand first, then where it goes";
}

// One pick: `token` of a card in hand ("hand"), a column or a Joker's declaration.  A move is
// played once its steps are complete; picks the server does not offer are sent anyway (the
// steps joined), for its reason.
function choose(ctx, kind, token) {
  const ui = ctx.ui;
  const sel = ui.sel || [];
  if (kind === "hand" && sel.length === 1 && sel[0] === token) {  // a second click puts the card back
    ui.sel = [];
    ctx.rerender();
    return;
  }
  const prefix = kind === "hand" ? [] : sel;
  const step = offered(ctx, prefix).get(token);
  if (step && step.move) {
    ui.sel = [];
    ctx.play(step.move);
  } else if (step || (kind === "hand" && !ctx.view.attack)) {
    ui.sel = [...prefix, token];  // no legal play with an unoffered card: a column click will ask the server why
    stepsAfter(ctx, ui.sel);
    ctx.rerender();
  } else if (kind === "column" && sel.length) {
    ui.sel = [];
    ctx.rerender();
    ctx.play([...sel, token].join(" "));
  } else {
    ctx.refuse(refusal(ctx, kind, token));
  }
}

// ------------------------------------------------------------------ drawing
function teamOf(v, seat) {
  if (!v.teams) return null;
  const i = v.teams.findIndex((t) => t.includes(seat));
  return i < 0 ? null : i;
}

function stack(col, seat, slot, ctx) {
  const rules = ctx.view.rules;
  const box = h("div", {class: ["stack", !col.nines && !col.top && "empty-slot"]});
  const nineCards = col.nine_cards || [];
  for (let i = 0; i < col.nines; i++) {
    box.append(nineCards[i] && nineCards[i] !== "?"
      ? mauwCard(nineCards[i], ctx.catalog, {note: "a nine, face down (shown now that everything is revealed)", cls: "nine-face"})
      : mauwBack({label: `a nine (${rules.nine_value} ×${rules.nine_multiplier}) in ${ctx.name(seat)}'s column ${slot}`}));
  }
  if (col.top) box.append(mauwCard(col.top, ctx.catalog, {note: `on top of column ${slot}`}));
  return box;
}

function columnView(ctx, seat, index, next) {
  const v = ctx.view;
  const col = v.columns[seat][index];
  const slot = col.slot;
  const legal = next.has(col.where);
  const attacked = v.attack && v.attack.defender === seat && v.attack.slot === slot;
  const what = col.top ? `${ctx.catalog?.cards?.[col.top]?.name || col.top}` : col.nines ? "bare nines" : "empty";
  const label = `${ctx.name(seat)}'s column ${slot}: ${col.nines} nine${col.nines === 1 ? "" : "s"}, ${what}, ${col.score} points` +
    (legal ? " (you may play here)" : "");
  const inner = [h("span", {class: "slot-name"}, slot), stack(col, seat, slot, ctx), h("span", {class: "col-score"}, String(col.score))];
  if (ctx.mode !== "live" || seatOf(ctx) === null) {
    return h("div", {class: ["column", attacked && "attacked"], "aria-label": label, role: "group"}, inner);
  }
  return h("button", {type: "button", class: ["column", legal && "legal", attacked && "attacked"], "aria-label": label,
                      "data-key": `col:${col.where}`, "data-col": col.where, "data-top": col.top || "", "data-nines": col.nines,
                      onclick: () => choose(ctx, "column", col.where)}, inner);
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

function area(ctx, seat, next) {
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
    h("div", {class: "columns"}, v.columns[seat].map((_, i) => columnView(ctx, seat, i, next))));
}

function attackBanner(ctx) {
  const a = ctx.view.attack;
  if (!a) return null;
  const card = a.card ? mauwCard(a.card, ctx.catalog, {as: a.declared}) : null;
  const awaiting = a.awaiting;
  const clock = ctx.clockLeft(awaiting) !== null
    ? h("span", {class: "tag hot"}, h("span", {class: "clock", "data-clock": awaiting}), " left") : null;
  return h("div", {class: "banner-attack", role: "status"},
    h("b", {}, "⚔ Attack"),
    mauwCard(a.target, ctx.catalog, {note: "attacked"}),
    h("span", {}, `${ctx.who(a.attacker) === "you" ? "You attack" : `${ctx.who(a.attacker)} attacks`} the ${a.target} in ` +
      `${ctx.who(a.defender) === "you" ? "your" : `${ctx.who(a.defender)}'s`} column ${a.slot}`,
      a.card ? ` with ${a.declared ? `a Joker as ${a.declared}` : a.card}` : ": defended",
      `. Answers (${aValue(a.value)}): ${either(a.answers.map((c) => named(ctx, c)))}.`),
    card,
    h("span", {class: "tag"}, `waiting for ${ctx.who(awaiting)}`), clock);
}

function gainBanner(ctx) {
  const g = ctx.view.gain;
  if (!g) return null;
  const cards = [];
  for (let i = 0; i < g.nines.length; i++) cards.push(mauwBack({label: "a nine"}));
  if (g.top) cards.push(mauwCard(g.top, ctx.catalog));
  return h("div", {class: "banner-gain", role: "status"}, h("b", {}, "Gain"), cards,
    h("span", {}, `${ctx.who(g.seat) === "you" ? "You place" : `${ctx.who(g.seat)} places`} a gain: column ${either(g.slots)}.`));
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

function myHand(ctx, first, next) {
  const me = seatOf(ctx);
  const v = ctx.view;
  if (me === null || ctx.mode !== "live") return null;
  const hand = v.hands[me] || [];
  const sel = ctx.ui.sel || [];
  const chosen = sel[0];
  const cards = hand.map((code, i) => {
    const legal = first.has(code);
    const on = chosen === code && (ctx.ui.selIndex ?? i) === i;
    return h("button", {type: "button", class: ["pick", legal && "legal", on && "chosen"], "data-key": `hand:${code}-${i}`,
                        "data-card": code, "aria-pressed": on ? "true" : "false",
                        "aria-label": named(ctx, code) + (legal ? "" : " (no legal play now)"),
                        onclick: () => { ctx.ui.selIndex = i; choose(ctx, "hand", code); }}, mauwCard(code, ctx.catalog));
  });
  const jokers = jokerTokens(ctx);
  const asSteps = sel.length === 1 ? [...next.values()].filter((st) => jokers.has(st.token)) : [];
  const chooser = asSteps.length
    ? h("div", {class: "chooser", role: "group", "aria-label": "What the Joker stands for"},
      h("span", {}, "The Joker stands for:"),
      asSteps.map((st) => h("button", {type: "button", class: "pick legal", "data-key": st.token, "data-as": jokers.get(st.token),
                                       "aria-label": `Joker as ${named(ctx, jokers.get(st.token))}`,
                                       onclick: () => choose(ctx, "as", st.token)}, mauwCard(jokers.get(st.token), ctx.catalog))))
    : null;
  const declared = jokers.get(sel.find((t) => jokers.has(t)));
  const wordsFor = {pass: `Pass (discard your hand, draw ${NUMBER[v.rules.hand] || v.rules.hand})`,
                    decline: "Decline (no defence)", stop: "Stop the attack"};
  const columns = new Set(v.columns.flat().map((col) => col.where));
  const buttons = [...first.values()].filter((st) => st.move && !hand.includes(st.token) && !columns.has(st.token)).map((st) =>
    h("button", {type: "button", class: st.token === "pass" ? "" : "primary", "data-key": `btn:${st.token}`, "data-move": st.move,
                 onclick: () => ctx.play(st.move)}, wordsFor[st.token] || st.token));
  const hint = !sel.length ? "Pick a card, then a highlighted column."
    : chosen === "JK" && !declared ? "Joker chosen: say what it stands for, then pick a highlighted column."
      : `${declared ? `Joker as ${named(ctx, declared)}` : named(ctx, chosen)} chosen: now pick a highlighted column (or the card again to put it back).`;
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
  const moment = JSON.stringify([v.phase, v.turn, me === null ? null : v.hands[me], ctx.yourTurn, ctx.steps]);
  if (ctx.ui.moment !== moment) {  // a new question: nothing stays picked, its steps are asked afresh
    ctx.ui.moment = moment;
    ctx.ui.sel = [];
    ctx.ui.steps = {};
  }
  const sel = ctx.ui.sel || [];
  const first = offered(ctx, []);
  const next = sel.length ? offered(ctx, sel) : first;
  const order = [...Array(v.players).keys()].filter((x) => x !== me);
  if (me !== null) order.push(me);
  add(board,
    v.over && v.end_reason ? h("p", {class: "tag"}, `The game ended: ${v.end_reason}`) : null,
    centre(ctx),
    attackBanner(ctx),
    gainBanner(ctx),
    h("div", {class: "areas"}, order.map((seat) => area(ctx, seat, next))),
    myHand(ctx, first, next));
}

export function statusText(ctx) {
  const v = ctx.seatView;
  const a = v.attack;
  let mine = "Your turn: play a card (pick it, then a column) or pass";
  const answers = a ? either(a.answers.map((c) => named(ctx, c))) : "";
  if (v.phase === "defend" && a) mine = `You are attacked: defend with ${answers} (${aValue(a.value)}), or decline`;
  else if (v.phase === "assist" && a) mine = `${ctx.who(a.defender)} declined: defend your teammate with ${answers} (${aValue(a.value)}), or decline`;
  else if (v.phase === "renew" && a) mine = `Your attack was defended: renew with ${answers} (another ${a.value}), or stop`;
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
