// The router: the URL fragment says which screen to show (docs/protocol.md, "links").
//   #                       the lobby
//   #table=ID               a table, watched (or joined: its free seats are offered)
//   #table=ID&token=TOKEN   a table, as the token's seat
//   #replay=ID              a finished game, step by step

import {clear, h} from "./dom.js";
import {LobbyScreen} from "./lobby.js";
import {ReplayScreen} from "./replay.js";
import {TableScreen} from "./table.js";

const app = document.getElementById("app");
let screen = null;

function route() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (screen) screen.close();
  clear(app);
  clear(document.getElementById("crumbs"));
  try {
    if (params.get("table")) screen = new TableScreen(app, params.get("table"), params.get("token"));
    else if (params.get("replay")) screen = new ReplayScreen(app, params.get("replay"));
    else screen = new LobbyScreen(app);
  } catch (error) {
    app.append(h("p", {class: "panel error"}, String(error)));
  }
}

window.addEventListener("hashchange", route);
route();
