// Tiny DOM helpers: h() builds HTML elements, s() SVG elements; children may be nested arrays,
// strings or nodes (null, undefined and false are skipped).

const SVGNS = "http://www.w3.org/2000/svg";

function setProps(el, props) {
  for (const [key, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") {
      el.setAttribute("class", Array.isArray(value) ? value.filter(Boolean).join(" ") : value);
    } else if (key === "text") {
      el.textContent = value;
    } else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "style" && typeof value === "object") {
      Object.assign(el.style, value);
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
}

function append(el, kids) {
  for (const kid of kids.flat(Infinity)) {
    if (kid === null || kid === undefined || kid === false) continue;
    el.append(kid instanceof Node ? kid : String(kid));
  }
}

export function h(tag, props, ...kids) {
  const el = document.createElement(tag);
  setProps(el, props);
  append(el, kids);
  return el;
}

export function s(tag, props, ...kids) {
  const el = document.createElementNS(SVGNS, tag);
  setProps(el, props);
  append(el, kids);
  return el;
}

// el.append(...kids), skipping null, undefined and false (the DOM's append writes "null").
export function add(el, ...kids) {
  append(el, kids);
  return el;
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

export function $(selector, root = document) {
  return root.querySelector(selector);
}

// A short message that fades away (also read out by screen readers).
export function toast(text, kind = "info") {
  const box = document.getElementById("toasts");
  const item = h("div", {class: ["toast", kind]}, text);
  box.append(item);
  setTimeout(() => item.classList.add("gone"), 3500);
  setTimeout(() => item.remove(), 4200);
}

export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    toast("Link copied");
  } catch {
    window.prompt("Copy this link:", text);
  }
}

// "a, b and c"
export function listing(words) {
  if (words.length <= 1) return words.join("");
  return words.slice(0, -1).join(", ") + " and " + words[words.length - 1];
}

export function seconds(value) {
  const t = Math.max(0, Math.ceil(value));
  return `${Math.floor(t / 60)}:${String(t % 60).padStart(2, "0")}`;
}

// The animation speed factor: ?anim=fast (tests) or reduced motion make animations short.
export function animFactor() {
  const anim = new URLSearchParams(location.search).get("anim");
  if (anim === "off") return 0;
  if (anim === "fast") return 0.08;
  if (window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches) return 0.2;
  return 1;
}

export function sleep(ms) {
  return new Promise((resolve) => {
    setTimeout(resolve, ms * animFactor());
  });
}
