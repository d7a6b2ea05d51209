// A table: one seat's (or a spectator's) screen.  Everything shown comes from the server's state
// messages: the view, the events and their sentences, the legal moves, the prompt, the clock,
// and at the end the result, the standings and the whole table.  The game's own module draws
// the board; this screen adds what every game shares: seats, turn and clock, errors, controls,
// every legal move as a button, the log and the end.

import {api, catalog} from "./api.js";
import {add, clear, copyText, h, listing, seconds, toast} from "./dom.js";
import {ChatBox} from "./chat.js";
import {Connection} from "./connection.js";
import {remember, seatLink} from "./seats.js";

// Seat names to show: a bot keeping its default name is "seat N (heuristic)", as sentences call
// it "seat N"; a name several seats share gets its seat number.
export function seatNames(table) {
  const raw = table.seats.map((s) => (s.kind === "bot" && s.name === (s.bot || "").split(":")[0] ? `seat ${s.seat} (${s.name})` : s.name));
  return raw.map((name, seat) => (raw.filter((x) => x === name).length > 1 ? `${name} (seat ${seat})` : name));
}

// What a game module draws from: a state message, with what the screen adds (every event seen so
// far, the game's catalog, the module's own screen state, and the actions it may take).
export function gameContext(m, {events, catalog, ui, clockLeft, play, askSteps, refuse, rerender}) {
  const names = seatNames(m.table);
  const you = m.you;
  return {
    mode: m.over ? "end" : "live",
    view: m.over && m.reveal ? m.reveal : m.view,
    seatView: m.view,
    you,
    table: m.table,
    names,
    legal: m.legal,
    steps: m.steps,
    yourTurn: m.your_turn,
    prompt: m.prompt,
    toAct: m.table.status === "waiting" ? [] : m.to_act,  // nobody acts before the table starts
    clock: m.clock,
    over: m.over,
    events,
    catalog,
    ui,
    name: (seat) => (seat === you ? `${names[seat]} (you)` : names[seat]),
    who: (seat) => (seat === you ? "you" : names[seat]),
    clockLeft, play, askSteps, refuse, rerender,
  };
}

// A game's client module and its own styles, in place before the module draws. The server serves
// both for every game (the generic module and an empty stylesheet to a game without its own); the
// page holds one game's styles at a time, after kiti.css.
export async function loadGame(game) {
  const name = encodeURIComponent(game);
  const [module] = await Promise.all([import(`./games/${name}.js`), gameStyle(`css/games/${name}.css`)]);
  return module;
}

let style = {href: "", loaded: Promise.resolve()};
function gameStyle(href) {
  if (style.href !== href) {
    const link = h("link", {rel: "stylesheet", href, id: "game-style"});
    const loaded = new Promise((resolve) => { link.onload = link.onerror = resolve; });
    const old = document.getElementById("game-style");
    if (old) old.replaceWith(link); else document.head.append(link);
    style = {href, loaded};
  }
  return style.loaded;
}

export class TableScreen {
  constructor(root, tableId, token) {
    this.root = root;
    this.tableId = tableId;
    this.token = token;
    this.events = [];
    this.lines = [];
    this.m = null;
    this.ctx = null;
    this.ui = {};  // the game module's screen state (selection, zoom...), kept across states
    this.queue = Promise.resolve();
    this.backlog = 0;
    this.status = "connecting";
    this.errorText = "";
    this.stepPrefix = [];
    this.build();
    this.conn = new Connection({
      table: tableId, token,
      onChat: (m) => this.chat.receive(m, this.you ?? null),
      onState: (m) => this.receive(m),
      onPresence: (m) => this.presence(m),  // a seat connected or left: its dot, the clocks
      onError: (m) => this.showError(m),
      onRematch: (m) => this.rematch(m),
      onStatus: (text) => { this.status = text; this.renderBanners(); },
      onWelcome: (m) => { this.you = m.you; if (token && m.you !== null) this.seatKnown(m.you); },
      onNotice: (m) => this.noticed(m),  // what the table did for this person
    });
    this.conn.open();
    this.ticker = setInterval(() => this.tick(), 250);
    this.keys = (event) => { this.keyboard = true; this.comeBack(); this.onKey(event); };
    this.pointer = () => { this.keyboard = false; this.comeBack(); };
    document.addEventListener("keydown", this.keys);
    document.addEventListener("pointerdown", this.pointer);
  }

