// Any game without a module of its own: the view as data and the legal moves as buttons (the
// table screen's move list), so a newly registered game is playable at once.

import {h} from "../dom.js";

export function render(board, ctx) {
  board.append(
    h("p", {class: "muted"}, "This game has no drawing of its own yet: its view is shown as data. Play with the moves listed beside it."),
    h("pre", {class: "raw-view", style: {whiteSpace: "pre-wrap", fontSize: ".8rem"}}, JSON.stringify(ctx.view, null, 1)));
}
