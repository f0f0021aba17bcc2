// SPDX-License-Identifier: MIT
// board.mjs - the SVG board: drawn from the geometry the server sends
// (board.kind dark, all or points; each cell's column and row; the lines of
// the alquerque grid), pieces drawn as SVG shapes, the marks (last move,
// selection, destinations, route squares, hint), coordinates, a 180-degree
// flip, pointer input (click and drag, so one finger works), a keyboard
// cursor, and a move animated hop by hop along its path. It knows no rules.

const NS = 'http://www.w3.org/2000/svg';

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

export class Board {
  // Board(container, handlers): handlers.down(sq), up(sq, fromSq, dragged),
  // canDrag(sq) -> bool, cursor(sq) (keyboard cursor moved onto sq or null);
  // handlers.still: a picture that takes no input.
  constructor(container, handlers) {
    this.container = container;
    this.h = handlers;
    this.flipped = false;
    this.anim = null;
    this.cursor = null;
  }

  // setVariant(v): the variant object of GET /api/variants.
  setVariant(v) {
    this.v = v;
    this.files = v.board.files;
    this.ranks = v.board.ranks;
    this.algebraic = v.notation !== 'numeric';
    this.cells = v.board.cells;
    this.bySquare = new Map(this.cells.map((c) => [c.square, c]));
    this.build();
  }

  setFlipped(f) {
    this.flipped = !!f;
    if (this.v) {
      this.build();
      if (this.last) this.render(this.last);
    }
  }

  // pos(sq): the centre of a square in board units, after the flip.
  pos(sq) {
    const c = this.bySquare.get(sq);
    if (!c) return null;
    return this.xy(c.column, c.row);
  }

  xy(col, row) {
    if (this.flipped) {
      col = this.files - 1 - col;
      row = this.ranks - 1 - row;
    }
    return { x: col + 0.5, y: row + 0.5 };
  }

  // squareAt(x, y): the square under a point in board units, or null.
  squareAt(x, y) {
    let col = Math.floor(x);
    let row = Math.floor(y);
    if (col < 0 || row < 0 || col >= this.files || row >= this.ranks) return null;
    if (this.flipped) {
      col = this.files - 1 - col;
      row = this.ranks - 1 - row;
    }
    const c = this.cells.find((k) => k.column === col && k.row === row);
    return c ? c.square : null;
  }

  build() {
    const kind = this.v.board.kind;
    const padL = this.algebraic ? 0.45 : 0.08;
    const padB = this.algebraic ? 0.45 : 0.08;
    this.container.textContent = '';
    const still = this.h.still; // a picture only (the new-game preview)
    const svg = el('svg', {
      viewBox: `${-padL} -0.08 ${this.files + padL + 0.08} ${this.ranks + padB + 0.08}`,
      ...(still ? { role: 'img', 'aria-label': `the start of ${this.v.name}` } : {
        role: 'application', tabindex: '0',
        'aria-label': `${this.v.name} board${this.flipped ? ', Black at the bottom' : ''}; arrow keys move a cursor, Enter or Space picks a square`,
      }),
    }, this.container);
    this.svg = svg;
    const ground = el('g', {}, svg);
    if (kind === 'points') {
      el('rect', { x: 0, y: 0, width: this.files, height: this.ranks, class: 'points-bg', rx: 0.1 }, ground);
      for (const [a, b] of this.v.board.lines) {
        const p = this.pos(a);
        const q = this.pos(b);
        if (p && q) el('line', { x1: p.x, y1: p.y, x2: q.x, y2: q.y, class: 'grid-line' }, ground);
      }
      for (const c of this.cells) {
        const p = this.pos(c.square);
        el('circle', { cx: p.x, cy: p.y, r: 0.07, class: 'point' }, ground);
      }
    } else {
      for (let r = 0; r < this.ranks; r++) {
        for (let f = 0; f < this.files; f++) {
          // dark squares where the cells are (dark boards); a checkered
          // pattern with a1 dark on the full boards
          const dark = (f + r + (this.ranks % 2 === 0 ? 1 : 0)) % 2 === 0;
          el('rect', { x: f, y: r, width: 1, height: 1, class: dark ? 'sq-dark' : 'sq-light' }, ground);
        }
      }
      if (kind === 'dark') {
        // repaint from the cells themselves, so any dark-square layout is right
        for (const r of ground.querySelectorAll('rect')) r.setAttribute('class', 'sq-light');
        for (const c of this.cells) {
          const p = this.pos(c.square);
          el('rect', { x: p.x - 0.5, y: p.y - 0.5, width: 1, height: 1, class: 'sq-dark' }, ground);
        }
      }
    }
    this.under = el('g', {}, svg);
    this.piecesG = el('g', {}, svg);
    this.coords(svg);
    this.over = el('g', {}, svg);
    // one target a square, on top (they draw nothing): what tests and
    // assistive tools point at; the svg itself reads the pointer
    const hits = el('g', {}, svg);
    for (const c of this.cells) {
      const p = this.pos(c.square);
      el('rect', { x: p.x - 0.5, y: p.y - 0.5, width: 1, height: 1, class: 'cell-hit', 'data-square': c.square }, hits);
    }
    if (!still) this.listen(svg);
  }

