// The table connection: entering a table, the websocket's messages (paced so each roll
// can be seen landing), and which screen shows the table's state.
import * as api from "./api.js";
import { $ } from "./dom.js";
import { t } from "./i18n.js";
import { goHome, renderLobby } from "./lobby.js";
import { renderPodium, renderSheet } from "./podium.js";
import { S, reducedMotion, saveToken, show, showError } from "./state.js";
import { renderGame } from "./table.js";

export async function enterTable(code, token) {
  if (S.conn) S.conn.close();
  Object.assign(S, { conn: null, code, token: token || null, seat: null, table: null, view: null, events: [], queue: [] });
  S.fresh.clear();
  $("rematch-btn").disabled = false;
  try {
    applyTable(await api.getTable(code));
  } catch (err) {
    showError(err);
    return goHome();
  }
  S.conn = api.connect(code, S.token, {
    onMessage: (msg) => enqueue(msg),
    onState: (state) => showConn(state),
  });
  route();
}

export function applyTable(table) {
  if (table) S.table = table;
}

function showConn(state) {
  const box = $("conn");
  if (state === "open") {
    box.hidden = true;
  } else {
    box.textContent = t(state === "closed" ? "conn.lost" : "conn.connecting");
    box.hidden = false;
  }
}

/** Show the screen the table's state calls for. */
export function route() {
  if (!S.table) return;
  const status = S.table.status;
  if (status === "lobby" || (!S.view && status !== "over")) {
    show("lobby");
    renderLobby();
  } else if (status === "expired") {
    showError({ code: "no_table", params: { table: S.table.code } });
    goHome();
  } else if (status === "over" || gameOverEvent()) {
    show("podium");
    renderPodium();
    renderSheet();
  } else {
    show("game");
    renderGame();
  }
}

function enqueue(msg) {
  S.queue.push(msg);
  if (!S.busy) drain();
}

async function drain() {
  S.busy = true;
  while (S.queue.length) {
    const msg = S.queue.shift();
    let pause = 0;
    try {
      pause = handle(msg);
    } catch (err) {
      console.error(err);
    }
    if (pause > 0 && !reducedMotion() && S.queue.length) await new Promise((r) => setTimeout(r, pause));
  }
  S.busy = false;
}

// Applies one message; returns how long to wait before the next one (ms).
function handle(msg) {
  const m = api.normalize(msg);
  if (m.error) showError(m.error);
  if (m.table) applyTable(m.table);
  if (m.welcome) welcome(m.seat);
  if (m.closed === 4401 && S.token) {
    // Not a seat of this table: forget the token and watch.
    S.token = null;
    document.cookie = `md_${S.code}=; path=/; max-age=0`;
    enterTable(S.code, null);
    return 0;
  }
  if (m.closed === 4404) {
    showError({ code: "no_table", params: { table: S.code } });
    goHome();
    return 0;
  }
  if (m.rematch) S.table = { ...S.table, rematch: m.rematch };
  let pause = 0;
  if (m.events) {
    pause = takeEvents(m);
    if (pause < 0) return 0;
  }
  if (m.view) {
    S.view = m.view;
    S.toAct = m.toAct ?? [];
  }
  route();
  return pause;
}

function welcome(seat) {
  S.seat = seat;
  // The token no longer holds a seat here (a bot took it): watch instead.
  if (S.seat === null && S.token) S.token = null;
  if (S.token) saveToken(S.code, S.token, S.seat);
}

// Adds a state's events to the log; the pause they call for (ms), or -1 after asking for a full sync.
function takeEvents(m) {
  if (m.full) {
    S.events = [];
  } else if (m.eventsFrom !== null && m.eventsFrom !== S.events.length) {
    if (m.eventsFrom > S.events.length) {
      S.conn?.sync(); // a gap: ask for everything again
      return -1;
    }
    S.events.length = m.eventsFrom;
  }
  let pause = 0;
  for (const ev of m.events) {
    S.events.push(ev);
    if (m.full) continue;
    if (ev.type === "rolled") {
      S.fresh.add(`${currentHandAt(S.events.length - 1)}:${ev.trick}:${ev.seat}`);
      pause = Math.max(pause, 700);
    }
    if (ev.type === "trick_won") pause = Math.max(pause, 1200);
    if (ev.type === "bids_revealed") pause = Math.max(pause, 600);
  }
  return pause;
}

function currentHandAt(index) {
  for (let i = index; i >= 0; i--) if (S.events[i].type === "drawn") return S.events[i].hand;
  return 0;
}

export function gameOverEvent() {
  return S.events.find((e) => e.type === "game_over") || null;
}

// What the event log says about this hand's tricks, the last one of the hand before,
// the sheet's rows and the end. A finished trick keeps what the server said of it:
// winner, lead, reason, bonus and its reason.
export function digest() {
  const d = { hand: 0, myBid: null, tricks: [], lastHandTrick: null, rows: [], over: null, revealed: null };
  let cur = null;
  for (const ev of S.events) {
    if (ev.type === "drawn") {
      if (d.tricks.length) d.lastHandTrick = { hand: d.hand, ...d.tricks[d.tricks.length - 1] };
      Object.assign(d, { hand: ev.hand, myBid: null, revealed: null, tricks: [] });
      cur = null;
    } else if (ev.type === "bid_placed") {
      if (ev.seat === S.seat && ev.bid !== null) d.myBid = ev.bid;
    } else if (ev.type === "bids_revealed") {
      d.revealed = ev.bids;
    } else if (ev.type === "rolled") {
      if (!cur || cur.no !== ev.trick) {
        cur = { no: ev.trick, rolls: [], winner: null };
        d.tricks.push(cur);
      }
      cur.rolls.push({ seat: ev.seat, die: ev.die, face: ev.face });
    } else if (ev.type === "trick_won" && cur) {
      Object.assign(cur, { winner: ev.seat, lead: ev.lead, reason: ev.reason, bonusWhy: ev.bonus_why });
    } else if (ev.type === "hand_scored") {
      d.rows.push(ev);
    } else if (ev.type === "game_over") {
      d.over = ev;
    }
  }
  return d;
}
