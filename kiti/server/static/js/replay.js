// A finished game, step by step: frames of the whole table after each move, computed by the
// server from the game's record (GET /api/tables/{id}/replay), drawn by the game's module.

import {api, catalog} from "./api.js";
import {clear, h} from "./dom.js";
import {gameContext, loadGame, seatNames} from "./table.js";

const CHUNK = 25;
export class ReplayScreen {
  constructor(root, tableId) {
    this.root = root;
    this.tableId = tableId;
    this.frames = new Map();
    this.loading = new Map();
    this.step = 0;
    this.total = 0;
    this.ui = {};
    this.playing = null;
    this.keys = (event) => this.onKey(event);
    document.addEventListener("keydown", this.keys);
    this.start().catch((error) => root.append(h("p", {class: "panel error", role: "alert"}, `Cannot replay: ${error.message}`)));
  }

  close() {
    clearInterval(this.playing);
    document.removeEventListener("keydown", this.keys);
  }

  async start() {
    const {table} = await api(`/api/tables/${this.tableId}`);
    this.table = table;
    this.module = await loadGame(table.game);  // served for every game
    this.catalog = await catalog(table.game).catch(() => ({}));
    document.title = `Kiti · replay of ${table.name} ${table.id}`;
    document.getElementById("crumbs").append(h("a", {href: "#"}, "Lobby"), " › ",
      h("span", {}, `Replay · ${table.name} · table ${table.id}`));
    await this.load(0);
    this.build();
    this.show(0);
  }

  async load(step) {
    const first = Math.floor(step / CHUNK) * CHUNK;
    if (this.frames.has(step)) return;
    if (!this.loading.has(first)) {
      this.loading.set(first, api(`/api/tables/${this.tableId}/replay?from=${first}&count=${CHUNK}`).then((data) => {
        this.total = data.steps;
        for (const f of data.frames) this.frames.set(f.step, f);
      }));
    }
    await this.loading.get(first);
  }

  build() {
    this.slider = h("input", {type: "range", min: 0, max: this.total, value: 0, "aria-label": "Step",
                              oninput: () => this.show(Number(this.slider.value))});
    this.label = h("span", {class: "replay-step", "aria-live": "polite"});
    this.playButton = h("button", {type: "button", onclick: () => this.toggle()}, "▶ Play");
    this.board = h("section", {class: "board", "aria-label": "Game board"});
    this.log = h("ol", {class: "log", "aria-label": "What this move did"});
    const t = this.table;
    this.root.append(h("div", {class: "table-screen"},
      h("div", {class: "replay-bar", role: "group", "aria-label": "Replay controls"},
        h("button", {type: "button", "aria-label": "First step", onclick: () => this.show(0)}, "⇤"),
        h("button", {type: "button", "aria-label": "Previous step", onclick: () => this.show(this.step - 1)}, "◀"),
        this.playButton,
        h("button", {type: "button", "aria-label": "Next step", onclick: () => this.show(this.step + 1)}, "▶"),
        h("button", {type: "button", "aria-label": "Last step", onclick: () => this.show(this.total)}, "⇥"),
        this.slider, this.label),
      h("div", {class: "table-grid"},
        h("div", {class: "board-wrap"}, this.board),
        h("aside", {class: "side"},
          h("section", {class: "log-box"}, h("h2", {}, "Recent steps"), this.log),
          h("p", {class: "kbd-help"}, "Keys: ← → step, Home / End, Space plays."),
          h("p", {}, h("a", {class: "button", href: `/api/tables/${t.id}/record`, download: `kiti-${t.game}-${t.id}.json`}, "Download the record"),
            " ", h("a", {class: "button ghost", href: `#table=${t.id}`}, "Final table"))))));
  }

  async show(step) {
    step = Math.max(0, Math.min(this.total, step));
    await this.load(step);
    this.step = step;
    const frame = this.frames.get(step);
    this.slider.value = String(step);
    const names = seatNames(this.table);
    const mover = frame.move ? `${names[frame.move[0]]}: ${frame.move[1]}` : "the start";
    this.label.textContent = `Step ${step} of ${this.total} · ${mover}`;
    const message = {table: this.table, you: null, view: frame.view, over: false, legal: null, steps: null,
                     your_turn: false, prompt: null, to_act: frame.to_act, clock: null};
    const ctx = {...gameContext(message, {
      events: frame.events, catalog: this.catalog, ui: this.ui, clockLeft: () => null, play: () => {},
      askSteps: async () => [], refuse: () => {}, rerender: () => this.show(this.step),
    }), mode: "replay", over: frame.over};
    clear(this.board);
    this.board.dataset.game = this.table.game;
    this.board.dataset.mode = "replay";
    this.module.render(this.board, ctx);
    clear(this.log);
    for (let k = Math.max(0, step - 12); k <= step; k++) {
      const f = this.frames.get(k);
      if (!f) continue;
      const lines = f.lines.filter(Boolean);
      const who = f.move ? `${names[f.move[0]]}: ${f.move[1]}` : "The start";
      this.log.append(h("li", {class: k === step ? "current" : ""}, h("b", {}, `${k}. ${who}`), lines.length ? ` — ${lines.join(" ")}` : ""));
    }
    this.log.scrollTop = this.log.scrollHeight;
    if (step + 1 <= this.total) this.load(step + 1);
  }

  toggle() {
    if (this.playing) {
      clearInterval(this.playing);
      this.playing = null;
      this.playButton.textContent = "▶ Play";
      return;
    }
    this.playButton.textContent = "⏸ Pause";
    this.playing = setInterval(() => {
      if (this.step >= this.total) this.toggle();
      else this.show(this.step + 1);
    }, 900);
  }

  onKey(event) {
    const tag = event.target.tagName;
    if (tag === "INPUT" && event.target.type !== "range" || tag === "TEXTAREA") return;
    const moves = {ArrowRight: 1, ArrowLeft: -1};
    if (event.key in moves) { this.show(this.step + moves[event.key]); event.preventDefault(); }
    else if (event.key === "Home") { this.show(0); event.preventDefault(); }
    else if (event.key === "End") { this.show(this.total); event.preventDefault(); }
    else if (event.key === " " && tag !== "BUTTON") { this.toggle(); event.preventDefault(); }
  }
}
