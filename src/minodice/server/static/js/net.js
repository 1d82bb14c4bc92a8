// The table connection: entering a table, the websocket's messages (paced so each roll
// can be seen landing, each trick's result and each hand's summary get their time: the
// server's `trick_pause` and `hand_pause`), and which screen shows the table's state.
//
// The screens are not imported here (they import this module to enter a table and to route):
// app.js hands them in at start (useScreens), so imports point one way.
import * as api from "./api.js";
import { chatMessage } from "./chat.js";
import { $ } from "./dom.js";
import { digest, gameOverEvent } from "./eventlog.js";
import { t } from "./i18n.js";
import { dieName, faceName } from "./dice.js";
import * as sound from "./sound.js";
import { S, announce, handedOver, reducedMotion, saveToken, seatName, show, showError } from "./state.js";
import { closeHandSummary, showHandSummary } from "./summary.js";
import { renderClocks } from "./clock.js";

// The screens, as app.js hands them in: `lobby`, `podium` and `game` draw theirs; `home` leaves
// the table for the home page; `moveAnswer(msg)` is true when msg answers this page's own bid or
// roll (table.js); `rematchStarted(code)` takes the people who said ready to the rematch.
const screens = {};

export function useScreens(given) {
  Object.assign(screens, given);
}

export async function enterTable(code, token) {
  if (S.conn) S.conn.close();
  Object.assign(S, { conn: null, code, token: token || null, seat: null, table: null, view: null, events: [], queue: [] });
  S.fresh.clear();
  closeHandSummary();
  releaseHold();
  $("rematch-btn").disabled = false;
  try {
    applyTable(await api.getTable(code));
  } catch (err) {
    showError(err);
    return screens.home();
  }
  S.conn = api.connect(code, S.token, {
    onMessage: (msg) => chatMessage(msg) || enqueue(msg), // chat frames skip the paced queue
    onState: (state) => showConn(state),
  });
  route();
}

export function applyTable(table) {
  if (table) S.table = table;
}

// While the socket is down nothing on the table can be pressed (the screens are inert):
// a move made then would be lost. The socket comes back by itself (api.connect).
function showConn(state) {
  const box = $("conn");
  S.online = state === "open";
  if (S.online) {
    box.hidden = true;
  } else {
    box.textContent = t(state === "closed" ? "conn.lost" : "conn.connecting");
    box.hidden = false;
  }
  for (const id of ["screen-lobby", "screen-game", "screen-podium", "chat"]) {
    const node = $(id);
    if (node) node.inert = !S.online;
  }
}

/** Show the screen the table's state calls for. */
export function route() {
  if (!S.table) return;
  const status = S.table.status;
  if (status === "lobby" || (!S.view && status !== "over")) {
    show("lobby");
    screens.lobby();
  } else if (status === "expired") {
    showError({ code: "no_table", params: { table: S.table.code } });
    screens.home();
  } else if (status === "over" || gameOverEvent()) {
    closeHandSummary();
    show("podium");
    screens.podium();
  } else {
    show("game");
    screens.game();
  }
  renderClocks(); // the move clocks (clock.js), on the seats just drawn
}

function enqueue(msg) {
  S.queue.push(...handEnd(msg));
  if (!S.busy) drain();
}

// How long a trick's result and a hand's summary stay before the next move is shown (ms): the
// server's pauses (GET /api/options), which hold its bots as long. A person may move at once;
// their move is shown once the result has had its time.
const trickHold = () => 1000 * (Number(S.options.trick_pause) || 0);
const summaryHold = () => 1000 * (Number(S.options.hand_pause) || 0);

// A hold: nothing in the queue is shown before S.holdUntil (performance.now() ms). Closing the
// summary ends its hold at once.
let wakeHold = null;
function releaseHold() {
  S.holdUntil = 0;
  wakeHold?.();
}

function waitHold() {
  const wait = (S.holdUntil || 0) - performance.now();
  if (wait <= 0) return null;
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, wait);
    wakeHold = () => {
      clearTimeout(timer);
      resolve();
    };
  });
}

async function drain() {
  S.busy = true;
  while (S.queue.length) {
    const held = waitHold();
    if (held) await held;
    wakeHold = null;
    const msg = S.queue.shift();
    let pause = 0;
    holdFor = 0;
    try {
      pause = msg.type === "_summary" ? handSummary(msg.hs) : handle(msg);
    } catch (err) {
      console.error(err);
    }
    if (holdFor > 0) S.holdUntil = performance.now() + holdFor;
    if (pause > 0 && !reducedMotion() && S.queue.length) await new Promise((r) => setTimeout(r, pause));
  }
  S.busy = false;
}

