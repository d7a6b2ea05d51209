// The lobby's HTTP JSON API (docs/protocol.md, "The lobby").

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

export async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
  };
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError("network", "the server cannot be reached", 0);
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok || data.error) {
    const error = data.error || {code: "http", message: `HTTP ${response.status}`};
    throw new ApiError(error.code, error.message, response.status);
  }
  return data;
}

let gamesPromise = null;
function gamesAnswer() {
  gamesPromise = gamesPromise || api("/api/games");
  return gamesPromise;
}
export function games() {
  return gamesAnswer().then((d) => d.games);
}
// The server's timer presets (docs/protocol.md, "Turn timer"): [{name, move, bank, cap}].
export function timerPresets() {
  return gamesAnswer().then((d) => d.timers || []);
}

const catalogs = new Map();
export function catalog(game) {
  if (!catalogs.has(game)) catalogs.set(game, api(`/api/games/${encodeURIComponent(game)}/catalog`).then((d) => d.catalog));
  return catalogs.get(game);
}
