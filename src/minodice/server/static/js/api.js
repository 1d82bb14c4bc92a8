// The server's protocol (docs/server-protocol.md): the lobby's HTTP API and the
// table's websocket, turned into the shapes app.js works with.

export function invitePath(code) {
  return `/#table=${encodeURIComponent(code)}`;
}

export function personalPath(code, token) {
  return `/#table=${encodeURIComponent(code)}&token=${encodeURIComponent(token)}`;
}

export function recordUrl(code) {
  // A plain link: the server reads the seat token from the md_{CODE} cookie.
  return `/api/tables/${encodeURIComponent(code)}/record`;
}

// A refused request: the server's {code, params} (translated by codes.js), and the HTTP status.
class ApiError extends Error {
  constructor(status, detail) {
    super(detail?.message || `HTTP ${status}`);
    this.status = status;
    this.params = {};
    if (detail && typeof detail === "object" && !Array.isArray(detail)) {
      this.code = detail.code;
      this.params = detail.params || {};
    } else if (status === 422) {
      this.code = "bad_request"; // a body the server's schema refused (FastAPI's own 422)
    }
  }
}

async function call(method, path, body = null, token = null) {
  const headers = { Accept: "application/json" };
  if (body !== null) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === null ? undefined : JSON.stringify(body) });
  } catch {
    const e = new Error("network");
    e.network = true;
    throw e;
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) throw new ApiError(res.status, data?.detail);
  return data;
}

// TABLE → {code, status: lobby|playing|over|expired, seats: [...], host, rematch}
export function normalizeTable(tb) {
  if (!tb) return null;
  const status = tb.status === "waiting" ? "lobby" : tb.status;
  return {
    code: tb.code,
    status,
    rules: tb.rules,
    hints: tb.hints !== false,
    host: tb.host_seat ?? null,
    hand: tb.hand,
    hands: tb.hands,
    rematch: tb.rematch || null,
    rematchStarted: !!tb.rematch_started, // false while the rematch waits for its people to say ready
    clock: tb.clock || null, // the move clock {speed, move, bank} (null: none)
    level: tb.level || null, // the level whose bot moves for a person out of time or away
    seats: (tb.players || []).map((p) => ({
      name: p.name,
      bot: p.kind === "bot" ? p.bot : null,
      person: !!p.person, // a person holds the seat's token (a bot may play it for them)
      autoName: !!p.auto_name, // the bot's name is the server's ("Greedy 3"): translate it
      muted: !!p.muted, // the host muted this seat's chat
      human: p.kind !== "bot",
      taken: p.kind !== "open",
      connected: p.connected,
      standin: !!p.autoplay,
      // When a bot will stand in for this absent player (performance.now() ms), or null.
      autoplayAt: typeof p.autoplay_in === "number" ? performance.now() + p.autoplay_in * 1000 : null,
      // The move clock (clock.js): the bank's seconds left, and when the level's bot makes this
      // person's decision (performance.now() ms; null: no clock runs for them now).
      bank: typeof p.bank === "number" ? p.bank : null,
      clockAt: typeof p.clock_in === "number" ? performance.now() + p.clock_in * 1000 : null,
      outOfTime: !!p.out_of_time,
      ready: !!p.ready, // said ready for the rematch (a finished table)
    })),
  };
}

// Finished games, newest first: [{code, finished, names, totals, places}].
export async function listGames(limit = 20, offset = 0) {
  const res = await call("GET", `/api/games?limit=${limit}&offset=${offset}`);
  return res?.games || [];
}

// What a table can be created with (rule options, bots) and the dice table.
export async function options() {
  return call("GET", "/api/options");
}

// Bid advice for the seat of `token` (the table must allow hints): the advisor's JSON.
export async function hint(code, token) {
  return call("GET", `/api/tables/${encodeURIComponent(code)}/hint`, null, token);
}

export async function createTable({ name, seats, rules, hints = true, clock = null, level = null }) {
  const body = {
    seats: seats.length,
    bots: seats.map((s) => (s.bot ? s.bot : null)),
    rules,
    name,
    hints,
  };
  if (clock) body.clock = clock; // the move clock's speed (GET /api/options `clocks`)
  if (level) body.level = level; // the bots' level: it also moves for a person out of time or away
  const res = await call("POST", "/api/tables", body);
  return { code: res.table.code, seat: res.seat, token: res.token, hostToken: res.host_token, table: normalizeTable(res.table) };
}

export async function getTable(code) {
  return normalizeTable(await call("GET", `/api/tables/${encodeURIComponent(code)}`));
}

