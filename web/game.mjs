// SPDX-License-Identifier: MIT
// game.mjs - one game page: the state the server sends (GET, every POST's
// answer, the WebSocket) drawn as the board, players and clocks, status and
// last move (aria-live), move list with earlier positions, offers, the end;
// and the player's acts sent back: moves (board or typed notation), resign,
// draw, takeback, hint and analysis, rematch, PDN and FEN. Every rule comes
// from the server's state: the page only narrows its list of legal moves.

import * as api from './api.mjs';
import { Board } from './board.mjs';
import { Clocks } from './clock.mjs';
import { Picker } from './picker.mjs';
import * as store from './store.mjs';

const $ = (id) => document.getElementById(id);
const other = (side) => (side === 'white' ? 'black' : 'white');
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

// squaresOf(notation): the squares a move's text names, in order.
const squaresOf = (text) => String(text).split(/[-x:]/).filter(Boolean);

export class GamePage {
  // GamePage(id, variants): variants, the list of GET /api/variants.
  constructor(id, variants) {
    this.id = id;
    this.variants = new Map(variants.map((v) => [v.id, v]));
    const seat = store.seat(id);
    this.seat = seat;
    this.token = seat ? seat.token : null;
    this.state = null;
    this.viewPly = null; // null: the live position
    this.picker = new Picker();
    this.busy = false;
    this.hint = null;
    this.positions = this.loadPositions();
    this.flipped = false;
    this.board = new Board($('board-wrap'), {
      down: (sq) => this.down(sq),
      up: (sq, fromSq, dragged) => this.up(sq, fromSq, dragged),
      canDrag: (sq) => (this.canMove() && this.picker.movable().includes(sq)) || (this.premoveOk() && this.ownPiece(sq)),
      cursor: (sq) => this.sayCursor(sq),
    });
    this.clocks = new Clocks({ white: $('bar-bottom').querySelector('.clock'), black: $('bar-top').querySelector('.clock') });
    this.wire();
  }

  async start() {
    $('game').hidden = false;
    let st;
    try {
      st = await api.getGame(this.id, this.token);
    } catch (e) {
      $('status').textContent = e.status === 404 ? 'There is no such game.' : `The game cannot be loaded: ${e.message}`;
      return;
    }
    const v = this.variants.get(st.variant);
    this.variant = v;
    if (this.seat && !this.seat.variant) store.remember({ ...this.seat, variant: st.variant }); // an import
    const mine = st.you && st.you !== 'both' ? st.you : this.seat && this.seat.side;
    this.flipped = mine === 'black';
    this.board.setFlipped(this.flipped);
    this.board.setVariant(v);
    $('g-rules').textContent = `${v.rules}\n\n${(v.draw_rules && v.draw_rules[st.rules]) || ''}`;
    this.apply(st);
    this.socket = new api.GameSocket(this.id, this.token, (g) => this.apply(g), (open) => this.conn(open));
  }

  // -- state --------------------------------------------------------------

  local() {
    return (this.seat && this.seat.opponent === 'local') || (this.state && this.state.you === 'both');
  }

  me() {
    if (!this.token || !this.state) return null;
    if (this.local()) return this.state.turn;
    return this.state.you || (this.seat && this.seat.side) || null;
  }

  canMove() {
    const s = this.state;
    return !!(s && this.token && s.status === 'playing' && this.viewPly === null && !this.busy &&
      (this.local() || this.me() === s.turn));
  }

  // apply(st): a state from the server; older or already seen ones are
  // dropped (seq), a state one move on animates that move.
  apply(st) {
    const old = this.state;
    if (old && typeof st.seq === 'number' && typeof old.seq === 'number' && st.seq <= old.seq) return false;
    this.state = st;
    this.offerNote(old, st);
    this.positions[st.ply] = st.position;
    this.savePositions();
    let played = null;
    if (old && st.ply === old.ply + 1 && st.moves.length === old.moves.length + 1) {
      const text = st.moves[st.moves.length - 1];
      played = (old.legal || []).find((m) => m.notation === text) || null;
    }
    this.lastMove = played || this.guessLast(st);
    if (old && st.ply !== old.ply) this.hint = null;
    this.picker.reset(st.legal);
    if (old && st.ply < old.ply && this.viewPly !== null && this.viewPly > st.ply) this.viewPly = null;
    if (played && this.viewPly === null && !this.skipAnim) {
      const before = old.position.pieces;
      this.board.animate(played, before, st.position.pieces, this.marks());
      this.material(st.position.pieces);
    } else {
      this.draw();
    }
    this.skipAnim = false;
    this.panels();
    if (st.status !== 'playing' || (old && st.ply < old.ply)) this.pre = null;
    this.playPremove();
    return true;
  }

