// The seats this browser holds (table id -> seat and token), kept in localStorage so that the
// lobby can list "your tables" and a rematch keeps the seat.  Tokens never leave the browser
// except in the hello that claims the seat.

const KEY = "kiti.seats";

function load() {
  try {
    return JSON.parse(localStorage.getItem(KEY)) || {};
  } catch {
    return {};
  }
}

export function remember(table, seat, token, game) {
  const all = load();
  all[table] = {seat, token, game, at: Date.now()};
  const ids = Object.keys(all).sort((a, b) => all[b].at - all[a].at).slice(0, 40);
  localStorage.setItem(KEY, JSON.stringify(Object.fromEntries(ids.map((id) => [id, all[id]]))));
}

export function held() {
  const all = load();
  return Object.entries(all).map(([table, v]) => ({table, ...v})).sort((a, b) => b.at - a.at);
}

export function forget(table) {
  const all = load();
  delete all[table];
  localStorage.setItem(KEY, JSON.stringify(all));
}

export function seatLink(table, token) {
  return `${location.origin}${location.pathname}#table=${table}` + (token ? `&token=${token}` : "");
}
