// The games this browser sat at (table id -> its seat, token and game), kept in localStorage:
// the lobby's "Your tables" lists them (with their replays once over), across restarts of the
// server and of the browser, and a rematch keeps the seat.  A creator's entry also keeps the
// links of the other seats, only to share them.  Tokens never leave the browser except in the
// hello that opens the seat.

const KEY = "kiti.seats";
const KEEP = 100;  // the newest games kept

function load() {
  try {
    const all = JSON.parse(localStorage.getItem(KEY));
    return all && typeof all === "object" ? all : {};
  } catch {
    return {};
  }
}

function save(all) {
  const ids = Object.keys(all).sort((a, b) => all[b].at - all[a].at).slice(0, KEEP);
  localStorage.setItem(KEY, JSON.stringify(Object.fromEntries(ids.map((id) => [id, all[id]]))));
}

// This browser's person sits at `seat` of `table` (the links to share, if given, are kept).
export function remember(table, seat, token, game, share) {
  const all = load();
  const before = all[table] || {};
  all[table] = {seat, token, game, at: before.at || Date.now(), share: share || before.share || []};
  save(all);
}

export function held() {
  const all = load();
  return Object.entries(all).map(([table, v]) => ({table, share: [], ...v})).sort((a, b) => b.at - a.at);
}

export function forget(table) {
  const all = load();
  delete all[table];
  localStorage.setItem(KEY, JSON.stringify(all));
}

export function seatLink(table, token) {
  return `${location.origin}${location.pathname}#table=${table}` + (token ? `&token=${token}` : "");
}
