// SPDX-License-Identifier: MIT
// app.mjs - the page's entry: reads the address and shows the new-game form
// with the import form and this browser's games (/), the board editor
// (/#editor), a game (/game/{id}),
// or takes a friend's seat (/join/{code}); the forms' requests go out here.

import * as api from './api.mjs';
import { Board } from './board.mjs';
import { editor, piecesOf } from './editor.mjs';
import { GamePage } from './game.mjs';
import * as store from './store.mjs';

const $ = (id) => document.getElementById(id);

async function main() {
  let variants;
  try {
    variants = await api.variants();
  } catch (e) {
    $('loading').textContent = `The server cannot be reached: ${e.message}`;
    return;
  }
  $('loading').hidden = true;
  const path = location.pathname;
  let m;
  if ((m = /^\/game\/([^/]+)\/?$/.exec(path))) {
    const page = new GamePage(decodeURIComponent(m[1]), variants);
    window.damierGame = page; // for the browser tests and the console
    await page.start();
  } else if ((m = /^\/join\/([^/]+)\/?$/.exec(path))) {
    await join(decodeURIComponent(m[1]));
  } else if (location.hash === '#editor') {
    editor(variants);
  } else {
    home(variants);
  }
  // the header's links within / change only the address's #part
  let wasEditor = location.hash === '#editor';
  window.addEventListener('hashchange', () => {
    const isEditor = location.hash === '#editor';
    if (location.pathname === '/' && isEditor !== wasEditor) location.reload();
    wasEditor = isEditor;
  });
}

async function join(code) {
  $('join').hidden = false;
  try {
    const g = await api.joinGame(code);
    store.remember({ id: g.id, token: g.token, side: g.side, opponent: 'friend', invite: null });
    location.replace(`/game/${g.id}`);
  } catch (e) {
    $('join-error').textContent = e.status === 409
      ? 'This invite has been used already: someone took the seat.'
      : e.status === 404 ? 'There is no such invite.' : `The seat cannot be taken: ${e.message}`;
  }
}

function home(variants) {
  $('home').hidden = false;
  const prefs = store.prefs();
  const sel = $('ng-variant');
  for (const v of variants) {
    const o = document.createElement('option');
    o.value = v.id;
    o.textContent = `${v.name} (${v.board.files}x${v.board.ranks})`;
    sel.appendChild(o);
  }
  const byId = new Map(variants.map((v) => [v.id, v]));
  if (prefs.variant && byId.has(prefs.variant)) sel.value = prefs.variant;
  const form = $('new-game');
  const none = () => false;
  const preview = new Board($('ng-preview'), { down: none, up: none, canDrag: none, cursor: none, still: true });
  const describe = () => {
    const v = byId.get(sel.value);
    if (!v) return;
    if (preview.v !== v) {
      preview.setVariant(v);
      const start = piecesOf(v.start, v);
      preview.render({ pieces: start ? start.pieces : [], marks: {} });
    }
    $('ng-summary').textContent = v.summary;
    $('ng-rules').textContent = v.rules;
    const preset = form.elements.rules.value;
    $('ng-draw-rules').textContent = (v.draw_rules && v.draw_rules[preset]) || '';
  };
  sel.addEventListener('change', describe);
  for (const r of form.elements.rules) r.addEventListener('change', describe);
  describe();
  if (prefs.level) $('ng-level').value = prefs.level;
  if (prefs.clock) $('ng-clock').value = prefs.clock;

  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    $('ng-error').textContent = '';
    const type = form.elements.opponent.value;
    const clockText = $('ng-clock').value.trim();
    const req = {
      variant: sel.value,
      rules: form.elements.rules.value,
      side: form.elements.side.value,
      opponent: type === 'computer' ? { type, level: Number($('ng-level').value) } : { type },
      clock: !clockText || clockText === 'none' ? null : clockText,
      fen: null,
    };
    store.setPref('variant', req.variant);
    store.setPref('level', $('ng-level').value);
    store.setPref('clock', clockText);
    $('ng-start').disabled = true;
    try {
      const g = await api.createGame(req);
      store.remember({ id: g.id, token: g.token, side: g.side, variant: req.variant, opponent: type, invite: g.invite || null });
      location.assign(`/game/${g.id}`);
    } catch (e) {
      $('ng-error').textContent = e.message;
      $('ng-start').disabled = false;
    }
  });

  $('import-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    $('imp-error').textContent = '';
    const type = $('imp-opponent').value;
    const req = {
      pdn: $('imp-pdn').value,
      opponent: type === 'computer' ? { type, level: Number($('imp-level').value) } : { type },
      side: $('imp-side').value,
    };
    try {
      const g = await api.importPdn(req);
      store.remember({ id: g.id, token: g.token, side: g.side, opponent: type, invite: g.invite || null });
      location.assign(`/game/${g.id}`);
    } catch (e) {
      $('imp-error').textContent = e.message;
    }
  });

  const list = $('my-games');
  const games = store.myGames();
  if (!games.length) {
    const li = document.createElement('li');
    li.textContent = 'none yet';
    list.appendChild(li);
  }
  for (const g of games) {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = `/game/${encodeURIComponent(g.id)}`;
    const v = byId.get(g.variant);
    const opp = g.opponent === 'computer' ? 'the computer' : g.opponent === 'local' ? 'on this device' : 'a friend';
    a.textContent = `${v ? v.name : g.variant || 'game'}: ${g.side || ''} against ${opp}`;
    li.appendChild(a);
    const when = document.createElement('span');
    when.className = 'hint';
    when.textContent = ` ${new Date(g.created).toLocaleString()}`;
    li.appendChild(when);
    list.appendChild(li);
  }
  if (location.hash === '#import') $('imp-pdn').focus();
}

main();
