// The lobby: create a table (game, seats, the game's options, timer, takeover), the games this
// browser sat at (its own history: seats.js), the open tables to join or watch, the games being
// played and the finished ones to replay (pages of the server's lists, from its database).

import {api, ApiError, games, timerPresets} from "./api.js";
import {clear, copyText, h, toast} from "./dom.js";
import {held, remember, seatLink} from "./seats.js";

const BOT_WORDS = {random: "Random bot", heuristic: "Heuristic bot", ismcts: "ISMCTS bot (strong, slower)"};
// A bot's words: its own, or a learned policy's (policy:GAME), else its spec.
const botWords = (bot) => BOT_WORDS[bot] || (bot.startsWith("policy:") ? `Learned bot (${bot.slice(7)})` : bot);
const PAGE = 20;  // tables per page of a list
const CUSTOM_TIMERS = [["30", "30 s per move, no reserve"], ["120", "2 min per move, no reserve"]];

function span(seconds) {
  return seconds % 60 ? `${seconds} s` : `${seconds / 60} min`;
}

// The timer choices: none, the server's presets (a time per move and a reserve), plain seconds.
function timerChoices(presets) {
  return [["", "No timer"],
    ...presets.map((p) => [p.name, `${words(p.name)}: ${span(p.move)} a move + ${span(p.bank)} reserve`]),
    ...CUSTOM_TIMERS];
}

// "A, B and C".
function series(items) {
  return items.length > 1 ? `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}` : items.join("");
}