  // offerNote(old, st): says that this player's draw offer was declined
  // (an answer, or a move instead of one), until this player's next move.
  offerNote(old, st) {
    const me = this.me();
    if (old && (st.ply < old.ply || (st.ply > old.ply && old.turn === me))) $('offer-note').textContent = '';
    if (old && me && old.draw_offer === me && !st.draw_offer && st.status === 'playing') {
      $('offer-note').textContent = `${cap(other(me))} declined the draw.`;
    }
  }

  guessLast(st) {
    if (!st.moves.length) return null;
    const sq = squaresOf(st.moves[st.moves.length - 1]);
    return { from: sq[0], to: sq[sq.length - 1], path: sq, captures: [] };
  }

  loadPositions() {
    try {
      return JSON.parse(sessionStorage.getItem(`damier.pos.${this.id}`)) || {};
    } catch (e) {
      return {};
    }
  }

  savePositions() {
    try { sessionStorage.setItem(`damier.pos.${this.id}`, JSON.stringify(this.positions)); } catch (e) { /* full */ }
  }

  conn(open) {
    this.wsOpen = open;
    $('g-conn').textContent = open ? '' : 'Connection lost: reconnecting…';
    if (open) this.poll();
  }

  // poll(): a GET now and then while the socket is down and the other side
  // is to move, so the page still moves on.
  poll() {
    clearTimeout(this.pollTimer);
    if (this.wsOpen) return;
    this.pollTimer = setTimeout(async () => {
      try { this.apply(await api.getGame(this.id, this.token)); } catch (e) { /* next time */ }
      this.poll();
    }, 2000);
  }

  // -- drawing -------------------------------------------------------------

  marks() {
    const s = this.state;
    const m = { last: [], hint: [] };
    const lm = this.viewPly === null ? this.lastMove : this.viewedMove();
    if (lm) m.last = [lm.from, lm.to];
    if (this.viewPly !== null) return m;
    m.counts = Object.fromEntries((s.king_moves || []).map((k) => [k.square, k.count]));
    if (this.hint) m.hint = [this.hint.from, this.hint.to];
    if (this.pre) m.pre = [this.pre.from, this.pre.to].filter(Boolean);
    if (this.canMove()) {
      if (this.picker.from !== null) {
        const t = this.picker.targets();
        m.sel = this.picker.from;
        m.dest = t.dest;
        m.via = t.via;
      } else if (s.must_capture) {
        m.movable = this.picker.movable();
      }
    }
    return m;
  }

  viewedMove() {
    if (!this.viewPly) return null;
    const sq = squaresOf(this.state.moves[this.viewPly - 1]);
    return { from: sq[0], to: sq[sq.length - 1] };
  }

  // material(pieces): each side's men and kings, for the player bars.
  material(pieces) {
    const bottom = this.flipped ? 'black' : 'white';
    for (const [bar, side] of [['bar-bottom', bottom], ['bar-top', other(bottom)]]) {
      const mine = pieces.filter((p) => p.color === side);
      const kings = mine.filter((p) => p.kind === 'king').length;
      const text = `${mine.length - kings} men${kings ? `, ${kings} king${kings > 1 ? 's' : ''}` : ''}`;
      setText(bar, text, '.material');
    }
  }

