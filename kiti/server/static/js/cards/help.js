// Card help: any element with a data-help text (a card, a symbol, a Destiny) shows it in one
// floating box: on hover with a mouse, on keyboard focus, or after a long press on a touch screen
// (the press then does not click).  The texts come from the game's catalog, never from this code;
// every card module imports this one, which listens once for the whole page.

import {clear, h} from "../dom.js";

const PRESS_MS = 450;
let tip = null;
let press = null;
let pressed = false;

// The help under the pointer; for a focused control (a button holding a card), its card's.
function helpOf(target, inside = false) {
  if (!(target instanceof Element)) return null;
  return target.closest("[data-help]") || (inside ? target.querySelector(":scope > [data-help]") : null);
}

export function showHelp(el) {
  if (!tip) {
    tip = h("div", {class: "card-help", role: "tooltip", hidden: true});
    document.body.append(tip);
  }
  const name = el.getAttribute("aria-label") || el.querySelector(":scope > title")?.textContent || "";
  const text = el.getAttribute("data-help");
  clear(tip).append(...(name && !text.startsWith(name) ? [h("b", {}, name), " "] : []), text);
  tip.hidden = false;
  const box = el.getBoundingClientRect();
  const width = Math.min(320, window.innerWidth - 16);
  tip.style.maxWidth = `${width}px`;
  const left = Math.max(8, Math.min(box.left + box.width / 2 - width / 2, window.innerWidth - width - 8));
  const below = box.bottom + 8 + tip.offsetHeight < window.innerHeight;
  tip.style.left = `${left + window.scrollX}px`;
  tip.style.top = `${(below ? box.bottom + 8 : box.top - 8 - tip.offsetHeight) + window.scrollY}px`;
}

export function hideHelp() {
  if (tip) tip.hidden = true;
}

function installHelp() {
  document.addEventListener("pointerover", (e) => {
    if (e.pointerType !== "mouse") return;
    const el = helpOf(e.target);
    if (el) showHelp(el); else hideHelp();
  });
  document.addEventListener("pointerdown", (e) => {
    clearTimeout(press);
    pressed = false;
    if (e.pointerType === "mouse") return;
    hideHelp();
    const el = helpOf(e.target);
    if (el) press = setTimeout(() => { pressed = true; showHelp(el); }, PRESS_MS);
  });
  for (const kind of ["pointerup", "pointercancel"]) document.addEventListener(kind, () => clearTimeout(press));
  document.addEventListener("click", (e) => {  // a long press shows help; it does not play
    if (pressed) { e.preventDefault(); e.stopPropagation(); pressed = false; }
  }, true);
  document.addEventListener("contextmenu", (e) => { if (helpOf(e.target)) e.preventDefault(); });
  document.addEventListener("focusin", (e) => { const el = helpOf(e.target, true); if (el) showHelp(el); else hideHelp(); });
  document.addEventListener("scroll", hideHelp, true);
}

if (typeof document !== "undefined" && !window.kitiHelp) {
  window.kitiHelp = true;
  installHelp();
}