  close() {
    this.conn.close();
    clearInterval(this.ticker);
    document.removeEventListener("keydown", this.keys);
    document.removeEventListener("pointerdown", this.pointer);
  }

  seatKnown(seat) {
    if (this.m) remember(this.tableId, seat, this.token, this.m.table.game);
    else this.pendingRemember = seat;
  }

  // ------------------------------------------------------------------ layout
  build() {
    const el = this.el = {
      banners: h("div", {class: "banners"}),
      turn: h("div", {class: "turnbar", role: "status", "aria-live": "polite"}),
      end: h("section", {class: "end-panel", hidden: true, "aria-label": "End of the game"}),
      board: h("section", {class: "board", "aria-label": "Game board"}),
      seats: h("ul", {class: "seat-chips", "aria-label": "Seats"}),
      error: h("div", {class: "refusal", role: "alert", hidden: true}),
      controls: h("div", {class: "controls"}),
      moves: h("details", {class: "moves"}),
      log: h("ol", {class: "log", "aria-label": "Game log"}),
    };
    this.root.append(el.screen = h("div", {class: "table-screen", "data-states": 0},
      el.banners, el.turn, el.end,
      h("div", {class: "table-grid"},
        h("div", {class: "board-wrap"}, el.board),
        h("aside", {class: "side"},
          el.error, el.seats, el.controls, el.moves,
          h("section", {class: "log-box"}, h("h2", {}, "Game log"), el.log),
          (this.chat = new ChatBox((text) => this.conn.send("chat", {text}))).el))));
    el.board.append(h("p", {class: "loading"}, "Joining the table…"));
  }

  // ------------------------------------------------------------------ messages
  receive(m) {
    this.backlog += 1;
    this.queue = this.queue.then(() => this.apply(m)).catch((error) => console.error(error))
      .finally(() => { this.backlog -= 1; });
  }

  async apply(m) {
    if (!this.module) {
      this.module = await loadGame(m.table.game);
      this.catalog = await catalog(m.table.game).catch(() => ({}));
      document.getElementById("crumbs").append(
        h("a", {href: "#"}, "Lobby"), " › ", h("span", {}, `${m.table.name} · table ${m.table.id}`));
      if (this.pendingRemember !== undefined) remember(this.tableId, this.pendingRemember, this.token, m.table.game);
    }
    if (m.reset) {
      this.events = [];
      this.lines = [];
      clear(this.el.log);
    }
    const before = this.ctx;
    this.events.push(...m.events);
    this.lines.push(...m.lines);
    if (!m.your_turn) this.stepPrefix = [];
    this.m = m;
    this.receivedAt = performance.now();
    const ctx = this.makeContext();
    this.ctx = ctx;
    if (before && this.module.animate && m.events.length && !m.reset && this.backlog <= 2 && !document.hidden) {
      // The turn bar, banners and seats follow the state at once (never "Waiting for Bob…" while his
      // diver is being revealed); only the board plays the change (not at all in a hidden tab,
      // whose timers the browser slows down).
      this.renderBanners();
      this.renderTurn();
      this.renderSeats();
      await this.module.animate(this.el.board, before, ctx, m.events);
    }
    this.render(m.lines, m.events);
    this.el.screen.dataset.states = String(Number(this.el.screen.dataset.states) + 1);  // tests wait on it
  }

  presence(m) {
    // In the queue, after any state still being shown: it changes the table's info and clock only.
    this.queue = this.queue.then(() => {
      if (!this.m) return;
      this.m = {...this.m, table: m.table, clock: m.clock};
      this.receivedAt = performance.now();
      this.ctx = this.makeContext();
      this.renderBanners();
      this.renderTurn();
      this.renderSeats();
    }).catch((error) => console.error(error));
  }