// A state whose events end a hand is shown in three steps: the hand's last trick, on the view
// the hand ended on (the frame's view is already the next hand's, with its bid pad); the
// hand's summary (summary.js); then the rest — the next hand's deal, or the game's end.
function handEnd(msg) {
  if (msg?.type !== "state" || msg.full || !Array.isArray(msg.events)) return [msg];
  const at = msg.events.findIndex((e) => e.type === "hand_scored");
  if (at < 0) return [msg];
  const hs = msg.events[at];
  const rest = msg.events.slice(at + 1);
  if (!rest.length) return [msg, { type: "_summary", hs }];
  const last = { ...msg, events: msg.events.slice(0, at + 1), to_act: [], endOfHand: hs };
  if (msg.table?.status === "over") last.table = { ...msg.table, status: "playing" };
  return [last, { type: "_summary", hs }, { ...msg, events: rest, events_from: (msg.events_from ?? 0) + at + 1 }];
}

// The view the hand ended on: the view before it and the last events (the server's rolls,
// winners and reasons, and the hand's `won` and `totals`); null if this page has no view of that hand.
function endOfHandView(events, hs) {
  const prev = S.view;
  if (!prev || prev.hand !== hs.hand) return null;
  const tricks = prev.tricks.map((tr) => ({ ...tr, rolls: [...tr.rolls] }));
  for (const ev of events) {
    if (ev.type === "rolled") {
      let cur = tricks[tricks.length - 1];
      if (!cur || cur.winner !== null) tricks.push((cur = { rolls: [], winner: null }));
      cur.rolls.push({ seat: ev.seat, die: ev.die, face: ev.face });
    } else if (ev.type === "trick_won" && tricks.length) {
      Object.assign(tricks[tricks.length - 1], { winner: ev.seat, lead: ev.lead, reason: ev.reason, bonus_why: ev.bonus_why });
    }
  }
  const { legal: _legal, ...rest } = prev;
  return { ...rest, tricks, trick: null, refusals: {}, dice: [], won: hs.won, totals: hs.totals, bids: hs.bids };
}

// The hand's summary over the felt, for the server's hand pause (closing it ends the wait).
function handSummary(hs) {
  if (S.screen !== "game") return 0;
  showHandSummary(hs, digest().tricks, releaseHold);
  holdFor = summaryHold();
  return 0;
}

let holdFor = 0; // the hold the message being handled asks for (ms)

// Applies one message; returns how long to wait before the next one (ms).
function handle(msg) {
  if (screens.moveAnswer(msg)) return 0; // the answer to this page's bid or roll (table.js unlocks the pad and rack)
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
    screens.home();
    return 0;
  }
  if (m.rematch) {
    S.table = { ...S.table, rematch: m.rematch, rematchStarted: true };
    screens.rematchStarted(m.rematch); // the people who said ready go there
  }
  if (msg.endOfHand && m.view) m.view = endOfHandView(m.events || [], msg.endOfHand) || m.view;
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
  cueTurn();
  return pause;
}

// When this page's turn comes: a soft sound, a word for screen readers, and the tab title
// when the tab is in the background.
let myTurn = null;
function cueTurn() {
  const v = S.view;
  const legal = S.screen === "game" && v && !handedOver() && Array.isArray(v.legal) && v.legal.length ? v.legal : null;
  const now = legal ? (typeof legal[0] === "string" ? "roll" : "bid") : null;
  if (now === myTurn) return;
  myTurn = now;
  if (now) {
    sound.turn();
    announce(t(now === "roll" ? "announce.your_roll" : "announce.your_bid"));
  }
  sound.titleCue(!!now, t("announce.your_turn"));
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
    closeHandSummary();
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
      sound.roll();
      announce(t("announce.rolled", { name: seatName(ev.seat), die: dieName(ev.die), face: faceName(ev.face) }));
    }
    if (ev.type === "trick_won") {
      S.sweep = `${currentHandAt(S.events.length - 1)}:${ev.trick}`;
      pause = Math.max(pause, 1200);
      holdFor = Math.max(holdFor, trickHold()); // the result stays, whatever comes next
      announce(t("announce.trick_won", { name: seatName(ev.seat) }));
    }
    if (ev.type === "bids_revealed") {
      pause = Math.max(pause, 600);
      closeHandSummary(); // the next hand is under way
    }
    if (ev.type === "hand_scored") sound.handEnd();
    if (ev.type === "game_over") sound.podium();
  }
  return pause;
}

function currentHandAt(index) {
  for (let i = index; i >= 0; i--) if (S.events[i].type === "drawn") return S.events[i].hand;
  return 0;
}
