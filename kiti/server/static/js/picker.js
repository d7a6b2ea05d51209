// Choosing a move in several clicks: each legal move is a path of picks (a card in hand, what a
// Joker stands for, a column...), given by a game module that reads the move's notation.  The
// picker says which picks come next after those made; it never decides what is legal: every
// path comes from the server's list of legal moves.

export class Picker {
  // entries: [{move: "JK=Y2 1C", path: ["hand:JK", "as:Y2", "col:1C"]}, ...]
  constructor(entries) {
    this.entries = entries;
  }

  matching(prefix) {
    return this.entries.filter((e) => prefix.every((p, i) => e.path[i] === p));
  }

  // The picks that may follow `prefix` (a Set), and the move it completes, if any.
  next(prefix) {
    const picks = new Set();
    let complete = null;
    for (const e of this.matching(prefix)) {
      if (e.path.length === prefix.length) complete = e.move;
      else picks.add(e.path[prefix.length]);
    }
    return {picks, complete};
  }

  // Is `pick` the start of (or a step in) some legal move after `prefix`?
  allows(prefix, pick) {
    return this.next(prefix).picks.has(pick);
  }
}