  makeContext() {
    return gameContext(this.m, {
      events: this.events, catalog: this.catalog, ui: this.ui,
      clockLeft: (seat) => this.clockLeft(seat),
      play: (move) => this.play(move),
      askSteps: (prefix) => this.conn.send("steps", {prefix}).then((r) => r.steps),
      refuse: (message) => this.showError({code: "illegal_move", message}),
      rerender: () => this.renderBoard(),
    });
  }

  async play(move) {
    this.clearError();
    this.notices = [];
    try {
      await this.conn.send("move", {move});
      this.stepPrefix = [];
    } catch (error) {
      this.showError(error);
    }
  }

  showError(m) {
    if (["no_table", "bad_token"].includes(m.code) && !this.m) {
      clear(this.el.board).append(h("div", {class: "banner warn", role: "alert"},
        m.code === "no_table" ? "There is no such table (or it has gone)." :
          "This seat's link no longer works: somebody took the seat with a newer link. You may watch the table.",
        h("a", {class: "button", href: m.code === "no_table" ? "#" : `#table=${this.tableId}`}, m.code === "no_table" ? "Back to the lobby" : "Watch")));
    }
    const words = {not_your_turn: "Not your turn", illegal_move: "Not allowed", bad_move: "Not a move",
                   undo_refused: "Undo refused", away: "A bot is playing your seat", game_over: "The game is over",
                   not_started: "Not started yet", closed: "Offline", replaced: "Opened elsewhere"};
    this.errorText = `${words[m.code] || m.code}: ${m.message}`;
    this.el.error.hidden = false;
    clear(this.el.error).append(
      h("span", {class: "refusal-text", "data-code": m.code}, this.errorText),
      h("button", {type: "button", class: "ghost small", "aria-label": "Dismiss", onclick: () => this.clearError()}, "✕"));
  }

  clearError() {
    this.el.error.hidden = true;
    this.errorText = "";
  }

  rematch(m) {
    toast("Rematch: a new game at the same seats");
    if (this.token) {
      remember(m.table, this.you, this.token, this.m?.table.game);
      location.hash = `table=${m.table}&token=${this.token}`;
    } else {
      location.hash = `table=${m.table}`;
    }
  }

  // ------------------------------------------------------------------ drawing
  render(newLines, newEvents) {
    this.renderBanners();
    this.renderTurn();
    this.renderEnd();
    this.renderBoard();
    this.renderSeats();
    this.renderControls();
    this.renderMoves();
    this.renderLog(newLines, newEvents);
    const m = this.m;
    document.title = `${m.your_turn ? "● " : ""}Kiti · ${m.table.name} ${m.table.id}`;
  }

  renderBanners() {
    const box = clear(this.el.banners);
    const m = this.m;
    if (this.status === "reconnecting" || this.status === "connecting" && m) {
      box.append(h("div", {class: "banner warn", role: "status"}, "Connection lost: reconnecting…"));
    }
    if (this.status === "replaced") {
      box.append(h("div", {class: "banner warn", role: "status"}, "This seat was opened in another window or device. ",
        h("button", {type: "button", onclick: () => this.conn.open()}, "Use it here")));
    }
    if (!m) return;
    const t = m.table;
    const free = t.seats.filter((s) => s.kind === "human" && !s.claimed);
    if (t.status === "waiting") {
      box.append(h("div", {class: "banner info"},
        h("p", {}, `Waiting for ${listing(free.map((s) => `seat ${s.seat}`))} to join. Share the table: `,
          h("button", {type: "button", class: "small", onclick: () => copyText(seatLink(t.id))}, "Copy the table link"))));
      const open = free.filter((s) => s.open);  // the others are kept for their people (their links)
      if (m.you === null && open.length) box.append(this.joinBox(open));
    }
    const mine = m.you !== null ? t.seats[m.you] : null;
    for (const notice of this.notices || []) {
      box.append(h("div", {class: "banner warn notice", role: "status", "data-notice": notice.code}, notice.message));
    }
    if (mine && mine.bot_plays && !m.over && t.status === "playing") {
      box.append(h("div", {class: "banner warn", "data-stand-in": mine.away ? "away" : "one"},
        mine.away ? `A stand-in (${t.stand_in}) is playing your seat. ` :
          `Your time ran out: a stand-in (${t.stand_in}) makes this one decision for you; the seat stays yours. `,
        h("button", {type: "button", class: "primary small", onclick: () => this.back()}, "Take my seat back")));
    }
  }

