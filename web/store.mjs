// SPDX-License-Identifier: MIT
// store.mjs - what this browser remembers: the games it started or joined
// (id, seat token, side, variant, opponent) and the board's orientation and
// the last new-game choices, in localStorage. Nothing here is secret from the
// person at this browser; a token only ever goes to our own server.

const KEY = 'damier.games';
const PREFS = 'damier.prefs';

function read(key, fallback) {
  try {
    const v = JSON.parse(localStorage.getItem(key));
    return v ?? fallback;
  } catch (e) {
    return fallback;
  }
}

function write(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* private mode */ }
}

// myGames(): newest first.
export const myGames = () => read(KEY, []);

// remember(entry): keeps {id, token, side, variant, opponent, created}.
export function remember(entry) {
  const games = myGames().filter((x) => x.id !== entry.id);
  games.unshift({ created: Date.now(), ...entry });
  write(KEY, games.slice(0, 100));
}

// seat(id): the entry of a game this browser holds a seat in, or null.
export const seat = (id) => myGames().find((x) => x.id === id) || null;

export const prefs = () => read(PREFS, {});
export function setPref(name, value) {
  const p = prefs();
  p[name] = value;
  write(PREFS, p);
}