export async function joinTable(code, name) {
  const res = await call("POST", `/api/tables/${encodeURIComponent(code)}/join`, { name });
  return { seat: res.seat, token: res.token, table: normalizeTable(res.table) };
}

export async function startTable(code, token) {
  return normalizeTable(await call("POST", `/api/tables/${encodeURIComponent(code)}/start`, {}, token));
}

export async function reclaimSeat(code, seat, token) {
  return normalizeTable(await call("POST", `/api/tables/${encodeURIComponent(code)}/seats/${seat}/reclaim`, {}, token));
}

export async function rematch(code, token) {
  const res = await call("POST", `/api/tables/${encodeURIComponent(code)}/rematch`, {}, token);
  return { code: res.table.code, table: normalizeTable(res.table) };
}

export async function handToBot(code, seat, bot, token) {
  return normalizeTable(await call("POST", `/api/tables/${encodeURIComponent(code)}/seats/${seat}/bot`, { bot }, token));
}

// A websocket to a table that says hello with the seat token, reconnects when it
// drops, and hands each server message to onMessage.
// Reconnection: quick at first, then every 1.5 s at most (so a restarted server is found within
// about that of being up), with jitter so a whole table does not knock at the same instant.
function retryDelay(tries) {
  const base = Math.min(200 * 2 ** (tries - 1), 1500);
  return base * (0.75 + Math.random() * 0.5);
}

export function connect(code, token, { onMessage, onState }) {
  let ws = null;
  let closed = false;
  let tries = 0;
  let timer = null;
  let nextId = 1;
  let gone = false; // the table is no more (4404) or the token is not a seat (4401)

  function open() {
    if (closed) return;
    onState?.(tries ? "connecting" : "connecting");
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(`${proto}//${location.host}/ws/${encodeURIComponent(code)}`);
    ws.onopen = () => {
      tries = 0;
      // Watching is asked for: a hello with neither a token nor "spectate" is refused.
      ws.send(JSON.stringify(token ? { type: "hello", token } : { type: "hello", spectate: true }));
      onState?.("open");
    };
    ws.onmessage = (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      // An ack says a frame with an id was carried out (what it changed, the state or the chat,
      // came before it); a refusal comes as an error. Both carry the frame's id as `ref`: the
      // page unlocks the move it sent (table.js).
      onMessage(msg);
    };
    ws.onclose = (e) => {
      if (closed) return;
      if (e.code === 4404 || e.code === 4401) {
        gone = true;
        onMessage({ type: "closed", code: e.code });
        onState?.("closed");
        return;
      }
      onState?.("closed");
      tries += 1;
      timer = setTimeout(open, retryDelay(tries));
    };
  }
  // Try again at once when the browser says the network is back or the tab is shown.
  const now = () => {
    if (closed || gone || (ws && ws.readyState <= WebSocket.OPEN)) return;
    clearTimeout(timer);
    open();
  };
  const shown = () => document.visibilityState === "visible" && now();
  window.addEventListener("online", now);
  document.addEventListener("visibilitychange", shown);
  open();
  return {
    send(msg) {
      if (!ws || ws.readyState !== WebSocket.OPEN) {
        const e = new Error("network");
        e.network = true;
        throw e;
      }
      // Ids count up and are never reused on a connection (the server would not carry out a
      // frame whose id it has seen: docs/server-protocol.md). The id is returned: its answer's ref.
      const id = nextId++;
      ws.send(JSON.stringify({ ...msg, id }));
      return id;
    },
    sync() {
      if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "sync" }));
    },
    close() {
      closed = true;
      clearTimeout(timer);
      window.removeEventListener("online", now);
      document.removeEventListener("visibilitychange", shown);
      ws?.close();
    },
    get gone() {
      return gone;
    },
  };
}

// One server message → {table, seat, view, events, eventsFrom, full, error, rematch}.
// A view carries the rules' answers (docs/server-protocol.md): `trick` (lead, leading,
// reason, bonus_why, order), `refusals` and each finished trick's `reason`.
export function normalize(msg) {
  const out = {};
  if (msg.table) out.table = normalizeTable(msg.table);
  switch (msg.type) {
    case "welcome":
      out.seat = msg.spectator ? null : msg.seat;
      out.welcome = true;
      break;
    case "state":
      out.view = msg.view;
      out.events = msg.events || [];
      out.eventsFrom = msg.full ? 0 : (msg.events_from ?? null);
      out.full = !!msg.full;
      out.toAct = msg.to_act;
      break;
    case "error":
      out.error = { code: msg.code, message: msg.message, params: msg.params || {} };
      break;
    case "rematch":
      out.rematch = msg.code;
      break;
    case "closed":
      out.closed = msg.code;
      break;
    default:
      break;
  }
  return out;
}