function words(name) {
  const text = name.replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export class LobbyScreen {
  constructor(root) {
    this.root = root;
    this.timer = null;
    this.shown = {};  // tables shown per list (a page more at each "More")
    document.title = "Kiti: lobby";
    document.getElementById("crumbs").append(h("span", {}, "Lobby"));
    this.build().catch((error) => root.append(h("p", {class: "panel error", role: "alert"}, error.message)));
  }

  close() {
    clearInterval(this.timer);
  }

  async build() {
    this.games = await games();
    this.timers = timerChoices(await timerPresets());
    this.created = h("div", {id: "created", "aria-live": "polite", hidden: true, style: "grid-column: 1 / -1"});
    this.mine = h("div", {class: "table-list"});
    this.open = h("div", {class: "table-list"});
    this.playing = h("div", {class: "table-list"});
    this.waiting = h("div", {class: "table-list"});
    this.over = h("div", {class: "table-list"});
    this.nameInput = h("input", {id: "my-name", type: "text", maxlength: 40, placeholder: "Name",
                                 value: localStorage.getItem("kiti.name") || "",
                                 onchange: () => localStorage.setItem("kiti.name", this.nameInput.value.trim())});
    this.form = this.createForm();
    this.root.append(
      h("div", {class: "lobby"}, this.created,
        h("section", {class: "panel intro"},
          h("h1", {}, "Play island card games online"),
          h("p", {}, `${series(this.games.map((g) => g.name))} with friends and bots. Create a table, send each friend the link of `,
            "their seat, or join an open table below. Kiti referees every rule and shows each player only what ",
            "they may see.")),
        h("section", {class: "panel create", "aria-labelledby": "new-table"},
          h("h2", {id: "new-table"}, "New table"), this.form, this.createError = h("div", {"aria-live": "polite"})),
        h("section", {class: "panel lists"},
          h("div", {class: "row"}, h("label", {for: "my-name"}, "Your name (to join a table)"), this.nameInput),
          this.joinError = h("div", {"aria-live": "polite"}),
          h("h2", {}, "Your tables"), this.mine,
          h("h2", {}, "Open tables"), this.open,
          h("h2", {}, "Being played"), this.playing,
          h("h2", {}, "Waiting for their players"), this.waiting,
          h("h2", {}, "Finished"), this.over,
          h("button", {type: "button", class: "ghost", onclick: () => this.refresh()}, "Refresh"))));
    await this.refresh();
    this.timer = setInterval(() => this.refresh().catch(() => {}), 5000);
  }

  // ------------------------------------------------------------------ the form
  createForm() {
    const form = this.form = h("form", {class: "create-form", "aria-label": "New table"});
    const gameBox = h("fieldset", {class: "games"}, h("legend", {}, "Game"));
    const first = this.games[0].id;  // the games as the server lists them (/api/games)
    for (const g of this.games) {
      gameBox.append(h("label", {class: "game-choice"},
        h("input", {type: "radio", name: "game", value: g.id, checked: g.id === first,
                    onchange: () => this.gameChanged()}),
        h("span", {class: "game-name"}, g.name),
        h("span", {class: "muted"}, `${g.min_seats}–${g.max_seats} players`)));
    }
    this.count = h("select", {id: "seat-count", "aria-label": "Number of players", onchange: () => this.seatsChanged()});
    this.seatBox = h("div", {class: "seat-rows"});
    this.optionBox = h("div", {class: "options"});
    this.timerSelect = h("select", {id: "timer", "aria-label": "Turn timer"},
      this.timers.map(([value, label]) => h("option", {value}, label)));
    this.takeover = h("input", {type: "checkbox", id: "takeover"});
    this.standIn = h("select", {id: "stand-in", "aria-label": "Stand-in bot"});
    form.append(
      gameBox,
      h("div", {class: "row"}, h("label", {for: "seat-count"}, "Players"), this.count),
      h("fieldset", {}, h("legend", {}, "Seats"),
        h("p", {class: "help"}, "Tick the seat you sit at. A person's seat with a name is kept for them (only ",
          "their link opens it); one left without a name is open to anyone in the list below."), this.seatBox),
      h("fieldset", {}, h("legend", {}, "Options"), this.optionBox),
      h("fieldset", {}, h("legend", {}, "Time"),
        h("div", {class: "row"}, h("label", {for: "timer"}, "Turn timer"), this.timerSelect),
        h("div", {class: "row"}, h("label", {class: "check"}, this.takeover,
          " A bot takes over a player who leaves or runs out of time"), this.standIn)),
      h("button", {type: "submit", class: "primary"}, "Create table"));
    form.addEventListener("submit", (event) => { event.preventDefault(); this.create(); });
    this.gameChanged();
    return form;
  }

  game() {
    const id = this.form.querySelector("input[name=game]:checked").value;
    return this.games.find((g) => g.id === id);
  }

  gameChanged() {
    const g = this.game();
    clear(this.count);
    for (let n = g.min_seats; n <= g.max_seats; n++) this.count.append(h("option", {value: n}, String(n)));
    this.count.value = String(Math.min(g.max_seats, Math.max(g.min_seats, 4)));
    clear(this.standIn);
    for (const bot of g.bots) this.standIn.append(h("option", {value: bot, selected: bot === "heuristic"}, botWords(bot)));
    clear(this.optionBox);
    for (const o of g.options) this.optionBox.append(this.optionField(o));
    this.seatsChanged();
  }

  optionField(o) {
    const id = `opt-${o.name}`;
    let input;
    if (o.type === "bool") {
      input = h("input", {type: "checkbox", id, checked: o.default, "data-option": o.name, "data-type": "bool"});
      return h("div", {class: "option"}, h("label", {class: "check"}, input, " ", words(o.name)),
        h("p", {class: "help"}, o.help));
    }
    if (o.choices) {
      input = h("select", {id, "data-option": o.name, "data-type": o.type},
        o.choices.map((c) => h("option", {value: c, selected: c === o.default}, String(c))));
    } else {
      input = h("input", {id, type: o.type === "int" ? "number" : "text", value: o.default, min: o.type === "int" ? 0 : null,
                          "data-option": o.name, "data-type": o.type, class: "short"});
    }
    return h("div", {class: "option"}, h("label", {for: id}, words(o.name), " "), input, h("p", {class: "help"}, o.help));
  }

  seatsChanged() {
    const g = this.game();
    const n = Number(this.count.value);
    const old = [...this.seatBox.querySelectorAll(".seat-row")].map((row) => ({
      kind: row.querySelector("select").value, name: row.querySelector("input[type=text]").value}));
    const sitting = this.mySeat();
    clear(this.seatBox);
    for (let i = 0; i < n; i++) {
      const before = old[i] || {kind: i < 2 && n > 1 ? "human" : g.bots.includes("heuristic") ? "heuristic" : "random", name: ""};
      const kind = h("select", {"aria-label": `Seat ${i}: who plays`, "data-seat": i},
        h("option", {value: "human"}, "Person"),
        g.bots.map((b) => h("option", {value: b}, botWords(b))));
      kind.value = g.bots.includes(before.kind) || before.kind === "human" ? before.kind : "random";
      const name = h("input", {type: "text", maxlength: 40, value: before.name});
      const sit = h("input", {type: "radio", name: "sit", value: i, "aria-label": `I sit at seat ${i}`,
                              style: "width: auto; min-height: 0; margin: 0; flex: none",
                              checked: i === (sitting ?? 0), onchange: () => this.seatBox.querySelectorAll(".seat-row select")
                                .forEach((k) => k.dispatchEvent(new Event("change")))});
      const sync = () => {  // a person's name, or a bot's parameters (docs: kiti play --seats)
        const bot = kind.value !== "human";
        sit.disabled = bot;
        name.placeholder = bot ? "bot options, e.g. iters=300" : sit.checked ? "Your name"
          : "Their name (none: open to anyone)";
        name.setAttribute("aria-label", bot ? `Seat ${i}: bot options` : `Seat ${i}: name`);
      };
      let person = kind.value === "human";
      kind.addEventListener("change", () => {
        if ((kind.value === "human") !== person) name.value = "";  // a name is no bot option, and back
        person = kind.value === "human";
        sync();
      });
      sync();
      this.seatBox.append(h("div", {class: "seat-row"},
        h("label", {class: "seat-no", title: "The seat you sit at", style: "display: flex; gap: .3rem; align-items: center; white-space: nowrap; font-size: .85rem"},
          sit, window.innerWidth < 500 ? `${i}` : `Seat ${i}`), kind, name));
    }
  }

  // The seat the creator sits at: the one ticked "I sit here" (a person's seat), else none.
  mySeat() {
    const rows = [...this.seatBox.querySelectorAll(".seat-row")];
    const i = rows.findIndex((row) => row.querySelector("input[name=sit]").checked);
    return i >= 0 && rows[i].querySelector("select").value === "human" ? i : null;
  }

  body() {
    const g = this.game();
    const rows = [...this.seatBox.querySelectorAll(".seat-row")];
    const kinds = rows.map((row) => row.querySelector("select").value);
    const texts = rows.map((row) => row.querySelector("input[type=text]").value.trim());
    const me = this.mySeat();
    const seats = kinds.map((kind, i) => (kind !== "human" && texts[i] ? `${kind}:${texts[i]}` : kind));
    const names = kinds.map((kind, i) => (kind === "human" && texts[i]) || null);
    const options = {};
    for (const input of this.optionBox.querySelectorAll("[data-option]")) {
      const spec = g.options.find((o) => o.name === input.dataset.option);
      let value = input.type === "checkbox" ? input.checked : input.value;
      if (spec.type === "int") value = Number(value);
      if (value !== spec.default) options[spec.name] = value;
    }
    // A seat named for somebody opens only with its link; an unnamed one is open to anyone.
    const open = kinds.map((kind, i) => kind === "human" && i !== me && !names[i]);
    const body = {game: g.id, seats, names, open, options, takeover: this.takeover.checked};
    const timer = this.timerSelect.value;  // a preset's name, or seconds
    if (timer) body.timer = /^[0-9]+$/.test(timer) ? Number(timer) : timer;
    if (this.takeover.checked) body.stand_in = this.standIn.value;
    return body;
  }

  async create() {
    const button = this.form.querySelector("button[type=submit]");
    button.disabled = true;
    clear(this.createError);
    try {
      const me = this.mySeat();
      const made = await api("/api/tables", this.body());
      this.showCreated(made, me);
      this.refresh();
    } catch (error) {
      this.createError.append(h("p", {class: "error", role: "alert"}, `Not created: ${error.message}`));
    } finally {
      button.disabled = false;
    }
  }

  // The "table is ready" panel, at the top of the lobby: the creator's own seat to sit at, the
  // other seats' links only to share (opening one would take that person's seat).
  showCreated(made, me) {
    const t = made.table;
    const own = made.seats.find((s) => s.seat === me);
    const others = made.seats.filter((s) => s !== own);
    const share = others.map((s) => ({seat: s.seat, name: t.seats[s.seat].name, token: s.token,
                                      open: t.seats[s.seat].open}));
    if (own) remember(t.id, own.seat, own.token, t.game, share);
    const linkRow = (label, url, aria) => h("li", {},
      h("span", {}, label), h("input", {readonly: true, value: url, "aria-label": aria}),
      h("button", {type: "button", onclick: () => copyText(url)}, "Copy"));
    clear(this.created).append(h("div", {class: "created panel", role: "region", "aria-label": "Your new table"},
      h("h3", {}, `Table ${t.id} · ${t.name} is ready`),
      own ? h("p", {}, h("a", {class: "button primary", href: `#table=${t.id}&token=${own.token}`},
        `Sit at seat ${own.seat}`), others.length ? " — then send the other links to your friends." : "")
        : h("p", {}, h("a", {class: "button primary", href: `#table=${t.id}`}, "Watch the table")),
      others.length ? h("p", {class: "muted"}, "Links to share (each opens that person's seat: do not open them yourself):") : null,
      h("ul", {class: "links"},
        share.map((s) => linkRow(`Seat ${s.seat} (${s.open ? "open to anyone" : s.name})`, seatLink(t.id, s.token),
                                 `Link of seat ${s.seat}`)),
        linkRow("Spectators", seatLink(t.id), "Link to watch or join"))));
    this.created.hidden = false;
    window.scrollTo(0, 0);
    toast(`Table ${t.id} created`);
  }

  // ------------------------------------------------------------------ the lists
  async refresh() {
    await Promise.all([this.refreshMine(), this.refreshList(this.open, "open"),
                       this.refreshList(this.playing, "playing"), this.refreshList(this.waiting, "waiting"),
                       this.refreshList(this.over, "over")]);
  }

  // "Your tables": the games this browser sat at, as the server has them now.
  async refreshMine() {
    const mine = held();
    const found = new Map();
    for (let i = 0; i < mine.length; i += 50) {
      const ids = mine.slice(i, i + 50).map((m) => m.table).join(",");
      for (const t of (await api(`/api/tables?status=all&limit=50&ids=${encodeURIComponent(ids)}`)).tables) found.set(t.id, t);
    }
    const rows = mine.filter((m) => found.has(m.table));
    this.fill(this.mine, rows.map((m) => found.get(m.table)), (t) => {
      const m = rows.find((x) => x.table === t.id);
      const seat = `#table=${t.id}&token=${m.token}`;
      if (t.status === "over") {
        return [h("a", {class: "button primary", href: `#replay=${t.id}`}, "Replay"),
                h("a", {class: "button ghost", href: seat}, "Final table")];
      }
      const out = [h("a", {class: "button primary", href: seat}, `Open your seat ${m.seat}`)];
      if (m.share.length && t.status === "waiting") out.push(this.shareBox(t, m.share));
      return out;
    }, "No game in this browser yet: the tables you sit at are listed here.");
  }

  shareBox(t, share) {
    return h("details", {class: "share"}, h("summary", {}, "Links to share"),
      h("ul", {class: "links"}, share.map((s) => h("li", {},
        h("span", {}, `Seat ${s.seat} (${s.open ? "open to anyone" : s.name})`),
        h("input", {readonly: true, value: seatLink(t.id, s.token), "aria-label": `Seat ${s.seat}'s link to share`}),
        h("button", {type: "button", onclick: () => copyText(seatLink(t.id, s.token))}, "Copy")))));
  }

  // One of the server's lists, a page at a time ("More" asks for the next page).
  async refreshList(box, status) {
    const shown = this.shown[status] ||= PAGE;
    const data = await api(`/api/tables?status=${status}&limit=${shown}`);
    // waiting: the tables whose free seats are kept for their people (the others are open)
    if (status === "waiting") data.tables = data.tables.filter((t) => !t.seats.some((s) => s.open));
    const actions = {
      open: (t) => [h("button", {type: "button", class: "primary", onclick: () => this.join(t)}, "Join"),
                    h("a", {class: "button", href: `#table=${t.id}`}, "Watch")],
      playing: (t) => [h("a", {class: "button", href: `#table=${t.id}`}, "Watch")],
      waiting: (t) => [h("a", {class: "button", href: `#table=${t.id}`}, "Watch")],
      over: (t) => [h("a", {class: "button", href: `#replay=${t.id}`}, "Replay"),
                    h("a", {class: "button ghost", href: `#table=${t.id}`}, "Final table")],
    }[status];
    const empty = {open: "No open table: create one.", playing: "Nothing being played.",
                   waiting: "No table waiting for its players.", over: "No finished game yet."}[status];
    this.fill(box, data.tables, actions, empty);
    if (data.more) {
      box.append(h("button", {type: "button", class: "ghost small more",
                              onclick: () => { this.shown[status] = shown + PAGE; this.refreshList(box, status); }}, "More"));
    }
  }

  fill(box, tables, actions, empty) {
    clear(box);
    if (!tables.length) {
      box.append(h("p", {class: "muted"}, empty));
      return;
    }
    box.append(h("ul", {}, tables.map((t) => h("li", {class: "table-item", "data-table": t.id, "data-status": t.status},
      h("span", {class: "tname"}, h("b", {}, t.name), ` · ${t.id}`, t.status === "over" ? " · finished" : ""),
      h("span", {class: "tseats"}, t.seats.map((s) => s.kind === "human"
        ? (s.claimed ? s.name : s.open ? h("i", {}, "open seat") : h("i", {}, `kept for ${s.name}`))
        : `${s.name} (bot)`).reduce((acc, x, i) => acc.concat(i ? [", ", x] : [x]), [])),
      h("span", {class: "tact"}, actions(t))))));
  }

  // Join a table's first seat open to anyone; a refusal (a name taken, no seat left) is said here.
  async join(t) {
    const name = this.nameInput.value.trim();
    clear(this.joinError);
    const seat = t.seats.find((s) => s.open);
    try {
      const joined = await api(`/api/tables/${t.id}/join`, {...(name ? {name} : {}), ...(seat ? {seat: seat.seat} : {})});
      remember(t.id, joined.seat, joined.token, t.game);
      location.hash = `table=${t.id}&token=${joined.token}`;
    } catch (error) {
      const why = error instanceof ApiError ? error.message : String(error);
      this.joinError.append(h("p", {class: "error", role: "alert"}, `Cannot join table ${t.id}: ${why}`));
      toast(`Cannot join: ${why}`, "error");
      this.refresh();
    }
  }
}