  coords(svg) {
    const g = el('g', { 'aria-hidden': 'true' }, svg);
    if (!this.algebraic) {
      for (const c of this.cells) {
        const p = this.pos(c.square);
        const t = el('text', { x: p.x - 0.47, y: p.y - 0.3, class: 'coord' }, g);
        t.textContent = c.square;
      }
      return;
    }
    const cols = new Map();
    const rows = new Map();
    for (const c of this.cells) {
      const p = this.pos(c.square);
      const m = /^([a-z]+)(\d+)$/.exec(c.square);
      if (!m) continue;
      cols.set(p.x, m[1]);
      rows.set(p.y, m[2]);
    }
    for (const [x, name] of cols) {
      const t = el('text', { x, y: this.ranks + 0.34, 'text-anchor': 'middle', class: 'coord-out' }, g);
      t.textContent = name;
    }
    for (const [y, name] of rows) {
      const t = el('text', { x: -0.22, y: y + 0.1, 'text-anchor': 'middle', class: 'coord-out' }, g);
      t.textContent = name;
    }
  }

  // render(view): view.pieces (docs/json.md), view.marks {last, sel, dest,
  // via, movable, hint} (arrays of squares; sel one square or null) and
  // counts {square: n} (a number shown on that square's piece).
  render(view) {
    this.last = view;
    if (this.anim) {
      cancelAnimationFrame(this.anim);
      this.anim = null;
    }
    this.drawMarks(view.marks || {});
    this.piecesG.textContent = '';
    for (const p of view.pieces) this.drawPiece(p, this.pos(p.square));
  }

  drawMarks(m) {
    this.under.textContent = '';
    this.over.textContent = '';
    const box = (sq, cls, parent, inset = 0) => {
      const p = this.pos(sq);
      if (!p) return;
      el('rect', { x: p.x - 0.5 + inset, y: p.y - 0.5 + inset, width: 1 - 2 * inset, height: 1 - 2 * inset, class: cls }, parent);
    };
    for (const sq of m.last || []) box(sq, 'mark-last', this.under);
    for (const sq of m.hint || []) box(sq, 'mark-hint', this.under);
    for (const sq of m.pre || []) box(sq, 'mark-pre', this.under);
    for (const sq of m.movable || []) box(sq, 'mark-movable', this.over, 0.06);
    if (m.sel) box(m.sel, 'mark-sel', this.over, 0.04);
    for (const sq of m.dest || []) {
      const p = this.pos(sq);
      if (p) el('circle', { cx: p.x, cy: p.y, r: 0.16, class: 'mark-dest' }, this.over);
    }
    for (const sq of m.via || []) {
      const p = this.pos(sq);
      if (p) el('circle', { cx: p.x, cy: p.y, r: 0.3, class: 'mark-via' }, this.over);
    }
    for (const [sq, n] of Object.entries(m.counts || {})) { // Frisian: a king's quiet moves in a row
      const p = this.pos(sq);
      if (!p) continue;
      el('circle', { cx: p.x + 0.3, cy: p.y - 0.3, r: 0.15, class: 'mark-count' }, this.over);
      const t = el('text', { x: p.x + 0.3, y: p.y - 0.24, class: 'mark-count-text', 'text-anchor': 'middle' }, this.over);
      t.textContent = String(n);
    }
    if (this.cursor) box(this.cursor, 'mark-cursor', this.over, 0.1);
  }

  drawPiece(p, at, extra = '') {
    if (!at) return null;
    const g = el('g', {
      class: `piece ${p.color} ${p.kind} ${extra}`.trim(),
      transform: `translate(${at.x} ${at.y})`,
      'data-square': p.square,
    }, this.piecesG);
    const small = this.v.board.kind === 'points' ? 0.85 : 1; // room for the lines
    el('circle', { r: 0.4 * small, class: 'body' }, g);
    el('circle', { r: 0.27 * small, class: 'ring' }, g);
    if (p.kind === 'king') {
      el('path', { d: 'M-0.2 0.1 L-0.23 -0.12 L-0.1 -0.01 L0 -0.17 L0.1 -0.01 L0.23 -0.12 L0.2 0.1 Z', class: 'crown' }, g);
    } else if (p.kind === 'parachutist') {
      el('path', { d: 'M-0.15 0.08 L0 -0.16 L0.15 0.08 Z', class: 'para' }, g);
    }
    return g;
  }