  async draw() {
    const s = this.state;
    let pos = s.position;
    if (this.viewPly !== null) {
      pos = this.positions[this.viewPly];
      if (!pos) {
        try {
          const st = await api.getGame(this.id, this.token, `ply=${this.viewPly}`);
          if (st.ply === this.viewPly) pos = this.positions[this.viewPly] = st.position;
        } catch (e) { /* below */ }
      }
      $('view-note').textContent = pos
        ? `Showing the position after move ${this.viewPly} of ${s.ply}: → or End returns to the game.`
        : `The position after move ${this.viewPly} was not seen by this page.`;
      if (!pos) pos = s.position;
    } else {
      $('view-note').textContent = '';
    }
    this.board.render({ pieces: pos.pieces, marks: this.marks() });
    this.material(pos.pieces);
    $('fen-text').value = pos.fen;
  }

  panels() {
    const s = this.state;
    const v = this.variant;
    const me = this.me();
    const playing = s.status === 'playing';
    // title and players
    const oppText = this.local() ? 'two players on this device'
      : `${s.players.white.name} – ${s.players.black.name}`;
    $('g-title').textContent = `${v.name}: ${oppText}${s.clock ? `, ${s.clock.control}` : ''}${s.rules === 'official' ? ' (official rules)' : ''}`;
    const bottom = this.flipped ? 'black' : 'white';
    for (const [bar, side] of [['bar-bottom', bottom], ['bar-top', other(bottom)]]) {
      const p = s.players[side];
      const you = this.token && !this.local() && me === side ? ' (you)' : '';
      $(bar).querySelector('.pname').textContent = `${cap(side)}: ${p.name}${you}`;
      this.clocks.els[side] = $(bar).querySelector('.clock');
    }
    this.clocks.set(s.clock, playing);
    // status, last move, compulsory capture
    let status;
    if (!playing) {
      status = `Game over: ${s.result || ''}${s.reason ? `, ${s.reason}` : ''}`;
    } else if (!this.token) {
      status = `${cap(s.turn)} to move (you are watching)`;
    } else if (this.local()) {
      status = `${cap(s.turn)} to move`;
    } else if (me === s.turn) {
      status = `Your move (${cap(s.turn)})`;
    } else {
      const who = s.players[s.turn];
      status = who.type === 'computer' ? 'The computer is thinking…' : `Waiting for ${cap(s.turn)}'s move`;
    }
    if (playing && s.clock && !s.clock.running) status += ' (the clocks start once each side has moved)';
    setText('status', status);
    setText('last-move', s.moves.length ? `Last move: ${s.moves[s.moves.length - 1]} (${cap(other(s.turn))})` : '');
    setText('must-capture', playing && s.must_capture ? `${cap(s.must_capture)}.` : ''); // the server's words: which captures, and why
    const counted = (s.counters || []).filter((c) => c.count > 0).map((c) => `${c.name}: ${c.count} of ${c.limit}`);
    for (const k of s.king_moves || []) counted.push(`${cap(k.color)}'s king on ${k.square}: ${k.count} quiet move${k.count > 1 ? 's' : ''} in a row`);
    setText('counters', counted.join('; '));
    // controls
    const seated = !!this.token && playing;
    $('move-form').hidden = !this.token;
    $('move-input').disabled = !this.canMove();
    $('move-send').disabled = !this.canMove();
    $('move-input').placeholder = (s.legal[0] && s.legal[0].notation) || '';
    $('btn-resign').disabled = !seated;
    $('btn-draw').disabled = !seated || this.local() || s.draw_offer === me;
    $('btn-draw').textContent = s.draw_offer === me && seated ? 'Draw offered' : 'Offer draw';
    $('btn-takeback').disabled = !seated || s.ply === 0 || (s.takeback && s.takeback === me);
    $('btn-takeback').textContent = s.takeback === me && seated ? 'Takeback asked' : 'Takeback';
    $('btn-hint').disabled = !playing;
    for (const id of ['btn-resign', 'btn-draw', 'btn-takeback']) $(id).hidden = !this.token;
    if (!seated) $('resign-confirm').hidden = true;
    // an offer to answer
    let offer = null;
    if (seated && !this.local()) {
      if (s.draw_offer && s.draw_offer !== me) offer = { text: `${cap(s.draw_offer)} offers a draw.`, yes: 'accept-draw', no: 'decline-draw' };
      else if (s.takeback && s.takeback !== me) offer = { text: `${cap(s.takeback)} asks to take back a move.`, yes: 'accept-takeback', no: 'decline-takeback' };
    }
    this.offer = offer;
    $('offer').hidden = !offer;
    if (offer) $('offer-text').textContent = offer.text;
    // the invite, while the friend may not have come yet
    const inv = this.seat && this.seat.invite;
    $('invite').hidden = !(inv && playing && s.ply < 2);
    if (inv) $('invite-url').value = new URL(inv, location.origin).href;
    // the end
    $('ended').hidden = playing;
    if (!playing) {
      $('ended-text').textContent = this.endText();
      $('rematch').hidden = !this.token || !!s.rematch;
      $('rematch-offer').hidden = !s.rematch;
      if (s.rematch) $('rematch-join').href = s.rematch;
    }
    $('pdn-download').href = api.pdnUrl(this.id);
    $('pdn-download').setAttribute('download', `damier-${this.id}.pdn`);
    this.moveList();
  }

