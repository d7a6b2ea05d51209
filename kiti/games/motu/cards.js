// MOTU's island cards drawn by Kiti: cells of Land, Beach and Sea with their symbols
// (fisherman, fish, hunter, bird, canoe, palm tree, volcano, the seven totems, the village star).
// Card layouts (already turned by the server's island model) come from the game's catalog.
// Served at /js/games/motu/cards.js (a file beside the game's client module): the shared client
// (dom.js, cards/) is two folders up.

import {s} from "../../dom.js";
import "../../cards/help.js";

export const TERRAIN = {L: "#7fb24a", B: "#f1d98a", S: "#3d8fcf"};
export const TERRAIN_EDGE = {L: "#5c8a31", B: "#d2b35c", S: "#2a6ea3"};
const TOTEM_COLOURS = ["#c1121f", "#2a9d8f", "#6d597a", "#e76f51", "#264653", "#8338ec", "#3a86ff"];

// One symbol drawn in a 10×10 box at (x, y), scaled to `size`.
export function symbolIcon(kind, x, y, size, name = kind, help = null) {
  const g = s("g", {transform: `translate(${x} ${y}) scale(${size / 10})`, class: `sym sym-${kind}`, "data-help": help});
  g.append(s("title", {}, name));
  g.append(s("circle", {cx: 5, cy: 5, r: 4.4, fill: "rgba(255,255,255,.78)", stroke: "rgba(0,0,0,.25)", "stroke-width": .3}));
  const ink = {stroke: "#2b1d12", "stroke-width": .7, fill: "none", "stroke-linecap": "round"};
  switch (kind) {
    case "fisherman":
      g.append(s("circle", {cx: 4, cy: 2.9, r: .9, fill: "#2b1d12"}),
               s("path", {d: "M4 3.8 v2.8 M4 6.6 l-1.2 1.8 M4 6.6 l1.2 1.8 M4 4.6 l2.2 -.6 M6.2 4 l2 -2.4 M8.2 1.6 v4", ...ink}));
      break;
    case "fish":
      g.append(s("path", {d: "M2.2 5 l-1 -1.5 v3 Z", fill: "#e76f51"}),
               s("ellipse", {cx: 5.2, cy: 5, rx: 3, ry: 1.7, fill: "#e76f51", stroke: "#7a2e1a", "stroke-width": .3}),
               s("circle", {cx: 6.8, cy: 4.6, r: .35, fill: "#111"}));
      break;
    case "hunter":
      g.append(s("circle", {cx: 4.5, cy: 2.9, r: .9, fill: "#5b3a29"}),
               s("path", {d: "M4.5 3.8 v2.8 M4.5 6.6 l-1.2 1.8 M4.5 6.6 l1.2 1.8 M4.5 4.6 l1.8 .6", ...ink, stroke: "#5b3a29"}),
               s("path", {d: "M2 8.5 L8.4 1.8", stroke: "#5b3a29", "stroke-width": .6}),
               s("path", {d: "M8.6 1.5 l-1.3 .3 l.9 .9 Z", fill: "#555"}));
      break;
    case "bird":
      g.append(s("path", {d: "M1.5 5.2 q1.8 -2.4 3.5 0 q1.7 -2.4 3.5 0", ...ink, "stroke-width": .9}));
      break;
    case "canoe":
      g.append(s("path", {d: "M1.2 5.2 q3.8 3.4 7.6 0 Z", fill: "#8b5a2b", stroke: "#3e2a14", "stroke-width": .3}),
               s("path", {d: "M6.5 2 L4.5 7", stroke: "#3e2a14", "stroke-width": .5}));
      break;
    case "palm":
      g.append(s("path", {d: "M5 8.8 q-.6 -3 .2 -5", stroke: "#7a4f2a", "stroke-width": .8, fill: "none"}),
               s("path", {d: "M5.2 3.6 q-2 -1.4 -3.6 .2 M5.2 3.6 q2 -1.4 3.6 .2 M5.2 3.6 q-1 -2 -2.6 -2 M5.2 3.6 q1 -2 2.6 -2",
                          stroke: "#1b7a3a", "stroke-width": .8, fill: "none"}));
      break;
    case "volcano":
      g.append(s("path", {d: "M1.2 8.6 L4 3.4 h2 L8.8 8.6 Z", fill: "#6d4c41", stroke: "#3b2a24", "stroke-width": .3}),
               s("path", {d: "M4 3.4 h2 l-.5 1.4 l-.5 -.6 l-.5 .6 Z", fill: "#e63946"}),
               s("path", {d: "M4.6 2.6 q-.6 -1 .2 -1.8 M5.6 2.6 q.6 -1 -.2 -1.8", stroke: "#999", "stroke-width": .35, fill: "none"}));
      break;
    case "star":
      g.append(s("path", {d: "M5 1.2 l1.1 2.4 l2.6 .3 l-1.9 1.8 l.5 2.6 l-2.3 -1.3 l-2.3 1.3 l.5 -2.6 l-1.9 -1.8 l2.6 -.3 Z",
                          fill: "#ffd166", stroke: "#8a6d00", "stroke-width": .35}));
      break;
    default:
      if (kind.startsWith("totem")) {
        const n = Number(kind.slice(5)) || 1;
        const colour = TOTEM_COLOURS[(n - 1) % TOTEM_COLOURS.length];
        g.append(s("rect", {x: 3, y: 1.4, width: 4, height: 7.2, rx: .8, fill: colour, stroke: "#1d2a32", "stroke-width": .3}),
                 s("path", {d: "M3 4.2 h4 M3 6.2 h4", stroke: "rgba(0,0,0,.35)", "stroke-width": .3}),
                 s("text", {x: 5, y: 5.1, "font-size": 3.2, fill: "#fff", "text-anchor": "middle", "dominant-baseline": "central",
                            "font-weight": 700}, String(n)));
      } else {
        g.append(s("text", {x: 5, y: 5, "font-size": 3, "text-anchor": "middle", "dominant-baseline": "central"}, kind.slice(0, 2)));
      }
  }
  return g;
}

