// Mauw's cards drawn by Kiti: Warriors by colour and value, the Joker, the Spirit, the expert
// animals (Kiwi, Ninox, Tuatura) and the common back printed "9 ×2" (every nine in a column).
// Names, colours and values come from the game's catalog.
// Served at /js/games/mauw/cards.js (a file beside the game's client module): the shared client
// (dom.js, cards/) is two folders up.

import {s} from "../../dom.js";
import {cardSvg, corners, text} from "../../cards/common.js";

export const COLOURS = {R: "#c8102e", Y: "#e0a800", G: "#2b9348", B: "#1d5fa8"};

function warriorGlyph(colour) {
  return s("g", {transform: "translate(30 42)"},
    s("path", {d: "M-11 -14 h22 v10 q0 14 -11 20 q-11 -6 -11 -20 Z", fill: colour, stroke: "#1d2a32", "stroke-width": 1.2}),
    s("path", {d: "M-6 -8 h12 M-6 -3 h12", stroke: "#fff", "stroke-width": 2}),
    s("path", {d: "M16 -24 v44", stroke: "#5b3a29", "stroke-width": 2}),
    s("path", {d: "M16 -28 l-3 6 h6 Z", fill: "#9aa5ab", stroke: "#1d2a32", "stroke-width": .6}));
}

function animalGlyph(code) {
  if (code === "KI") {  // Kiwi: round body, long beak
    return s("g", {transform: "translate(28 44)"},
      s("ellipse", {rx: 13, ry: 10, fill: "#8d6e4a", stroke: "#3e2a14", "stroke-width": 1}),
      s("circle", {cx: 10, cy: -6, r: 5.5, fill: "#8d6e4a", stroke: "#3e2a14", "stroke-width": 1}),
      s("path", {d: "M15 -6 l13 5", stroke: "#d9b44a", "stroke-width": 2}),
      s("circle", {cx: 11.5, cy: -7.5, r: 1, fill: "#111"}),
      s("path", {d: "M-4 9 v7 M3 9 v7", stroke: "#d9b44a", "stroke-width": 1.5}));
  }
  if (code === "NI") {  // Ninox: an owl's face
    return s("g", {transform: "translate(30 44)"},
      s("path", {d: "M-14 -12 l5 6 q9 -5 18 0 l5 -6 q2 14 0 22 q-14 12 -28 0 q-2 -8 0 -22 Z", fill: "#7a5c3e", stroke: "#2c1d10", "stroke-width": 1}),
      s("circle", {cx: -6, cy: -1, r: 5.5, fill: "#ffd166", stroke: "#2c1d10"}),
      s("circle", {cx: 6, cy: -1, r: 5.5, fill: "#ffd166", stroke: "#2c1d10"}),
      s("circle", {cx: -6, cy: -1, r: 2.2, fill: "#111"}),
      s("circle", {cx: 6, cy: -1, r: 2.2, fill: "#111"}),
      s("path", {d: "M-2 5 l2 4 l2 -4 Z", fill: "#e9a23b"}));
  }
  return s("g", {transform: "translate(30 44)"},  // Tuatura: a spiny lizard
    s("path", {d: "M-20 6 q10 -2 16 -8 q8 -6 18 -2 q6 2 4 6 q-8 2 -16 0 q-8 8 -22 4 Z", fill: "#5a8f3c", stroke: "#203a12", "stroke-width": 1}),
    s("path", {d: "M-6 -3 l2 -4 l2 3 l2 -4 l2 3 l2 -4 l2 3", fill: "none", stroke: "#203a12", "stroke-width": 1}),
    s("circle", {cx: 14, cy: -3, r: 1.1, fill: "#111"}),
    s("path", {d: "M-2 2 l-3 8 M6 1 l3 8", stroke: "#203a12", "stroke-width": 1.5}));
}

// A Mauw card face.  `as`: what a Joker stands for (shown on it).
export function mauwCard(code, catalog, {as = null, cls = "", note = null} = {}) {
  const info = catalog?.cards?.[code] || {kind: "warrior", name: code, value: "?", colour: code[0]};
  let label = info.name + (as ? ` standing for ${catalog?.cards?.[as]?.name || as}` : "") + (note ? `, ${note}` : "");
  const help = catalog?.help?.[code];
  if (info.kind === "warrior") {
    const colour = COLOURS[info.colour] || "#555";
    const svg = cardSvg(label, {cls: ["mauw", "warrior", `c-${info.colour}`, cls].join(" "), fill: colour, help});
    svg.append(s("rect", {x: 6, y: 6, width: 48, height: 72, rx: 4, fill: "#fffaf0"}));
    svg.append(warriorGlyph(colour));
    svg.append(text(30, 70, info.value, {size: 13, fill: colour}));
    corners(svg, info.value, colour, {size: 11});
    return svg;
  }
  if (info.kind === "joker") {
    const svg = cardSvg(label, {cls: ["mauw", "joker", cls].join(" "), fill: "#fff", help});
    const quads = [["R", 1, 1], ["Y", 30, 1], ["G", 1, 42], ["B", 30, 42]];
    for (const [c, x, y] of quads) svg.append(s("rect", {x, y, width: 29, height: 41, fill: COLOURS[c], opacity: .85}));
    svg.append(s("circle", {cx: 30, cy: 42, r: 15, fill: "#fffaf0", stroke: "#1d2a32", "stroke-width": 1.2}));
    svg.append(s("path", {d: "M30 30 l3.5 8 l8.5 .8 l-6.5 5.6 l2 8.4 l-7.5 -4.5 l-7.5 4.5 l2 -8.4 l-6.5 -5.6 l8.5 -.8 Z", fill: "#1d2a32"}));
    svg.append(text(30, 75, as ? `= ${as}` : "Joker", {size: 9, fill: "#fff"}));
    if (as) svg.classList.add("declared");
    return svg;
  }
  if (info.kind === "spirit") {
    const svg = cardSvg(label, {cls: ["mauw", "spirit", cls].join(" "), fill: "#ece6f7", help});
    svg.append(s("path", {d: "M18 60 q0 -34 12 -34 q12 0 12 34 l-4 -4 l-4 4 l-4 -4 l-4 4 l-4 -4 Z",
                          fill: "#fff", stroke: "#6c5b9b", "stroke-width": 1.4}));
    svg.append(s("circle", {cx: 26, cy: 40, r: 2, fill: "#6c5b9b"}), s("circle", {cx: 34, cy: 40, r: 2, fill: "#6c5b9b"}));
    svg.append(text(30, 14, "Spirit", {size: 9, fill: "#6c5b9b"}));
    corners(svg, 0, "#6c5b9b", {size: 10});
    return svg;
  }
  const svg = cardSvg(label, {cls: ["mauw", "animal", cls].join(" "), fill: "#f3ead7", help});
  svg.append(animalGlyph(code));
  svg.append(text(30, 14, info.name, {size: 9, fill: "#5b3a29"}));
  return svg;
}

// The common back, printed "9 ×2": a nine in a column, or any hidden card.
export function mauwBack({label = "a face-down card (a nine: 9 ×2)", cls = ""} = {}) {
  const svg = cardSvg(label, {cls: ["mauw", "back", cls].join(" "), fill: "#6b2737", stroke: "#2a0d15"});
  svg.append(s("rect", {x: 6, y: 6, width: 48, height: 72, rx: 4, fill: "none", stroke: "#e9c46a", "stroke-width": 1}));
  svg.append(text(30, 38, "9", {size: 30, fill: "#e9c46a", family: "Georgia, serif"}));
  svg.append(text(30, 62, "×2", {size: 13, fill: "#e9c46a"}));
  return svg;
}