  // animate(move, before, after, marks): plays a move: the piece travels its
  // path hop by hop, each captured piece fading as it is jumped; then the
  // after position is shown. Resolves when done.
  animate(move, before, after, marks) {
    return new Promise((resolve) => {
      const path = move.path && move.path.length > 1 ? move.path : [move.from, move.to];
      const points = path.map((sq) => this.pos(sq)).filter(Boolean);
      const mover = before.find((p) => p.square === move.from);
      if (!mover || points.length < 2 || matchMedia('(prefers-reduced-motion: reduce)').matches) {
        this.render({ pieces: after, marks });
        resolve();
        return;
      }
      this.render({ pieces: before.filter((p) => p.square !== move.from), marks });
      const caps = (move.captures || []).map((sq) => this.piecesG.querySelector(`[data-square="${CSS.escape(sq)}"]`));
      const g = this.drawPiece(mover, points[0]);
      const hop = points.length > 2 ? 170 : 200;
      const total = hop * (points.length - 1);
      const t0 = performance.now();
      const step = (now) => {
        const t = Math.max(0, Math.min(1, (now - t0) / total)); // a frame's time may precede t0
        const k = t * (points.length - 1);
        const i = Math.min(points.length - 2, Math.floor(k));
        const f = k - i;
        const e = f < 0.5 ? 2 * f * f : 1 - 2 * (1 - f) * (1 - f);
        const x = points[i].x + (points[i + 1].x - points[i].x) * e;
        const y = points[i].y + (points[i + 1].y - points[i].y) * e;
        g.setAttribute('transform', `translate(${x} ${y})`);
        caps.forEach((c, j) => { if (c && j < k - 0.5) c.classList.add('ghost'); });
        if (t < 1) {
          this.anim = requestAnimationFrame(step);
        } else {
          this.anim = null;
          this.render({ pieces: after, marks });
          resolve();
        }
      };
      this.anim = requestAnimationFrame(step);
    });
  }

  boardPoint(ev) {
    const pt = this.svg.createSVGPoint();
    pt.x = ev.clientX;
    pt.y = ev.clientY;
    return pt.matrixTransform(this.svg.getScreenCTM().inverse());
  }

  listen(svg) {
    let drag = null;
    svg.addEventListener('pointerdown', (ev) => {
      if (ev.button !== 0) return;
      const p = this.boardPoint(ev);
      const sq = this.squareAt(p.x, p.y);
      if (!sq) return;
      ev.preventDefault();
      this.h.down(sq);
      drag = { sq, x: p.x, y: p.y, moved: false, g: null, id: ev.pointerId };
      if (this.h.canDrag(sq)) {
        drag.g = this.piecesG.querySelector(`[data-square="${CSS.escape(sq)}"]`);
        svg.setPointerCapture(ev.pointerId);
      }
    });
    svg.addEventListener('pointermove', (ev) => {
      if (!drag || !drag.g || ev.pointerId !== drag.id) return;
      const p = this.boardPoint(ev);
      if (!drag.moved && Math.hypot(p.x - drag.x, p.y - drag.y) < 0.25) return;
      if (!drag.moved) {
        drag.moved = true;
        drag.g.classList.add('dragging');
        this.piecesG.appendChild(drag.g); // on top
      }
      drag.g.setAttribute('transform', `translate(${p.x} ${p.y})`);
    });
    const end = (ev, cancel) => {
      if (!drag || ev.pointerId !== drag.id) return;
      const d = drag;
      drag = null;
      const p = this.boardPoint(ev);
      const sq = cancel ? null : this.squareAt(p.x, p.y);
      if (d.moved && d.g) {
        const home = this.pos(d.sq);
        d.g.classList.remove('dragging');
        d.g.setAttribute('transform', `translate(${home.x} ${home.y})`);
      }
      this.h.up(sq, d.sq, d.moved);
    };
    svg.addEventListener('pointerup', (ev) => end(ev, false));
    svg.addEventListener('pointercancel', (ev) => end(ev, true));
    svg.addEventListener('keydown', (ev) => this.key(ev));
    svg.addEventListener('blur', () => {
      if (this.cursor) {
        this.cursor = null;
        if (this.last) this.drawMarks(this.last.marks || {});
      }
    });
  }

  // key(ev): the keyboard cursor, square by square on the drawn board.
  key(ev) {
    const dirs = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
    if (dirs[ev.key]) {
      ev.preventDefault();
      ev.stopPropagation();
      const [dx, dy] = dirs[ev.key];
      const cur = this.cursor ? this.pos(this.cursor) : null;
      if (!cur) {
        this.cursor = this.cells[this.cells.length - 1].square;
      } else {
        // the nearest cell in that direction, preferring the straight line
        let best = null;
        let bestD = Infinity;
        for (const c of this.cells) {
          const p = this.pos(c.square);
          const ax = (p.x - cur.x) * dx + (p.y - cur.y) * dy;
          if (ax <= 0) continue;
          const off = Math.abs((p.x - cur.x) * dy) + Math.abs((p.y - cur.y) * dx);
          const d = ax + 2 * off;
          if (d < bestD) { bestD = d; best = c.square; }
        }
        if (best) this.cursor = best;
      }
      if (this.last) this.drawMarks(this.last.marks || {});
      this.h.cursor(this.cursor);
    } else if ((ev.key === 'Enter' || ev.key === ' ') && this.cursor) {
      ev.preventDefault();
      ev.stopPropagation();
      this.h.down(this.cursor);
      this.h.up(this.cursor, this.cursor, false);
    } else if (ev.key === 'Escape') {
      this.h.up(null, null, false);
    }
  }
}