// One cell (terrain and symbol) at grid position (x, y), each cell `size` wide.
export function cellGroup(terrain, symbol, x, y, size, catalog, {ghost = false} = {}) {
  const g = s("g", {class: ghost ? "cell ghost" : "cell"});
  g.append(s("rect", {x: x * size, y: y * size, width: size, height: size, fill: TERRAIN[terrain] || "#ccc",
                      stroke: TERRAIN_EDGE[terrain] || "#999", "stroke-width": size / 40}));
  if (terrain === "S") {
    g.append(s("path", {d: `M${x * size + size * .15} ${y * size + size * .8} q${size * .17} ${-size * .1} ${size * .35} 0 t${size * .35} 0`,
                        stroke: "rgba(255,255,255,.35)", "stroke-width": size / 30, fill: "none"}));
  }
  const info = catalog?.symbols?.[symbol];
  if (symbol) g.append(symbolIcon(symbol, x * size + size * .05, y * size + size * .05, size * .9, info?.name || symbol, info?.help));
  return g;
}

// A whole card (in one rotation) as a small SVG, e.g. for the row or the card in hand.
export function islandCard(cardId, catalog, {rotation = 0, size = 16, label = null, cls = ""} = {}) {
  const turned = catalog?.cards?.[cardId]?.rotations?.[String(rotation)];
  if (!turned) {
    return s("svg", {viewBox: "0 0 30 40", class: ["island-card", "unknown", cls].join(" "), role: "img", "aria-label": label || "a face-down card"},
      s("title", {}, label || "a face-down card"),
      s("rect", {x: 1, y: 1, width: 28, height: 38, rx: 3, fill: "#0b4f6c", stroke: "#06283a"}));
  }
  const w = turned.rows[0].length;
  const hgt = turned.rows.length;
  const names = turned.symbols.map(([, , k]) => catalog.symbols?.[k]?.name || k);
  const text = label || `${cardId}: ${names.join(", ") || "no symbols"}`;
  const helps = [...new Set(turned.symbols.map(([, , k]) => catalog.symbols?.[k]?.help).filter(Boolean))];
  const svg = s("svg", {viewBox: `-1 -1 ${w * size + 2} ${hgt * size + 2}`, class: ["island-card", cls].join(" "),
                        role: "img", "aria-label": text, width: w * size + 2, height: hgt * size + 2,
                        "data-help": helps.join(" · ") || null});
  svg.append(s("title", {}, text));
  const symbols = new Map(turned.symbols.map(([x, y, k]) => [`${x},${y}`, k]));
  turned.rows.forEach((row, y) => [...row].forEach((t, x) => svg.append(cellGroup(t, symbols.get(`${x},${y}`), x, y, size, catalog))));
  svg.append(s("rect", {x: 0, y: 0, width: w * size, height: hgt * size, fill: "none", stroke: "#1d2a32", "stroke-width": 1.2, rx: 1.5}));
  return svg;
}
