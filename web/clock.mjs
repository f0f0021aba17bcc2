// SPDX-License-Identifier: MIT
// clock.mjs - the two clocks of a game page: the times the server last sent,
// counted down locally for the side whose time runs, shown as m:ss (h:mm:ss
// past an hour) and with tenths under 10 seconds; low time is marked.

export function formatMs(ms) {
  ms = Math.max(0, ms);
  if (ms < 10000) return `0:0${Math.floor(ms / 1000)}.${Math.floor((ms % 1000) / 100)}`;
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

export class Clocks {
  // Clocks(els): els.white and els.black, the elements that show each time.
  constructor(els) {
    this.els = els;
    this.clock = null;
    this.timer = null;
  }

  // set(clock, playing): the clock object of a game state (or null).
  set(clock, playing) {
    this.clock = clock;
    this.at = performance.now();
    this.playing = playing;
    clearInterval(this.timer);
    this.timer = null;
    for (const side of ['white', 'black']) this.els[side].hidden = !clock;
    if (!clock) return;
    this.show();
    if (clock.running && playing) this.timer = setInterval(() => this.show(), 100);
  }

  show() {
    const c = this.clock;
    const gone = performance.now() - this.at;
    for (const side of ['white', 'black']) {
      const running = c.running === side && this.playing;
      const ms = c[`${side}_ms`] - (running ? gone : 0);
      const e = this.els[side];
      e.textContent = formatMs(ms);
      e.classList.toggle('running', running);
      e.classList.toggle('low', ms < 10000);
    }
  }

  stop() {
    clearInterval(this.timer);
    this.timer = null;
  }
}