  // A notice (a decision made for this person) is shown until they act or take their seat back.
  noticed(m) {
    this.notices = [...(this.notices || []).filter((n) => n.code !== m.code), m];
    if (this.m) this.renderBanners();
  }

  // Any click or key of a person whose seat a stand-in plays takes it back (once per state).
  comeBack() {
    const m = this.m;
    const mine = m && m.you !== null ? m.table.seats[m.you] : null;
    if (!mine || !mine.bot_plays || m.over || m.table.status !== "playing" || this.backAsked === m) return;
    this.backAsked = m;
    this.back();
  }

  joinBox(free) {
    const name = h("input", {type: "text", maxlength: 40, placeholder: "Your name", "aria-label": "Your name",
                             value: localStorage.getItem("kiti.name") || ""});
    const join = async (seat) => {
      const body = {seat};
      if (name.value.trim()) body.name = name.value.trim();
      try {
        const joined = await api(`/api/tables/${this.tableId}/join`, body);
        remember(this.tableId, joined.seat, joined.token, this.m.table.game);
        location.hash = `table=${this.tableId}&token=${joined.token}`;
      } catch (error) {
        toast(`Cannot join: ${error.message}`, "error");
      }
    };
    return h("div", {class: "banner join"}, h("span", {}, "Play at this table: "), name,
      free.map((s) => h("button", {type: "button", class: "primary small", onclick: () => join(s.seat)}, `Join as seat ${s.seat}`)));
  }

  async back() {
    this.notices = [];
    try {
      await this.conn.send("back");
    } catch (error) {
      this.showError(error);
    }
  }

  turnText() {
    const m = this.m;
    const t = m.table;
    if (t.status === "waiting") return "Waiting for players…";
    if (m.over) {
      // a party that is no seat (a solo game's opponent) by its own name
      const win = (m.standings || []).filter((s) => s.winner).map((s) => s.seats.map((x) => this.ctx.who(x)).join(" & ") || s.party);
      const verb = win.length > 1 ? "share the win" : win[0] === "you" || win[0].includes(" & ") ? "win" : "wins";
      return win.length ? `Game over: ${listing(win)} ${verb}` : "Game over";
    }
    const mine = m.you !== null ? t.seats[m.you] : null;
    if (mine?.bot_plays && m.to_act.includes(m.you)) return `A bot (${t.stand_in}) is playing for you…`;
    const custom = this.module.statusText?.(this.ctx);
    if (m.your_turn) return custom?.mine || (m.prompt ? `Your move: ${m.prompt}` : "Your move");
    if (custom?.others) return custom.others;
    const who = m.to_act.map((s) => this.ctx.who(s));
    return who.length ? `Waiting for ${listing(who)}…` : "…";
  }

  renderTurn() {
    const m = this.m;
    const bar = clear(this.el.turn);
    bar.classList.toggle("mine", !!m.your_turn);
    bar.classList.toggle("over", !!m.over);
    bar.append(h("span", {class: "turn-text"}, this.turnText()));
    if (m.clock && m.you !== null && m.clock.left[String(m.you)] !== undefined && !m.over) {
      bar.append(h("span", {class: "clock", "data-clock": m.you, "aria-label": "Time left for your move"}, ""));
    }
    if (m.clock?.banks?.[String(m.you)] !== undefined && !m.over) {
      bar.append(h("span", {class: "bank", title: "Your reserve: what your moves left unused of their time"},
        "reserve ", h("span", {class: "clock", "data-bank": m.you}, "")));
    }
    this.tick();
  }

  renderBoard() {
    if (!this.ctx) return;
    const key = this.keyboard ? document.activeElement?.dataset?.key : null;
    const board = clear(this.el.board);
    board.dataset.game = this.m.table.game;
    board.dataset.mode = this.ctx.mode;
    this.module.render(board, this.ctx);
    if (key) board.querySelector(`[data-key="${CSS.escape(key)}"]`)?.focus({preventScroll: true});
  }

