// Miaui's cards drawn by Kiti: the fish (Kittenfish, Tigerfish, Emperor Tuna, Lantern-of-the-Sea,
// Jellyfish, Seagull), their back, and the divers 1-12.  Names and values come from the game's
// catalog (the server's card data), never from this file.
// Served at /js/games/miaui/cards.js (a file beside the game's client module): the shared client
// (dom.js, cards/) is two folders up.

import {s} from "../../dom.js";
import {cardSvg, corners, text, waves} from "../../cards/common.js";

const LOOK = {
  K: {bg: "#ffe3c2", body: "#f28c28", ink: "#7a3b00"},
  T: {bg: "#fff1b8", body: "#f2b705", ink: "#6b4e00"},
  E: {bg: "#d6ebfa", body: "#1f5f99", ink: "#0d3358"},
  L: {bg: "#1b2a4a", body: "#50627f", ink: "#ffd166"},
  J: {bg: "#f1e4ff", body: "#9b5de5", ink: "#b00020"},
  S: {bg: "#e7f3fa", body: "#ffffff", ink: "#33505f"},
};

function fishBody(look, {stripes = false, crown = false, ears = false, lure = false} = {}) {
  const g = s("g", {});
  g.append(s("path", {d: "M14 44 L5 35 L7 44 L5 53 Z", fill: look.body, stroke: "#1d2a32", "stroke-width": 1}));
  g.append(s("ellipse", {cx: 31, cy: 44, rx: 18, ry: 11, fill: look.body, stroke: "#1d2a32", "stroke-width": 1.2}));
  g.append(s("path", {d: "M27 34 q5 -7 10 0", fill: look.body, stroke: "#1d2a32", "stroke-width": 1}));
  if (stripes) {
    for (const x of [24, 30, 36]) g.append(s("path", {d: `M${x} 35 q-2 9 0 18`, stroke: "#1d2a32", "stroke-width": 2, fill: "none"}));
  }
  if (ears) {
    g.append(s("path", {d: "M36 35 l3 -7 l4 6 Z M42 37 l4 -6 l2 7 Z", fill: look.body, stroke: "#1d2a32", "stroke-width": 1}));
    g.append(s("path", {d: "M47 46 l8 -2 M47 48 l8 1", stroke: "#1d2a32", "stroke-width": .8}));
  }
  if (crown) {
    g.append(s("path", {d: "M25 31 l2 -7 l3 4 l3 -5 l3 5 l3 -4 l2 7 Z", fill: "#ffd166", stroke: "#8a6d00", "stroke-width": .8}));
  }
  if (lure) {
    g.append(s("path", {d: "M40 34 q4 -14 12 -12", fill: "none", stroke: "#ffd166", "stroke-width": 1.2}));
    g.append(s("circle", {cx: 52, cy: 22, r: 6, fill: "#ffd166", opacity: .35}));
    g.append(s("circle", {cx: 52, cy: 22, r: 3, fill: "#fff3b0"}));
    g.append(s("path", {d: "M44 47 l3 -2 l2 2 l2 -2 l2 2", stroke: "#fff", "stroke-width": .9, fill: "none"}));
  }
  g.append(s("circle", {cx: 41, cy: 41, r: 2.4, fill: "#fff", stroke: "#1d2a32", "stroke-width": .8}));
  g.append(s("circle", {cx: 41.5, cy: 41, r: 1.1, fill: "#1d2a32"}));
  return g;
}

function jellyfish(look) {
  const g = s("g", {});
  for (const x of [20, 26, 32, 38, 44]) {
    g.append(s("path", {d: `M${x} 46 q-3 6 0 11 t0 11`, stroke: look.body, "stroke-width": 1.8, fill: "none"}));
  }
  g.append(s("path", {d: "M14 47 q0 -20 18 -20 q18 0 18 20 q-4 -3 -6 0 q-3 -3 -6 0 q-3 -3 -6 0 q-3 -3 -6 0 q-3 -3 -6 0 q-3 -3 -6 0 Z",
                      fill: look.body, stroke: "#4a1d7a", "stroke-width": 1}));
  g.append(s("ellipse", {cx: 27, cy: 35, rx: 5, ry: 3, fill: "#fff", opacity: .45}));
  return g;
}

