// SPDX-License-Identifier: MIT
// picker.mjs - turns clicks on squares into one of the server's legal moves.
// It never judges legality: it only narrows the list the server sent. A
// piece is picked, then a square: the move's final square when only one
// legal move from that piece ends there, else the squares along the route,
// one at a time, until one move is left (a unique capture plays at once).

export class Picker {
  constructor() {
    this.reset([]);
  }

  // reset(legal): a new position, nothing picked.
  reset(legal) {
    this.legal = legal || [];
    this.clear();
  }

  clear() {
    this.from = null;
    this.to = null; // a final square clicked that several routes share
    this.via = []; // squares of the route clicked to tell routes apart
  }

  // movable(): the squares a piece may move from.
  movable() {
    return [...new Set(this.legal.map((m) => m.from))];
  }

  // candidates(): the legal moves still possible after what was entered.
  candidates() {
    if (this.from === null) return [];
    return this.legal.filter((m) => m.from === this.from &&
      (this.to === null || m.to === this.to) &&
      this.via.every((sq) => inner(m).includes(sq)));
  }

  // targets(): {dest: final squares that play a move, via: squares of the
  // route that tell the remaining moves apart}.
  targets() {
    const cands = this.candidates();
    const dest = this.to === null ? [...new Set(cands.map((m) => m.to))] : [];
    let via = [];
    if (cands.length > 1 && (this.to !== null || this.via.length)) {
      const all = new Set(cands.flatMap(inner));
      via = [...all].filter((sq) => !cands.every((m) => inner(m).includes(sq)));
    }
    return { dest, via };
  }

  // click(sq): what a click on sq does: {move} to play, {picked} a piece
  // chosen or the route narrowed, {cleared} nothing picked any more.
  click(sq) {
    if (this.from !== null) {
      const cands = this.candidates();
      if (sq === this.from && this.to === null && this.via.length === 0) {
        // the piece clicked again: a move that stays there (Hawaiian opening
        // removals), else drop the choice
        const stay = cands.filter((m) => m.to === sq && m.path.length === 1);
        if (stay.length === 1) return { move: stay[0] };
        this.clear();
        return { cleared: true };
      }
      if (this.to === null) {
        const ending = cands.filter((m) => m.to === sq);
        if (ending.length === 1) return { move: ending[0] };
        if (ending.length > 1) {
          this.to = sq;
          return { picked: true, ambiguous: true };
        }
      }
      const narrowed = cands.filter((m) => inner(m).includes(sq));
      if (narrowed.length) {
        if (narrowed.length === 1) return { move: narrowed[0] };
        this.via.push(sq);
        return { picked: true };
      }
    }
    if (this.legal.some((m) => m.from === sq)) {
      this.clear();
      this.from = sq;
      return { picked: true };
    }
    const was = this.from !== null;
    this.clear();
    return was ? { cleared: true } : {};
  }
}

// inner(m): the squares a move passes between its first and last.
function inner(m) {
  return m.path.slice(1, -1);
}
