// The table's chat (docs/protocol.md, "Chat"): short messages from the seats (and spectators where
// the table's creator allowed it), a few one-click phrases, and the messages missed while away
// fetched again on reconnecting from the chat cursor.  Everything shown is text, never markup.

import {clear, h} from "./dom.js";

export class ChatBox {
  constructor(send) {
    this.send = send;  // (text) => a promise of the server's answer
    this.seen = new Set();
    this.you = null;
    this.list = h("ol", {class: "chat-log", "aria-label": "Chat messages", "aria-live": "polite"});
    this.input = h("input", {type: "text", maxlength: 200, placeholder: "Say something…", "aria-label": "Chat message"});
    this.phrases = h("div", {class: "chat-phrases", role: "group", "aria-label": "Quick phrases"});
    this.note = h("p", {class: "chat-note muted", hidden: true});
    this.form = h("form", {class: "chat-form", onsubmit: (event) => { event.preventDefault(); this.say(this.input.value); }},
      this.input, h("button", {type: "submit"}, "Send"));
    this.el = h("section", {class: "chat-box", "aria-label": "Chat"},
      h("h2", {}, "Chat"), this.list, this.note, this.phrases, this.form);
  }

  // A `chat` message: the first one after hello brings the rule and the phrases too.
  receive(m, you) {
    this.you = you;
    if (m.can_write !== undefined) this.rule(m.can_write, m.phrases || []);
    for (const line of m.messages) {
      if (this.seen.has(line.n)) continue;
      this.seen.add(line.n);
      const who = line.seat === null ? line.name : line.seat === you ? `${line.name} (you)` : line.name;
      this.list.append(h("li", {"data-n": line.n, class: line.seat === you && you !== null ? "mine" : null},
        h("b", {class: "chat-name"}, who), " ", h("span", {class: "chat-text"}, line.text)));
    }
    while (this.list.childElementCount > 200) this.list.firstChild.remove();
    this.list.scrollTop = this.list.scrollHeight;
  }

  rule(canWrite, phrases) {
    this.form.hidden = !canWrite;
    this.phrases.hidden = !canWrite;
    this.note.hidden = canWrite;
    this.note.textContent = "Spectators read this chat: the table's creator kept writing to its seats.";
    clear(this.phrases).append(...phrases.map((text) =>
      h("button", {type: "button", class: "small ghost", onclick: () => this.say(text)}, text)));
  }

  async say(text) {
    if (!text.trim()) return;
    try {
      await this.send(text);
      if (text === this.input.value) this.input.value = "";
      this.note.hidden = true;
    } catch (error) {
      this.note.hidden = false;
      this.note.textContent = `Not sent: ${error.message}`;
    }
  }
}