  endText() {
    const s = this.state;
    const me = this.me();
    let head = `Result ${s.result || '*'}`;
    if (this.token && !this.local() && s.result) {
      const [w, b] = s.result.split('-').map((x) => (x === '1/2' ? 0.5 : Number(x)));
      const mine = me === 'white' ? w - b : b - w;
      head = mine > 0 ? `You won (${s.result})` : mine < 0 ? `You lost (${s.result})` : `Draw (${s.result})`;
    }
    return `${head}${s.reason ? `: ${s.reason}` : ''}.`;
  }

  moveList() {
    const s = this.state;
    const ol = $('move-list');
    ol.textContent = '';
    const blackFirst = s.start && s.start.startsWith('B');
    const plies = blackFirst ? [null, ...s.moves] : s.moves;
    for (let i = 0; i < plies.length; i += 2) {
      const li = document.createElement('li');
      const no = document.createElement('span');
      no.className = 'no';
      no.textContent = `${i / 2 + 1}.`;
      li.appendChild(no);
      for (const j of [i, i + 1]) {
        const text = plies[j];
        const ply = blackFirst ? j : j + 1;
        const b = document.createElement(text ? 'button' : 'span');
        if (text) {
          b.type = 'button';
          b.textContent = text;
          b.dataset.ply = ply;
          const cur = (this.viewPly === null ? s.ply : this.viewPly) === ply;
          if (cur) {
            b.classList.add('current');
            b.setAttribute('aria-current', 'true');
          }
        }
        li.appendChild(b);
      }
      ol.appendChild(li);
    }
    const cur = ol.querySelector('.current');
    if (cur) cur.scrollIntoView({ block: 'nearest' });
  }

  // view(ply): show the position after that ply (the live one at the end).
  view(ply) {
    const s = this.state;
    if (!s) return;
    ply = Math.max(0, Math.min(s.ply, ply));
    this.viewPly = ply === s.ply ? null : ply;
    this.picker.clear();
    this.draw();
    this.panels();
  }

  // readBoard(): where every piece stands, in words, for a screen reader.
  readBoard() {
    const pos = this.viewPly === null ? this.state.position : this.positions[this.viewPly] || this.state.position;
    const say = (color) => {
      const list = (kind) => pos.pieces.filter((p) => p.color === color && p.kind === kind).map((p) => p.square);
      const men = list('man');
      const kings = list('king');
      return `${cap(color)}: ${men.length ? `men ${men.join(' ')}` : 'no men'}${kings.length ? `; kings ${kings.join(' ')}` : ''}.`;
    };
    $('cursor-say').textContent = `${say('white')} ${say('black')} ${cap(pos.side)} to move.`;
  }

  sayCursor(sq) {
    const pos = this.viewPly === null ? this.state.position : this.positions[this.viewPly] || this.state.position;
    const p = pos.pieces.find((x) => x.square === sq);
    $('cursor-say').textContent = `${sq}${p ? `: ${p.color} ${p.kind}` : ''}`;
  }

  // -- input ---------------------------------------------------------------

  // premoveOk(): the other side is to move in a game this page plays one
  // side of: a move may be queued, played if legal when the turn comes.
  premoveOk() {
    const s = this.state;
    return !!(s && this.token && !this.local() && s.status === 'playing' && this.viewPly === null &&
      this.me() && this.me() !== s.turn);
  }