  renderSeats() {
    const m = this.m;
    const box = clear(this.el.seats);
    for (const s of m.table.seats) {
      const acting = m.to_act.includes(s.seat) && !m.over && m.table.status === "playing";
      const kind = s.kind === "bot" ? `bot · ${s.bot}` : !s.claimed ? "free seat" : s.bot_plays ? "away · a bot plays" : "person";
      const name = this.ctx.names[s.seat];
      const dot = s.kind === "bot" ? "bot" : s.connected ? "on" : "off";
      box.append(h("li", {class: ["seat-chip", s.seat === m.you && "me", acting && "acting"], "data-seat": s.seat},
        h("span", {class: ["dot", dot], "aria-hidden": "true"}),
        h("span", {class: "chip-name"}, h("b", {}, name), s.seat === m.you ? " (you)" : ""),
        h("span", {class: "chip-kind"}, s.kind === "bot" ? kind : `seat ${s.seat} · ${kind}`),
        s.stand_in_moves ? h("span", {class: "chip-stand-in", title: "Decisions a stand-in made for this person"},
          ` · stand-in ×${s.stand_in_moves}`) : null,
        m.clock?.banks?.[String(s.seat)] !== undefined && !m.over
          ? h("span", {class: "chip-bank"}, " · reserve ", h("span", {"data-bank": s.seat})) : null,
        acting ? h("span", {class: "chip-act"}, "to act ", h("span", {class: "clock", "data-clock": s.seat})) : null));
    }
    this.tick();
  }

  renderControls() {
    const m = this.m;
    const box = clear(this.el.controls);
    const seated = m.you !== null;
    if (seated && !m.over && m.table.status === "playing") {
      box.append(h("button", {type: "button", onclick: () => this.undo(), title: "Take back your last move, when the rules allow"}, "Undo"));
    }
    box.append(h("button", {type: "button", onclick: () => copyText(seatLink(m.table.id))}, "Share table link"));
    if (seated && this.token) {
      box.append(h("button", {type: "button", onclick: () => copyText(seatLink(m.table.id, this.token)),
                              title: "Your seat's private link: open it on another device"}, "Copy my seat link"));
    }
  }

  async undo() {
    this.clearError();
    try {
      await this.conn.send("undo");
      toast("Move taken back");
    } catch (error) {
      this.showError(error);
    }
  }

  renderMoves() {
    const m = this.m;
    const box = clear(this.el.moves);
    box.hidden = m.over || m.you === null;
    box.open = !!this.movesOpen;
    box.ontoggle = () => { this.movesOpen = box.open; };
    const legal = m.legal || [];
    const count = m.legal ? legal.length : m.steps ? m.steps.reduce((a, s) => a + s.count, 0) : 0;
    box.append(h("summary", {}, m.your_turn ? `Every legal move (${count})` : "Type a move"));
    if (m.your_turn && m.legal) {
      box.append(h("div", {class: "move-list"}, legal.map((mv) =>
        h("button", {type: "button", class: "move", "data-move": mv, onclick: () => this.play(mv)}, mv))));
    } else if (m.your_turn && m.steps) {
      box.append(this.stepList());
    }
    const input = h("input", {type: "text", placeholder: "a move, e.g. " + (legal[0] || "…"), "aria-label": "Type a move"});
    box.append(h("form", {class: "type-move", onsubmit: (event) => {
      event.preventDefault();
      if (input.value.trim()) this.play(input.value.trim());
      input.value = "";
    }}, input, h("button", {type: "submit"}, "Play")));
  }

