// The lobby: create a table (game, seats, the game's options, timer, takeover), the open tables
// to join or watch, the games being played, the finished ones to replay, and the tables this
// browser holds a seat at.

import {api, games} from "./api.js";
import {clear, copyText, h, toast} from "./dom.js";
import {held, remember, seatLink} from "./seats.js";

const BOT_WORDS = {random: "Random bot", heuristic: "Heuristic bot", ismcts: "ISMCTS bot (strong, slower)"};
const TIMERS = [["", "No timer"], ["30", "30 s per move"], ["60", "1 min per move"], ["120", "2 min per move"],
                ["300", "5 min per move"]];

function words(name) {
  const text = name.replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export class LobbyScreen {
  constructor(root) {
    this.root = root;
    this.timer = null;
    document.title = "Kiti: lobby";
    document.getElementById("crumbs").append(h("span", {}, "Lobby"));
    this.build().catch((error) => root.append(h("p", {class: "panel error", role: "alert"}, error.message)));
  }

  close() {
    clearInterval(this.timer);
  }

  async build() {
    this.games = await games();
    this.created = h("div", {id: "created", "aria-live": "polite"});
    this.mine = h("div", {class: "table-list"});
    this.open = h("div", {class: "table-list"});
    this.playing = h("div", {class: "table-list"});
    this.over = h("div", {class: "table-list"});
    this.nameInput = h("input", {id: "my-name", type: "text", maxlength: 40, placeholder: "Name",
                                 value: localStorage.getItem("kiti.name") || "",
                                 onchange: () => localStorage.setItem("kiti.name", this.nameInput.value.trim())});
    this.form = this.createForm();
    this.root.append(
      h("div", {class: "lobby"},
        h("section", {class: "panel intro"},
          h("h1", {}, "Play island card games online"),
          h("p", {}, "Miaui, Mauw and MOTU with friends and bots. Create a table, send each friend the link of ",
            "their seat, or join an open table below. Kiti referees every rule and shows each player only what ",
            "they may see.")),
        h("section", {class: "panel create", "aria-labelledby": "new-table"},
          h("h2", {id: "new-table"}, "New table"), this.form, this.created),
        h("section", {class: "panel lists"},
          h("div", {class: "row"}, h("label", {for: "my-name"}, "Your name (to join a table)"), this.nameInput),
          h("h2", {}, "Your tables"), this.mine,
          h("h2", {}, "Open tables"), this.open,
          h("h2", {}, "Being played"), this.playing,
          h("h2", {}, "Finished"), this.over,
          h("button", {type: "button", class: "ghost", onclick: () => this.refresh()}, "Refresh"))));
    await this.refresh();
    this.timer = setInterval(() => this.refresh().catch(() => {}), 5000);
  }

  // ------------------------------------------------------------------ the form
  createForm() {
    const form = this.form = h("form", {class: "create-form", "aria-label": "New table"});
    const gameBox = h("fieldset", {class: "games"}, h("legend", {}, "Game"));
    const first = this.games.some((g) => g.id === "miaui") ? "miaui" : this.games[0].id;
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
      TIMERS.map(([value, label]) => h("option", {value}, label)));
    this.takeover = h("input", {type: "checkbox", id: "takeover"});
    this.standIn = h("select", {id: "stand-in", "aria-label": "Stand-in bot"});
    form.append(
      gameBox,
      h("div", {class: "row"}, h("label", {for: "seat-count"}, "Players"), this.count),
      h("fieldset", {}, h("legend", {}, "Seats"), this.seatBox),
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
    for (const bot of g.bots) this.standIn.append(h("option", {value: bot, selected: bot === "heuristic"}, BOT_WORDS[bot] || bot));
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
      kind: row.querySelector("select").value, name: row.querySelector("input").value}));
    clear(this.seatBox);
    for (let i = 0; i < n; i++) {
      const before = old[i] || {kind: i < 2 && n > 1 ? "human" : g.bots.includes("heuristic") ? "heuristic" : "random", name: ""};
      const kind = h("select", {"aria-label": `Seat ${i}: who plays`, "data-seat": i},
        h("option", {value: "human"}, "Person"),
        g.bots.map((b) => h("option", {value: b}, BOT_WORDS[b] || b)));
      kind.value = g.bots.includes(before.kind) || before.kind === "human" ? before.kind : "random";
      const name = h("input", {type: "text", maxlength: 40, value: before.name});
      const sync = () => {  // a person's name, or a bot's parameters (docs: kiti play --seats)
        const bot = kind.value !== "human";
        name.placeholder = bot ? "bot options, e.g. iters=300" : i === 0 ? "Your name" : "Name (optional)";
        name.setAttribute("aria-label", bot ? `Seat ${i}: bot options` : `Seat ${i}: name`);
      };
      let person = kind.value === "human";
      kind.addEventListener("change", () => {
        if ((kind.value === "human") !== person) name.value = "";  // a name is no bot option, and back
        person = kind.value === "human";
        sync();
      });
      sync();
      this.seatBox.append(h("div", {class: "seat-row"}, h("span", {class: "seat-no"}, `Seat ${i}`), kind, name));
    }
  }

  body() {
    const g = this.game();
    const rows = [...this.seatBox.querySelectorAll(".seat-row")];
    const kinds = rows.map((row) => row.querySelector("select").value);
    const texts = rows.map((row) => row.querySelector("input").value.trim());
    const seats = kinds.map((kind, i) => (kind !== "human" && texts[i] ? `${kind}:${texts[i]}` : kind));
    const names = kinds.map((kind, i) => (kind === "human" && texts[i]) || null);
    const options = {};
    for (const input of this.optionBox.querySelectorAll("[data-option]")) {
      const spec = g.options.find((o) => o.name === input.dataset.option);
      let value = input.type === "checkbox" ? input.checked : input.value;
      if (spec.type === "int") value = Number(value);
      if (value !== spec.default) options[spec.name] = value;
    }
    const body = {game: g.id, seats, names, options, takeover: this.takeover.checked};
    if (this.timerSelect.value) body.timer = Number(this.timerSelect.value);
    if (this.takeover.checked) body.stand_in = this.standIn.value;
    return body;
  }

  async create() {
    const button = this.form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      const made = await api("/api/tables", this.body());
      this.showCreated(made);
      this.refresh();
    } catch (error) {
      clear(this.created).append(h("p", {class: "error", role: "alert"}, `Not created: ${error.message}`));
    } finally {
      button.disabled = false;
    }
  }

  showCreated(made) {
    const t = made.table;
    for (const seat of made.seats) remember(t.id, seat.seat, seat.token, t.game);
    const first = made.seats[0];
    clear(this.created).append(h("div", {class: "created"},
      h("h3", {}, `Table ${t.id} · ${t.name} is ready`),
      first ? h("p", {}, h("a", {class: "button primary", href: `#table=${t.id}&token=${first.token}`},
        `Sit at seat ${first.seat}`), " — then send the other links to your friends.")
        : h("p", {}, h("a", {class: "button primary", href: `#table=${t.id}`}, "Watch the bots play")),
      h("ul", {class: "links"},
        made.seats.map((s) => h("li", {},
          h("span", {}, `Seat ${s.seat} (${t.seats[s.seat].name})`),
          h("input", {readonly: true, value: seatLink(t.id, s.token), "aria-label": `Link of seat ${s.seat}`}),
          h("button", {type: "button", onclick: () => copyText(seatLink(t.id, s.token))}, "Copy"))),
        h("li", {}, h("span", {}, "Spectators"),
          h("input", {readonly: true, value: seatLink(t.id), "aria-label": "Link to watch or join"}),
          h("button", {type: "button", onclick: () => copyText(seatLink(t.id))}, "Copy")))));
    toast(`Table ${t.id} created`);
  }

  // ------------------------------------------------------------------ the lists
  async refresh() {
    const all = (await api("/api/tables?status=all")).tables;
    const byId = new Map(all.map((t) => [t.id, t]));
    const mine = held().filter((m) => byId.has(m.table));
    this.fill(this.mine, mine.map((m) => byId.get(m.table)), (t) => {
      const m = mine.find((x) => x.table === t.id);
      return [h("a", {class: "button primary", href: `#table=${t.id}&token=${m.token}`}, `Open seat ${m.seat}`)];
    }, "No seat in this browser yet.");
    const open = all.filter((t) => t.status === "waiting" && t.seats.some((s) => s.kind === "human" && !s.claimed));
    this.fill(this.open, open, (t) => [
      h("button", {type: "button", class: "primary", onclick: () => this.join(t)}, "Join"),
      h("a", {class: "button", href: `#table=${t.id}`}, "Watch")], "No open table: create one.");
    this.fill(this.playing, all.filter((t) => t.status === "playing"),
      (t) => [h("a", {class: "button", href: `#table=${t.id}`}, "Watch")], "Nothing being played.");
    this.fill(this.over, all.filter((t) => t.status === "over"),
      (t) => [h("a", {class: "button", href: `#replay=${t.id}`}, "Replay"),
              h("a", {class: "button ghost", href: `#table=${t.id}`}, "Final table")], "No finished game in memory.");
  }

  fill(box, tables, actions, empty) {
    clear(box);
    if (!tables.length) {
      box.append(h("p", {class: "muted"}, empty));
      return;
    }
    box.append(h("ul", {}, tables.slice(0, 30).map((t) => h("li", {class: "table-item", "data-table": t.id},
      h("span", {class: "tname"}, h("b", {}, t.name), ` · ${t.id}`),
      h("span", {class: "tseats"}, t.seats.map((s) => s.kind === "human"
        ? (s.claimed ? s.name : h("i", {}, "free seat")) : `${s.name} (bot)`).reduce((acc, x, i) => acc.concat(i ? [", ", x] : [x]), [])),
      h("span", {class: "tact"}, actions(t))))));
  }

  async join(t) {
    const name = this.nameInput.value.trim();
    try {
      const joined = await api(`/api/tables/${t.id}/join`, name ? {name} : {});
      remember(t.id, joined.seat, joined.token, t.game);
      location.hash = `table=${t.id}&token=${joined.token}`;
    } catch (error) {
      toast(`Cannot join: ${error.message}`, "error");
      this.refresh();
    }
  }
}