  ownPiece(sq) {
    return this.state.position.pieces.some((p) => p.square === sq && p.color === this.me());
  }

  // preDown / preUp: a premove entered as a move is (click-click or drag).
  preDown(sq) {
    const pre = this.pre;
    this.preToggle = false;
    if (pre && !pre.to && sq === pre.from) {
      this.preToggle = true;
    } else if (this.ownPiece(sq)) {
      this.pre = { from: sq, to: null };
    } else if (pre && !pre.to) {
      pre.to = sq;
    } else {
      this.pre = null;
    }
    this.draw();
  }

  preUp(sq, fromSq, dragged) {
    const pre = this.pre;
    if (!pre || pre.to) return;
    if (sq && sq !== fromSq && dragged) pre.to = sq;
    else if (this.preToggle && sq === fromSq && !dragged) this.pre = null;
    this.preToggle = false;
    this.draw();
  }

  // playPremove(): once the turn has come, the queued move if it is legal.
  playPremove() {
    const pre = this.pre;
    if (!pre || !pre.to || !this.canMove()) return;
    this.pre = null;
    const m = this.state.legal.filter((x) => x.from === pre.from && x.to === pre.to);
    if (m.length === 1) this.play(m[0].notation, false);
    else this.draw();
  }

  down(sq) {
    if (!this.canMove()) {
      if (this.premoveOk()) this.preDown(sq);
      return;
    }
    this.downSq = sq;
    if (sq === this.picker.from && !this.picker.via.length && this.picker.to === null) {
      this.toggle = true; // a second click on the picked piece drops it, on release
      return;
    }
    this.toggle = false;
    this.pick(sq, false);
  }

  up(sq, fromSq, dragged) {
    if (!this.canMove()) {
      if (this.premoveOk()) {
        if (sq === null && fromSq === null) this.pre = null;
        this.preUp(sq, fromSq, dragged);
        this.draw();
      }
      return;
    }
    if (sq === null && fromSq === null) { // Escape
      this.picker.clear();
      this.draw();
      return;
    }
    if (sq === null) return;
    if (sq !== fromSq) {
      this.pick(sq, dragged);
    } else if (this.toggle && !dragged) {
      this.pick(sq, false);
    }
    this.toggle = false;
  }

  pick(sq, dragged) {
    const r = this.picker.click(sq);
    if (r.move) this.play(r.move.notation, dragged, r.move);
    else this.draw();
  }

  async play(text, dragged) {
    this.busy = true;
    $('move-error').textContent = '';
    this.picker.clear();
    try {
      const st = await api.move(this.id, this.token, text);
      this.busy = false;
      this.skipAnim = dragged;
      if (!this.apply(st)) {
        // the socket brought this state (or a later one) first: the page
        // was drawn while the move was on its way, so draw it again
        this.skipAnim = false;
        this.draw();
        this.panels();
      }
      if (!this.wsOpen) this.poll();
      return true;
    } catch (e) {
      this.busy = false;
      $('move-error').textContent = e.message;
      this.draw();
      this.panels();
      return false;
    } finally {
      this.busy = false;
    }
  }

  async act(action) {
    $('move-error').textContent = '';
    try {
      if (!this.apply(await api.action(this.id, this.token, action))) this.panels();
    } catch (e) {
      $('move-error').textContent = e.message;
    }
  }

  async analyse(hintOnly) {
    const s = this.state;
    const ply = this.viewPly === null ? s.ply : this.viewPly;
    $('analysis').textContent = 'Thinking…';
    try {
      const a = await api.analysis({ variant: s.variant, fen: s.start, moves: s.moves.slice(0, ply), nodes: hintOnly ? 100000 : 300000 });
      if (hintOnly) {
        const m = s.legal.find((x) => x.notation === a.best);
        const sq = squaresOf(a.best);
        this.hint = m || { from: sq[0], to: sq[sq.length - 1] };
        $('analysis').textContent = `Hint: ${a.best}`;
      } else {
        const score = typeof a.score === 'number' ? (a.score > 0 ? '+' : '') + a.score.toFixed(2) : String(a.score);
        const pos = ply === s.ply ? s.position : this.positions[ply];
        const side = pos ? ` for ${cap(pos.side)}` : ' for the side to move';
        $('analysis').textContent = `Score ${score}${side}, depth ${a.depth}: ${(a.pv || []).join(' ')}`;
      }
      this.draw();
    } catch (e) {
      $('analysis').textContent = `No analysis: ${e.message}`;
    }
  }