  stepList() {
    const list = h("div", {class: "move-list"});
    const show = async () => {
      const steps = this.stepPrefix.length ? await this.conn.send("steps", {prefix: this.stepPrefix}).then((r) => r.steps)
                                           : this.m.steps;
      clear(list);
      if (this.stepPrefix.length) {
        list.append(h("button", {type: "button", class: "move ghost", onclick: () => { this.stepPrefix.pop(); show(); }},
          `← ${this.stepPrefix.join(" ")}`));
      }
      for (const step of steps) {
        list.append(h("button", {type: "button", class: "move", "data-step": step.token, onclick: () => {
          if (step.move) this.play(step.move);
          else { this.stepPrefix.push(step.token); show(); }
        }}, step.move ? step.move : `${step.token}… (${step.count})`));
      }
    };
    show().catch((error) => this.showError(error));
    return list;
  }

  renderLog(newLines, newEvents) {
    const log = this.el.log;
    const add = (line) => { if (line) log.append(h("li", {}, line)); };
    if (!log.childElementCount) this.lines.forEach(add);
    else newLines.forEach(add);
    void newEvents;
    while (log.childElementCount > 400) log.firstChild.remove();
    log.parentElement.scrollTop = log.parentElement.scrollHeight;
    log.scrollTop = log.scrollHeight;
  }

  renderEnd() {
    const m = this.m;
    const box = this.el.end;
    box.hidden = !m.over;
    if (!m.over) return;
    clear(box);
    const t = m.table;
    const rows = (m.standings || []).map((s) => h("tr", {class: s.winner ? "winner" : ""},
      h("td", {}, String(s.rank)), h("td", {}, s.seats.map((x) => this.ctx.name(x)).join(" & ") || s.party),
      h("td", {class: "num"}, String(s.score)), h("td", {}, s.winner ? "★ winner" : "",
        s.stand_in ? h("span", {class: "stand-in-mark", title: "A stand-in made most of these decisions"},
          `${s.winner ? " · " : ""}mostly a stand-in (${s.stand_in_moves} of ${s.decisions} decisions)`) : null)));
    const rematch = t.rematch
      ? h("a", {class: "button primary", href: `#table=${t.rematch}` + (this.token ? `&token=${this.token}` : "")}, "Go to the rematch")
      : m.you !== null ? h("button", {type: "button", class: "primary", onclick: () => this.conn.send("rematch").catch((e) => this.showError(e))}, "Rematch") : null;
    add(box,
      h("h2", {}, "Game over"),
      this.module.endNote ? this.module.endNote(this.ctx) : null,
      h("table", {class: "standings"},
        h("thead", {}, h("tr", {}, h("th", {}, "Rank"), h("th", {}, "Players"), h("th", {}, "Score"), h("th", {}, ""))),
        h("tbody", {}, rows)),
      h("p", {class: "muted"}, "Every card is shown below."),
      h("div", {class: "end-actions"},
        h("a", {class: "button", href: `#replay=${t.id}`}, "Replay step by step"),
        rematch,
        m.record_url ? h("a", {class: "button ghost", href: m.record_url, download: `kiti-${t.game}-${t.id}.json`}, "Download the record") : null,
        h("a", {class: "button ghost", href: "#"}, "Back to the lobby")));
  }

  // ------------------------------------------------------------------ clocks and keys
  clockLeft(seat) {
    const m = this.m;
    if (!m || !m.clock) return null;
    const left = m.clock.left[String(seat)];
    if (left === undefined) return null;
    return left - (performance.now() - this.receivedAt) / 1000;
  }

  tick() {
    for (const el of this.root.querySelectorAll("[data-clock]")) {
      const left = this.clockLeft(Number(el.dataset.clock));
      el.textContent = left === null ? "" : seconds(left);
      el.classList.toggle("low", left !== null && left < 10);
    }
    for (const el of this.root.querySelectorAll("[data-bank]")) {
      el.textContent = seconds(this.bankLeft(Number(el.dataset.bank)));
    }
  }

  // A person's reserve now: it runs down once the decision's own time is spent.
  bankLeft(seat) {
    const bank = this.m?.clock?.banks?.[String(seat)] ?? 0;
    const left = this.clockLeft(seat);
    return left === null ? bank : Math.max(0, Math.min(bank, left));
  }

  onKey(event) {
    if (!this.ctx || event.altKey || event.ctrlKey || event.metaKey) return;
    const tag = event.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    if (this.module.onKey?.(event, this.ctx)) event.preventDefault();
  }
}
