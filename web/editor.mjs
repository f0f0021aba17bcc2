// SPDX-License-Identifier: MIT
// editor.mjs - the board editor: a position set up by clicking squares with
// a chosen piece and the side to move, written as PDN FEN (the server reads
// and checks it); then a game played from it or the engine's analysis of it.

import * as api from './api.mjs';
import { Board } from './board.mjs';
import * as store from './store.mjs';

const $ = (id) => document.getElementById(id);

// fenOf(side, pieces): PDN FEN, "W:W31,K45:B1,2" (K before a king).
export function fenOf(side, pieces) {
  const part = (color) => pieces.filter((p) => p.color === color)
    .map((p) => (p.kind === 'king' ? 'K' : '') + p.square).join(',');
  return `${side === 'white' ? 'W' : 'B'}:W${part('white')}:B${part('black')}`;
}

// piecesOf(fen, variant): the pieces of a FEN of plain square lists and
// ranges (31-50); null when it is another form (then the server reads it).
export function piecesOf(fen, v) {
  const m = /^([WB]):(.*)$/.exec(fen.trim());
  if (!m) return null;
  const names = v.board.cells.map((c) => c.square);
  const pieces = [];
  for (const part of m[2].split(':')) {
    const color = part[0] === 'W' ? 'white' : part[0] === 'B' ? 'black' : null;
    if (!color) return null;
    for (let item of part.slice(1).split(',').filter(Boolean)) {
      let kind = 'man';
      if (item[0] === 'K') { kind = 'king'; item = item.slice(1); }
      const range = /^(\d+)-(\d+)$/.exec(item);
      if (range) {
        for (let n = Number(range[1]); n <= Number(range[2]); n++) pieces.push({ square: String(n), color, kind });
      } else if (names.includes(item)) {
        pieces.push({ square: item, color, kind });
      } else {
        return null;
      }
    }
  }
  return { side: m[1] === 'W' ? 'white' : 'black', pieces };
}

export function editor(variants) {
  $('editor').hidden = false;
  const byId = new Map(variants.map((v) => [v.id, v]));
  const sel = $('ed-variant');
  for (const v of variants) {
    const o = document.createElement('option');
    o.value = v.id;
    o.textContent = v.name;
    sel.appendChild(o);
  }
  const pv = store.prefs().variant;
  if (pv && byId.has(pv)) sel.value = pv;
  let pieces = [];
  const board = new Board($('ed-board'), {
    down: (sq) => {
      const choice = document.querySelector('input[name=ed-piece]:checked').value;
      const had = pieces.find((p) => p.square === sq);
      pieces = pieces.filter((p) => p.square !== sq);
      if (choice !== 'empty') {
        const [color, kind] = choice.split('-');
        if (!had || had.color !== color || had.kind !== kind) pieces.push({ square: sq, color, kind });
      }
      show();
    },
    up: () => {},
    canDrag: () => false,
    cursor: () => {},
  });
  const side = () => document.querySelector('input[name=ed-side]:checked').value;
  const show = () => {
    board.render({ pieces, marks: {} });
    $('ed-fen').value = fenOf(side(), pieces);
  };
  const load = (fen) => {
    const r = piecesOf(fen, byId.get(sel.value));
    if (!r) {
      $('ed-error').textContent = 'That FEN is not one of plain squares the editor can show; the server may still read it.';
      return;
    }
    $('ed-error').textContent = '';
    pieces = r.pieces;
    document.querySelector(`input[name=ed-side][value=${r.side}]`).checked = true;
    show();
  };
  const variantChanged = () => {
    const v = byId.get(sel.value);
    board.setVariant(v);
    load(v.start);
  };
  sel.addEventListener('change', variantChanged);
  for (const r of document.querySelectorAll('input[name=ed-side]')) r.addEventListener('change', show);
  $('ed-fen').addEventListener('change', () => load($('ed-fen').value));
  $('ed-start').addEventListener('click', () => load(byId.get(sel.value).start));
  $('ed-clear').addEventListener('click', () => { pieces = []; show(); });
  $('ed-play').addEventListener('click', async () => {
    $('ed-error').textContent = '';
    const type = $('ed-opponent').value;
    const req = {
      variant: sel.value, rules: 'default', side: $('ed-as').value,
      opponent: type === 'computer' ? { type, level: Number(store.prefs().level || 3) } : { type },
      clock: null, fen: $('ed-fen').value,
    };
    try {
      const g = await api.createGame(req);
      store.remember({ id: g.id, token: g.token, side: g.side, variant: req.variant, opponent: type, invite: g.invite || null });
      location.assign(`/game/${g.id}`);
    } catch (e) {
      $('ed-error').textContent = e.message;
    }
  });
  $('ed-analyse').addEventListener('click', async () => {
    $('ed-error').textContent = '';
    $('ed-analysis').textContent = 'Thinking…';
    try {
      const a = await api.analysis({ variant: sel.value, fen: $('ed-fen').value, moves: [], nodes: 300000 });
      const score = typeof a.score === 'number' ? (a.score > 0 ? '+' : '') + a.score.toFixed(2) : String(a.score);
      $('ed-analysis').textContent = `Best ${a.best}, score ${score} for ${side() === 'white' ? 'White' : 'Black'}, depth ${a.depth}: ${(a.pv || []).join(' ')}`;
    } catch (e) {
      $('ed-analysis').textContent = '';
      $('ed-error').textContent = e.message;
    }
  });
  variantChanged();
}