  // rematch(): the server starts it (same seats, colours changed); a
  // friend's page is offered the new invite.
  async rematch() {
    const s = this.state;
    try {
      const g = await api.rematch(this.id, this.token);
      const opp = s.players[other(this.me() || 'white')];
      const type = this.local() ? 'local' : opp.type === 'computer' ? 'computer' : 'friend';
      store.remember({ id: g.id, token: g.token, side: g.side, variant: s.variant, opponent: type, invite: g.invite || null });
      location.assign(`/game/${g.id}`);
    } catch (e) {
      $('move-error').textContent = e.message;
    }
  }

  async showPdn() {
    try {
      $('pdn-text').value = await api.pdn(this.id);
    } catch (e) {
      $('pdn-text').value = `(${e.message})`;
    }
  }

  wire() {
    $('move-form').addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const text = $('move-input').value.trim();
      if (!text || !this.canMove()) return;
      if (await this.play(text, false)) $('move-input').value = '';
    });
    $('btn-flip').addEventListener('click', () => this.flip());
    $('btn-read').addEventListener('click', () => this.readBoard());
    $('btn-hint').addEventListener('click', () => this.analyse(true));
    $('btn-analyse').addEventListener('click', () => this.analyse(false));
    $('btn-takeback').addEventListener('click', () => this.act('takeback'));
    $('btn-draw').addEventListener('click', () => this.act('offer-draw'));
    $('btn-resign').addEventListener('click', () => {
      $('resign-confirm').hidden = false;
      $('resign-no').focus();
    });
    $('resign-no').addEventListener('click', () => { $('resign-confirm').hidden = true; });
    $('resign-yes').addEventListener('click', () => {
      $('resign-confirm').hidden = true;
      this.act('resign');
    });
    $('offer-accept').addEventListener('click', () => this.offer && this.act(this.offer.yes));
    $('offer-decline').addEventListener('click', () => this.offer && this.act(this.offer.no));
    $('rematch').addEventListener('click', () => this.rematch());
    $('move-list').addEventListener('click', (ev) => {
      const b = ev.target.closest('button[data-ply]');
      if (b) this.view(Number(b.dataset.ply));
    });
    $('export').addEventListener('toggle', () => { if ($('export').open) this.showPdn(); });
    $('pdn-copy').addEventListener('click', async () => {
      await this.showPdn();
      copy($('pdn-text'));
    });
    $('fen-copy').addEventListener('click', () => copy($('fen-text')));
    $('invite-copy').addEventListener('click', () => copy($('invite-url')));
    document.addEventListener('keydown', (ev) => {
      const t = ev.target;
      if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT')) return;
      if (!this.state || ev.altKey || ev.ctrlKey || ev.metaKey) return;
      const at = this.viewPly === null ? this.state.ply : this.viewPly;
      const keys = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: this.state.ply };
      if (ev.key in keys && !(t && t.tagName === 'svg')) {
        ev.preventDefault();
        this.view(keys[ev.key]);
      } else if (ev.key === 'f') {
        this.flip();
      } else if (ev.key === 'r') {
        this.readBoard();
      }
    });
  }

  flip() {
    this.flipped = !this.flipped;
    this.board.setFlipped(this.flipped);
    this.draw();
    this.panels();
  }
}

function setText(id, text, sub) {
  const e = sub ? $(id).querySelector(sub) : $(id);
  if (e.textContent !== text) e.textContent = text;
}

// copy(field): its text to the clipboard, else selected for the person to copy.
async function copy(field) {
  try {
    await navigator.clipboard.writeText(field.value);
  } catch (e) {
    field.focus();
    field.select();
  }
}
