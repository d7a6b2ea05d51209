// What every card drawing shares: an SVG card of a given size with a title (its accessible
// name), rounded corners and corner values.

import {s} from "../dom.js";
import "./help.js";

export const CARD_W = 60;
export const CARD_H = 84;

// An <svg> card: `label` is read by screen readers and shown as a tooltip; `help` (what the card
// does, from the game's catalog) is shown on hover, focus or a long press.
export function cardSvg(label, {cls = "", fill = "#fff", stroke = "#22313a", width = CARD_W, height = CARD_H, help = null} = {}) {
  return s("svg", {viewBox: `0 0 ${width} ${height}`, class: ["card", cls], role: "img", "aria-label": label, "data-help": help},
    s("title", {}, label),
    s("rect", {x: 1, y: 1, width: width - 2, height: height - 2, rx: 6, fill, stroke, "stroke-width": 1.5}));
}

export function text(x, y, value, {size = 12, fill = "#1d2a32", weight = 700, anchor = "middle", rotate = 0, family = null} = {}) {
  return s("text", {x, y, "font-size": size, fill, "font-weight": weight, "text-anchor": anchor,
                    "dominant-baseline": "central", "font-family": family,
                    transform: rotate ? `rotate(${rotate} ${x} ${y})` : null}, String(value));
}

// The value in the top-left corner and, upside down, in the bottom-right one.
export function corners(svg, value, fill, {width = CARD_W, height = CARD_H, size = 13} = {}) {
  svg.append(text(10, 11, value, {size, fill, anchor: "middle"}),
             text(width - 10, height - 11, value, {size, fill, anchor: "middle", rotate: 180}));
}

// Waves, for card backs.
export function waves(svg, {width = CARD_W, height = CARD_H, color = "rgba(255,255,255,.25)", gap = 9} = {}) {
  for (let y = 10; y < height - 4; y += gap) {
    svg.append(s("path", {d: `M6 ${y} q6 -4 12 0 t12 0 t12 0 t12 0`, fill: "none", stroke: color, "stroke-width": 1.3}));
  }
  void width;
}
