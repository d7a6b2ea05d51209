// One WebSocket to a table (docs/protocol.md, "The table"): hello with the seat's token, every
// request answered by id, and a reconnection after any drop that passes the last cursor as
// `since`, so no event is missed or repeated.  With an `onChat` handler the page also takes the
// table's chat: its hello carries `chat_since` (the last chat message it has).

// Waits before reconnecting (ms), each spread at random over half to one and a half times
// itself (docs/protocol.md, "Reconnecting"): pages dropped together come back spread out.
const RETRY = [500, 1000, 2000, 4000, 8000];

export class Connection {
  constructor({table, token, onWelcome, onState, onPresence, onError, onRematch, onStatus, onChat, onNotice}) {
    this.table = table;
    this.token = token || null;
    this.handlers = {onWelcome, onState, onPresence, onError, onRematch, onStatus, onChat, onNotice};
    this.cursor = 0;
    this.chatCursor = 0;
    this.ident = 0;
    this.pending = new Map();
    this.closed = false;
    this.tries = 0;
    this.ws = null;
  }

  status(text) {
    this.handlers.onStatus?.(text);
  }

  open() {
    this.closed = false;
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    // the table in the URL too: a proxy in front of several servers routes by it (docs/deploy.md)
    const ws = new WebSocket(scheme + location.host + "/ws" + "?table=" + encodeURIComponent(this.table));
    this.ws = ws;
    this.status("connecting");
    ws.onopen = () => {
      const hello = {type: "hello", v: 1, table: this.table};
      if (this.token) hello.token = this.token;
      if (this.cursor) hello.since = this.cursor;
      if (this.handlers.onChat) hello.chat_since = this.chatCursor;
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (event) => this.receive(JSON.parse(event.data));
    ws.onclose = (event) => this.dropped(ws, event);
  }

  receive(m) {
    if (m.type === "welcome") {
      this.tries = 0;
      this.status("open");
      this.handlers.onWelcome?.(m);
      return;
    }
    if (m.type === "state") this.cursor = m.cursor;
    if (m.type === "chat") {
      if (m.cursor > this.chatCursor) this.chatCursor = m.cursor;
      this.handlers.onChat?.(m);
    }
    const waiting = m.re !== undefined ? this.pending.get(m.re) : undefined;
    if (waiting) {
      this.pending.delete(m.re);
      if (m.type === "error") waiting.reject(m);
      else waiting.resolve(m);
    }
    if (m.type === "state") this.handlers.onState?.(m);
    else if (m.type === "presence") this.handlers.onPresence?.(m);
    else if (m.type === "error" && !waiting) this.handlers.onError?.(m);
    else if (m.type === "rematch") this.handlers.onRematch?.(m);
    else if (m.type === "notice") this.handlers.onNotice?.(m);
  }

  dropped(ws, event) {
    if (ws !== this.ws) return;
    for (const waiting of this.pending.values()) waiting.reject({code: "closed", message: "the connection closed"});
    this.pending.clear();
    if (this.closed) return;
    if (event.code === 4000) {  // the seat was opened elsewhere: do not fight over it
      this.closed = true;
      this.status("replaced");
      return;
    }
    const wait = RETRY[Math.min(this.tries, RETRY.length - 1)] * (0.5 + Math.random());
    this.tries += 1;
    this.status("reconnecting");
    setTimeout(() => { if (!this.closed) this.open(); }, wait);
  }

  // A request; resolves with its answer (a state, steps or pong), rejects with the error message.
  send(type, extra = {}) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
      return Promise.reject({code: "closed", message: "not connected: reconnecting…"});
    }
    const id = ++this.ident;
    return new Promise((resolve, reject) => {
      this.pending.set(id, {resolve, reject});
      this.ws.send(JSON.stringify({type, id, ...extra}));
    });
  }

  close() {
    this.closed = true;
    if (this.ws) this.ws.close(1000, "bye");
  }
}