function seagull() {
  const g = s("g", {});
  g.append(s("path", {d: "M8 40 q12 -14 22 2 q10 -16 22 -2 q-12 -6 -22 8 q-10 -14 -22 -8 Z",
                      fill: "#fff", stroke: "#33505f", "stroke-width": 1.3}));
  g.append(s("path", {d: "M27 44 l3 6 l3 -6", fill: "#f4a261", stroke: "#b5651d", "stroke-width": .8}));
  g.append(s("path", {d: "M10 66 q6 -3 12 0 t12 0 t12 0", stroke: "#7fb8d6", "stroke-width": 1.5, fill: "none"}));
  return g;
}

// A fish card face; `code` as in views ("T7", "J15", "S"), described by the catalog.
export function fishCard(code, catalog, {note = null, cls = ""} = {}) {
  const info = catalog?.cards?.[code] || {kind: code[0], name: code, value: ""};
  const look = LOOK[info.kind] || LOOK.K;
  const label = (info.kind === "S" ? info.name : `${info.name} (${info.value} points)`) + (note ? `, ${note}` : "");
  const svg = cardSvg(label, {cls: ["fish", `kind-${info.kind}`, cls].join(" "), fill: look.bg, help: catalog?.help?.[info.kind]});
  if (info.kind === "J") svg.append(jellyfish(look));
  else if (info.kind === "S") svg.append(seagull());
  else svg.append(fishBody(look, {stripes: info.kind === "T", crown: info.kind === "E", ears: info.kind === "K", lure: info.kind === "L"}));
  if (info.kind !== "S") corners(svg, info.value, info.kind === "J" ? "#b00020" : look.ink);
  const short = {K: "Kitten", T: "Tiger", E: "Tuna", L: "Lantern", J: "Jelly", S: "Seagull"}[info.kind] || info.name;
  svg.append(text(30, 66, short, {size: 8, fill: info.kind === "L" ? "#ffd166" : "#33505f", weight: 600}));
  return svg;
}

// A face-down fish.
export function fishBack({label = "a face-down fish card", cls = ""} = {}) {
  const svg = cardSvg(label, {cls: ["fish", "back", cls].join(" "), fill: "#0b4f6c", stroke: "#06283a"});
  waves(svg);
  svg.append(s("circle", {cx: 30, cy: 42, r: 13, fill: "#06283a", stroke: "#f4a261", "stroke-width": 1.5}));
  svg.append(text(30, 42, "M", {size: 14, fill: "#f4a261"}));
  return svg;
}

// A face-down lagoon card this viewer may see (a Lantern's catch): its face, marked as hidden.
export function peekedFish(code, catalog) {
  const svg = fishCard(code, catalog, {note: "face down, only you see it", cls: "peeked"});
  svg.append(s("rect", {x: 3, y: 3, width: 54, height: 78, rx: 5, fill: "none", stroke: "#0b4f6c", "stroke-width": 3,
                        "stroke-dasharray": "5 3"}));
  svg.append(s("g", {transform: "translate(46 22)"},
    s("circle", {r: 7, fill: "#0b4f6c"}),
    s("path", {d: "M-5 0 q5 -5 10 0 q-5 5 -10 0 Z", fill: "#fff"}),
    s("circle", {r: 1.8, fill: "#0b4f6c"})));
  return svg;
}

// A diver card, 1 (shallowest) to 12 (deepest): deeper divers are drawn in deeper blue.  `help`:
// what a diver does (the catalog's diver_help).
export function diverCard(n, {label = null, hidden = false, help = null} = {}) {
  if (hidden) {
    const back = cardSvg(label || "a diver, face down", {cls: "diver back", fill: "#1d3557", width: 44, height: 60});
    back.append(text(22, 30, "?", {size: 20, fill: "#a8dadc"}));
    return back;
  }
  const depth = Math.min(1, Math.max(0, (n - 1) / 11));
  const fill = `hsl(195 70% ${88 - depth * 50}%)`;
  const ink = depth > .55 ? "#fff" : "#0d3358";
  const svg = cardSvg(label || `diver ${n}`, {cls: "diver", fill, width: 44, height: 60, help});
  svg.append(s("g", {transform: "translate(22 17)", fill: "none", stroke: ink, "stroke-width": 1.4},
    s("circle", {cx: 0, cy: -5, r: 3}),
    s("path", {d: "M0 -2 v8 M-5 1 l5 -1 l5 1 M0 6 l-4 5 M0 6 l4 5"})));
  svg.append(text(22, 42, n, {size: 18, fill: ink}));
  return svg;
}
