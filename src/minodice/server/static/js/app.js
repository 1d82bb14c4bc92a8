// The Mino Dice web client: lobby, game, score sheet and podium.
// The server is the authority; this file only shows what it is sent and sends wishes.
import * as api from "./api.js";
import { $, el } from "./dom.js";
import { blankDieSVG, dieName, dieSVG, faceName } from "./dice.js";
import { currentLanguage, nameList, onLanguage, pickLanguage, setLanguage, t } from "./i18n.js";
import { explainTrick, leadColour, trickWinner, whyNot } from "./rules.js";

const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;
const BOTS = ["random", "greedy", "montecarlo", "ismcts"];
const RULE_OPTIONS = {
  scoring: ["standard", "landlubber"],
  all_specials: ["mermaid", "minotaur", "griffin"],
  all_flags: ["first", "last"],
  hand_start: ["rotate", "last_winner"],
};

const S = {
  screen: null,
  code: null,
  token: null,
  seat: null,
  table: null, // {code, seats: [{name, bot, human, taken, connected}], status, host, rematch}
  view: null,
  events: [],
  fresh: new Set(), // rolls to animate: "hand:trick:seat"
  conn: null,
  queue: [],
  busy: false,
  sheetOpen: false,
  logOpen: false,
};

// --- small helpers ----------------------------------------------------------------

function show(screen) {
  S.screen = screen;
  for (const s of ["home", "lobby", "game", "podium"]) $(`screen-${s}`).hidden = s !== screen;
  $("loading").hidden = true;
  $("sheet").hidden = !(screen === "podium" || (screen === "game" && S.sheetOpen));
}

let errorTimer = null;
export function showError(err) {
  const box = $("error");
  box.textContent = errorText(err);
  box.hidden = false;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => (box.hidden = true), 8000);
}

function errorText(err) {
  if (err && typeof err === "object") {
    const code = err.code || err.error;
    if (code && typeof code === "string") {
      const key = `error.${code}`;
      const msg = t(key, err);
      if (msg !== key) return msg;
    }
    if (err.status === 404) return t("error.not_found");
    if (err.network) return t("error.network");
  }
  return t("error.generic");
}

function toast(text) {
  const box = $("toast");
  box.textContent = text;
  box.hidden = false;
  setTimeout(() => (box.hidden = true), 2500);
}

function seatName(seat) {
  const names = S.view?.names || S.table?.seats?.map((s) => s.name) || [];
  const name = names[seat] || t("lobby.seat_n", { n: seat + 1 });
  return seat === S.seat ? t("you_name", { name }) : name;
}

function plainName(seat) {
  const names = S.view?.names || S.table?.seats?.map((s) => s.name) || [];
  return names[seat] || t("lobby.seat_n", { n: seat + 1 });
}

function isBot(seat) {
  const s = S.table?.seats?.[seat];
  return !!(s && (s.bot || s.standin));
}

// --- routing and tokens -------------------------------------------------------------
// Invite link: /#table=CODE. Personal link: /#table=CODE&token=TOKEN (the fragment
// never reaches a server). The seat token lives in the cookie md_CODE, the host
// token in mdh_CODE (docs/server-protocol.md).

function readRoute() {
  const frag = new URLSearchParams(location.hash.replace(/^#/, ""));
  const q = new URLSearchParams(location.search);
  const code = frag.get("table") || q.get("table");
  return { code: code ? code.toUpperCase() : null, token: frag.get("token") };
}

function setCookie(name, value) {
  document.cookie = `${name}=${encodeURIComponent(value)}; path=/; max-age=${60 * 60 * 24 * 30}; SameSite=Strict`;
}

function getCookie(name) {
  const m = document.cookie.match(new RegExp(`(?:^|; )${name}=([^;]*)`));
  return m ? decodeURIComponent(m[1]) : null;
}

function saveToken(code, token, seat) {
  if (!token) return;
  setCookie(`md_${code}`, token);
  const mine = JSON.parse(localStorage.getItem("minodice.tables") || "{}");
  mine[code] = { seat, at: Date.now() };
  localStorage.setItem("minodice.tables", JSON.stringify(mine));
}

function loadToken(code) {
  return getCookie(`md_${code}`);
}

function inviteLink(code) {
  return new URL(api.invitePath(code), location.origin).href;
}

function personalLink(code, token) {
  return new URL(api.personalPath(code, token), location.origin).href;
}

// Show the invite link in the address bar (safe to share); the token stays in the cookie.
function showInviteUrl(code) {
  history.replaceState({}, "", api.invitePath(code));
}

// --- home: create / join by code -------------------------------------------------------

function renderCreateSeats() {
  const n = Number($("create-seats").value);
  const list = $("create-seat-list");
  const old = [...list.querySelectorAll("select")].map((s) => s.value);
  list.textContent = "";
  for (let i = 0; i < n; i++) {
    const sel = el("select", { id: `seat-kind-${i}`, "data-seat": i, "aria-label": t("lobby.seat_n", { n: i + 1 }) });
    if (i === 0) {
      sel.append(el("option", { value: "me", text: t("create.seat_me") }));
    } else {
      sel.append(el("option", { value: "human", text: t("create.seat_human") }));
      for (const b of BOTS) sel.append(el("option", { value: `bot:${b}`, text: t("create.seat_bot", { bot: t(`bot.${b}`) }) }));
    }
    if (old[i]) sel.value = old[i];
    else if (i > 0) sel.value = i === n - 1 ? "bot:greedy" : "human";
    list.append(el("li", {}, sel));
  }
}

function renderRuleOptions() {
  const box = $("create-rules");
  const old = Object.fromEntries([...box.querySelectorAll("select")].map((s) => [s.name, s.value]));
  box.textContent = "";
  for (const [name, values] of Object.entries(RULE_OPTIONS)) {
    const sel = el("select", { name, id: `rule-${name}` });
    for (const v of values) sel.append(el("option", { value: v, text: t(`rule.${name}.${v}`) }));
    if (old[name]) sel.value = old[name];
    box.append(el("label", { class: "field" }, el("span", { text: t(`rule.${name}`) }), sel));
  }
}

function renderMyTables() {
  const mine = JSON.parse(localStorage.getItem("minodice.tables") || "{}");
  const codes = Object.entries(mine).sort((a, b) => b[1].at - a[1].at).slice(0, 8);
  $("my-tables").hidden = codes.length === 0;
  const ul = $("my-tables-list");
  ul.textContent = "";
  for (const [code] of codes) {
    ul.append(el("li", {}, el("a", { href: api.invitePath(code), text: t("home.table_code", { code }) })));
  }
}

// --- home: finished games (GET /api/games), each with its record to download ----------------------

const GAMES_PAGE = 20;
const past = { games: [], more: false, failed: false, loaded: false, loading: false };

async function loadPastGames(append = false) {
  if (past.loading) return;
  past.loading = true;
  $("past-games").setAttribute("aria-busy", "true");
  const before = append ? past.games.length : 0;
  try {
    const got = await api.listGames(GAMES_PAGE, before);
    const known = new Set(append ? past.games.map((g) => g.code) : []);
    past.games = [...(append ? past.games : []), ...got.filter((g) => !known.has(g.code))];
    past.more = got.length === GAMES_PAGE;
    past.failed = false;
  } catch {
    past.failed = true;
  }
  past.loading = false;
  past.loaded = true;
  $("past-games").setAttribute("aria-busy", "false");
  renderPastGames();
  // Keyboard users who asked for more land on the first game added.
  if (append) $("past-games-list").children[before]?.querySelector("a")?.focus();
}

function formatDate(iso) {
  const d = iso ? new Date(iso) : null;
  if (!d || Number.isNaN(d.getTime())) return t("home.date_unknown");
  try {
    return new Intl.DateTimeFormat(currentLanguage(), { dateStyle: "medium", timeStyle: "short" }).format(d);
  } catch {
    return d.toLocaleString();
  }
}

function renderPastGames() {
  const ol = $("past-games-list");
  ol.textContent = "";
  for (const g of past.games) {
    const names = g.names || [];
    const totals = g.totals || [];
    const places = g.places || totals.map((x) => 1 + totals.filter((o) => o > x).length);
    const order = names.map((_, i) => i).sort((a, b) => (places[a] ?? 99) - (places[b] ?? 99) || a - b);
    const players = el("ol", { class: "past-players" });
    for (const i of order) {
      const won = places[i] === 1;
      players.append(
        el(
          "li",
          { class: won ? "winner" : null, "data-seat": i },
          el("span", {
            text: t("home.player_score", {
              place: t("podium.place", { n: places[i] ?? i + 1 }),
              name: names[i] || t("lobby.seat_n", { n: i + 1 }),
              points: t("game.points", { n: totals[i] ?? 0 }),
            }),
          }),
          won ? el("span", { class: "badge win", text: t("home.winner") }) : null,
        ),
      );
    }
    const date = formatDate(g.finished);
    ol.append(
      el(
        "li",
        { class: "past-game", "data-code": g.code },
        el(
          "div",
          { class: "past-head" },
          el("time", { datetime: g.finished || null, text: date }),
          el("span", { class: "past-code", text: t("home.table_code", { code: g.code }) }),
        ),
        players,
        el("a", {
          class: "button small download",
          href: api.recordUrl(g.code),
          download: `minodice-${g.code}.json`,
          "aria-label": t("home.download_label", { code: g.code, date }),
          text: t("home.download"),
        }),
      ),
    );
  }
  $("past-games-empty").hidden = !past.loaded || past.failed || past.games.length > 0;
  $("past-games-failed").hidden = !past.failed;
  $("past-games-more").hidden = past.failed || !past.more;
}

async function onCreate(ev) {
  ev.preventDefault();
  const name = $("create-name").value.trim();
  if (!name) return $("create-name").focus();
  const n = Number($("create-seats").value);
  const seats = [];
  for (let i = 0; i < n; i++) {
    const v = $(`seat-kind-${i}`).value;
    seats.push(v.startsWith("bot:") ? { bot: v.slice(4) } : { human: true });
  }
  const rules = Object.fromEntries([...$("create-rules").querySelectorAll("select")].map((s) => [s.name, s.value]));
  try {
    const res = await api.createTable({ name, seats, rules, hints: $("create-hints").checked });
    saveToken(res.code, res.token, res.seat);
    if (res.hostToken) setCookie(`mdh_${res.code}`, res.hostToken);
    history.pushState({}, "", api.invitePath(res.code));
    await enterTable(res.code, res.token);
  } catch (err) {
    showError(err);
  }
}

function onJoinCode(ev) {
  ev.preventDefault();
  const code = $("join-code").value.trim().toUpperCase();
  if (!code) return;
  history.pushState({}, "", api.invitePath(code));
  enterTable(code, loadToken(code));
}

// --- table lobby ------------------------------------------------------------------------

async function onJoinSeat(ev) {
  ev.preventDefault();
  const name = $("join-name").value.trim();
  if (!name) return $("join-name").focus();
  try {
    const res = await api.joinTable(S.code, name);
    saveToken(S.code, res.token, res.seat);
    showInviteUrl(S.code);
    await enterTable(S.code, res.token);
  } catch (err) {
    showError(err);
  }
}

function amHost() {
  const tb = S.table;
  return !!tb && (!!getCookie(`mdh_${tb.code}`) || (S.seat !== null && S.seat === tb.host));
}

async function giveToBot(seat, bot) {
  try {
    applyTable(await api.handToBot(S.code, seat, bot, getCookie(`mdh_${S.code}`) || S.token));
    route();
  } catch (err) {
    showError(err);
  }
}

function renderLobby() {
  const tb = S.table;
  $("lobby-code").textContent = tb.code;
  $("invite-link").value = inviteLink(tb.code);
  $("personal").hidden = !S.token;
  if (S.token) $("personal-link").value = personalLink(tb.code, S.token);
  const ol = $("lobby-seats");
  ol.textContent = "";
  tb.seats.forEach((s, i) => {
    const li = el("li", { class: i === S.seat ? "me" : "" }, el("span", { class: "seat-no", text: t("lobby.seat_n", { n: i + 1 }) }));
    if (s.bot) {
      li.append(el("span", { text: s.name || t(`bot.${s.bot}`) }), el("span", { class: "badge", text: t("lobby.bot", { bot: t(`bot.${s.bot}`) }) }));
    } else if (s.taken) {
      li.append(el("span", { text: i === S.seat ? t("you_name", { name: s.name }) : s.name }));
      if (i === tb.host) li.append(el("span", { class: "badge", text: t("lobby.host") }));
      if (s.connected === false) li.append(el("span", { class: "badge off", text: t("lobby.away") }));
    } else {
      li.append(el("span", { class: "empty", text: t("lobby.open_seat") }));
      if (amHost()) {
        const sel = el("select", { "aria-label": t("lobby.bot_for_seat", { n: i + 1 }) });
        for (const b of BOTS) sel.append(el("option", { value: b, text: t(`bot.${b}`) }));
        li.append(
          el(
            "div",
            { class: "give-bot" },
            sel,
            el("button", { type: "button", class: "small", text: t("lobby.give_to_bot"), onclick: () => giveToBot(i, sel.value) }),
          ),
        );
      }
    }
    ol.append(li);
  });
  const free = tb.seats.filter((s) => !s.bot && !s.taken).length;
  $("join-form").hidden = S.seat !== null || free === 0;
  const isHost = amHost();
  $("start-btn").hidden = !isHost;
  $("start-btn").disabled = free > 0;
  let status;
  if (free > 0) status = t("lobby.waiting_players", { n: free });
  else if (isHost) status = t("lobby.ready_host");
  else status = t("lobby.ready_wait", { name: tb.seats[tb.host]?.name || "" });
  if (S.seat === null && free === 0) status = t("lobby.full");
  $("lobby-status").textContent = status;
}

async function onStart() {
  try {
    $("start-btn").disabled = true;
    const table = await api.startTable(S.code, getCookie(`mdh_${S.code}`) || S.token);
    applyTable(table);
    route();
  } catch (err) {
    $("start-btn").disabled = false;
    showError(err);
  }
}

async function onRematch() {
  if (S.table?.rematch) return followRematch(S.table.rematch);
  try {
    $("rematch-btn").disabled = true;
    const res = await api.rematch(S.code, getCookie(`mdh_${S.code}`) || S.token);
    await followRematch(res.code);
  } catch (err) {
    $("rematch-btn").disabled = false;
    showError(err);
  }
}

// A rematch table keeps the same seats and tokens: copy the cookies and go there.
async function followRematch(code) {
  if (!code || code === S.code) return;
  const host = getCookie(`mdh_${S.code}`);
  if (host) setCookie(`mdh_${code}`, host);
  const token = S.token;
  saveToken(code, token, S.seat);
  history.pushState({}, "", api.invitePath(code));
  await enterTable(code, token);
}

// --- connecting to a table ------------------------------------------------------------------

async function enterTable(code, token) {
  if (S.conn) S.conn.close();
  S.conn = null;
  S.code = code;
  S.token = token || null;
  S.seat = null;
  S.table = null;
  S.view = null;
  S.events = [];
  S.fresh.clear();
  S.queue = [];
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

function applyTable(table) {
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

function route() {
  if (!S.table) return;
  const status = S.table.status;
  if (status === "lobby" || (!S.view && status !== "over")) {
    show("lobby");
    renderLobby();
  } else if (status === "expired") {
    showError({ code: "no_table" });
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

// --- incoming messages, paced so each roll can be seen landing --------------------------------

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
  let pause = 0;
  if (m.error) showError(m.error);
  if (m.table) applyTable(m.table);
  if (m.welcome) {
    S.seat = m.seat;
    if (S.seat === null && S.token) {
      // The token no longer holds a seat here (a bot took it): watch instead.
      S.token = null;
    }
    if (S.token) saveToken(S.code, S.token, S.seat);
  }
  if (m.closed === 4401 && S.token) {
    // Not a seat of this table: forget the token and watch.
    S.token = null;
    document.cookie = `md_${S.code}=; path=/; max-age=0`;
    enterTable(S.code, null);
    return 0;
  }
  if (m.closed === 4404) {
    showError({ code: "no_table" });
    goHome();
    return 0;
  }
  if (m.rematch) {
    S.table = { ...S.table, rematch: m.rematch };
  }
  if (m.events) {
    const initial = m.full;
    if (m.full) {
      S.events = [];
    } else if (m.eventsFrom !== null && m.eventsFrom !== S.events.length) {
      if (m.eventsFrom < S.events.length) S.events.length = m.eventsFrom;
      else {
        // A gap: ask for everything again.
        S.conn?.sync();
        return 0;
      }
    }
    for (const ev of m.events) {
      S.events.push(ev);
      if (initial) continue;
      if (ev.type === "rolled") {
        S.fresh.add(`${currentHandAt(S.events.length - 1)}:${ev.trick}:${ev.seat}`);
        pause = Math.max(pause, 700);
      }
      if (ev.type === "trick_won") pause = Math.max(pause, 1200);
      if (ev.type === "bids_revealed") pause = Math.max(pause, 600);
    }
  }
  if (m.view) {
    S.view = m.view;
    S.toAct = m.toAct ?? [];
  }
  route();
  return pause;
}

function currentHandAt(index) {
  for (let i = index; i >= 0; i--) if (S.events[i].type === "drawn") return S.events[i].hand;
  return 0;
}

function gameOverEvent() {
  return S.events.find((e) => e.type === "game_over") || null;
}

// --- the game screen ----------------------------------------------------------------------------

// What the event log says about the current and the last tricks.
function digest() {
  const d = { hand: 0, myBid: null, tricks: [], lastHandTrick: null, rows: [], over: null, revealed: null };
  let cur = null;
  for (const ev of S.events) {
    switch (ev.type) {
      case "drawn":
        if (d.tricks.length) d.lastHandTrick = { hand: d.hand, ...d.tricks[d.tricks.length - 1] };
        d.hand = ev.hand;
        d.myBid = null;
        d.revealed = null;
        d.tricks = [];
        cur = null;
        break;
      case "bid_placed":
        if (ev.seat === S.seat && ev.bid !== null) d.myBid = ev.bid;
        break;
      case "bids_revealed":
        d.revealed = ev.bids;
        break;
      case "rolled":
        if (!cur || cur.no !== ev.trick) {
          cur = { no: ev.trick, rolls: [], winner: null, bonus: 0 };
          d.tricks.push(cur);
        }
        cur.rolls.push({ seat: ev.seat, die: ev.die, face: ev.face });
        break;
      case "trick_won":
        if (cur) {
          cur.winner = ev.seat;
          cur.bonus = ev.bonus;
          cur.face = ev.face;
        }
        break;
      case "hand_scored":
        d.rows.push(ev);
        break;
      case "game_over":
        d.over = ev;
        break;
    }
  }
  return d;
}

function renderGame() {
  const v = S.view;
  if (!v) return;
  const d = digest();
  const bidding = v.bid_placed.some((b) => !b);
  const cur = v.tricks.length && v.tricks[v.tricks.length - 1].winner === null ? v.tricks[v.tricks.length - 1] : null;
  const trickNo = cur ? v.tricks.length : Math.min(v.tricks.length + 1, v.hand);
  const toRoll = bidding ? null : cur ? (v.leader + cur.rolls.length) % v.seats : v.leader;
  const myTurnRoll = !bidding && Array.isArray(v.legal) && v.legal.length && typeof v.legal[0] === "string";
  const myTurnBid = bidding && Array.isArray(v.legal);

  // Header
  $("hand-info").textContent = bidding
    ? t("game.hand_bidding", { hand: v.hand, hands: v.hands })
    : t("game.hand_trick", { hand: v.hand, hands: v.hands, trick: trickNo, n: v.hand });
  let turn;
  if (myTurnBid) turn = t("game.your_bid");
  else if (bidding) turn = t("game.waiting_bids", { names: nameList(waitingBidders()) });
  else if (myTurnRoll) turn = t("game.your_roll");
  else if (toRoll !== null) turn = t(isBot(toRoll) ? "game.bot_rolling" : "game.their_roll", { name: plainName(toRoll) });
  else turn = "";
  $("turn-info").textContent = turn;
  renderTimer();

  renderPlayers(v, d, bidding, toRoll, cur);
  renderTrick(v, d, cur, toRoll);
  renderMe(v, d, bidding, myTurnBid, myTurnRoll, cur);
  renderLog();
  if (S.sheetOpen) renderSheet();
  const rec = api.recordUrl(S.code, S.token);
  $("record-link").href = rec;
  $("record-link").setAttribute("download", `minodice-${S.code}.json`);
}

// The turn timer: a live countdown, once a second, to the bot that stands in for an
// absent player the game waits for (TABLE.players[i].autoplay_in, see api.normalizeTable).
// Its own element (role=timer, not a live region) so screen readers are not flooded.
let timerTick = null;

function renderTimer() {
  clearTimeout(timerTick);
  timerTick = null;
  const box = $("turn-timer");
  const seats = S.screen === "game" && S.table?.status === "playing" ? S.table.seats || [] : [];
  const now = performance.now();
  const groups = new Map(); // whole seconds left → seats
  let next = Infinity; // ms until the next shown second changes
  seats.forEach((s, i) => {
    if (typeof s.autoplayAt !== "number" || s.bot || s.standin) return;
    const ms = Math.max(0, s.autoplayAt - now);
    const n = Math.ceil(ms / 1000);
    if (!groups.has(n)) groups.set(n, []);
    groups.get(n).push(i);
    if (ms > 0) next = Math.min(next, ms % 1000 || 1000);
  });
  const text = [...groups.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([n, list]) => t("game.deadline", { names: nameList(list.map(plainName)), n }))
    .join(" ");
  if (box.textContent !== text) box.textContent = text;
  box.hidden = !text;
  if (next < Infinity) timerTick = setTimeout(renderTimer, Math.min(next, 1000) + 20);
}

function waitingBidders() {
  const v = S.view;
  return v.bid_placed.map((b, i) => (b ? null : i)).filter((i) => i !== null).map((i) => (i === S.seat ? t("you") : plainName(i)));
}

function renderPlayers(v, d, bidding, toRoll, cur) {
  const ol = $("players");
  ol.textContent = "";
  const winning = cur ? cur.rolls[trickWinner(cur.rolls.map((r) => r.face), v.rules)]?.seat : null;
  for (let i = 0; i < v.seats; i++) {
    const bid = v.bids[i] ?? (i === S.seat ? d.myBid : null);
    let bidText;
    if (bidding) {
      if (i === S.seat && d.myBid !== null) bidText = t("game.you_bid_hidden", { bid: d.myBid });
      else bidText = v.bid_placed[i] ? t("game.has_bid") : t("game.bidding_now");
    } else {
      bidText = t("game.won_of_bid", { won: v.won[i], bid });
    }
    const cls = ["player", i === S.seat ? "me" : "", i === toRoll ? "turn" : "", i === winning ? "leading" : ""].join(" ");
    const pbid = el("span", { class: "pbid", text: bidText });
    if (!bidding && bid !== null) {
      if (v.won[i] === bid) pbid.append(" ", el("span", { class: "made", text: t("game.on_target") }));
      else if (v.won[i] > bid) pbid.append(" ", el("span", { class: "over", text: t("game.over_bid") }));
    }
    const li = el(
      "li",
      { class: cls, "data-seat": i },
      el("span", { class: "pname", text: seatName(i) }),
      el("span", { class: "ptotal", title: t("game.total"), text: t("game.points", { n: v.totals[i] }) }),
      pbid,
    );
    const seatInfo = S.table?.seats?.[i];
    const badges = el("span", { class: "pbadges" });
    if (seatInfo?.bot) badges.append(el("span", { class: "badge", text: t("lobby.bot", { bot: t(`bot.${seatInfo.bot}`) }) }));
    else if (seatInfo?.standin) badges.append(el("span", { class: "badge off", text: t("lobby.standin") }));
    else if (seatInfo && seatInfo.connected === false) {
      badges.append(el("span", { class: "badge off", text: t("lobby.away") }));
      if (amHost()) {
        badges.append(
          el("button", { type: "button", class: "small", text: t("game.give_to_bot"), onclick: () => giveToBot(i, "greedy") }),
        );
      }
    }
    if (badges.childNodes.length) li.append(badges);
    if (i === winning) li.append(el("span", { class: "pbid", text: t("game.winning_now") }));
    ol.append(li);
  }
}

function renderTrick(v, d, cur, toRoll) {
  const ol = $("trick");
  ol.textContent = "";
  // The trick to show: the one in play, else the last one finished (this hand or the last).
  let shown = null;
  let title;
  let hand = v.hand;
  if (cur) {
    shown = { rolls: cur.rolls, winner: null, no: v.tricks.length };
    title = t("game.trick_n", { n: v.tricks.length, of: v.hand });
  } else if (d.tricks.length && d.tricks[d.tricks.length - 1].winner !== null) {
    shown = d.tricks[d.tricks.length - 1];
    title = t("game.last_trick", { n: shown.no });
  } else if (d.lastHandTrick) {
    shown = d.lastHandTrick;
    hand = d.lastHandTrick.hand;
    title = t("game.last_trick_prev", { n: shown.no, hand });
  } else {
    title = t("game.no_trick_yet");
  }
  $("trick-h").textContent = title;
  if (!shown) {
    $("lead-info").textContent = "";
    $("trick-result").textContent = "";
    return;
  }
  const faces = shown.rolls.map((r) => r.face);
  const best = faces.length ? trickWinner(faces, v.rules) : -1;
  const lead = leadColour(shown.rolls);
  $("lead-info").textContent = lead ? t("game.lead", { colour: dieName(lead) }) : t("game.no_lead");
  shown.rolls.forEach((r, idx) => {
    const key = `${hand}:${shown.no}:${r.seat}`;
    const fresh = S.fresh.has(key);
    S.fresh.delete(key);
    const li = el(
      "li",
      { class: `${idx === best ? "winning" : ""} ${fresh ? "rolling" : ""}`, "data-seat": r.seat },
      el("span", { html: dieSVG(r.die, r.face) }),
      el("span", { class: "who", text: seatName(r.seat) }),
      el("span", { class: "what", text: t("die_shows", { die: dieName(r.die), face: faceName(r.face) }) }),
    );
    ol.append(li);
  });
  if (cur) {
    for (let k = cur.rolls.length; k < v.seats; k++) {
      const seat = (v.leader + k) % v.seats;
      ol.append(
        el(
          "li",
          { class: "pending", "data-seat": seat },
          el("span", { html: blankDieSVG(t("game.to_roll")) }),
          el("span", { class: "who", text: seatName(seat) }),
          el("span", { class: "what", text: seat === toRoll ? t("game.rolling_now") : t("game.to_roll") }),
        ),
      );
    }
  }
  const result = $("trick-result");
  if (shown.winner !== null && shown.winner !== undefined) {
    const why = explainTrick(faces, v.rules);
    let text = t("game.trick_won_by", {
      name: seatName(shown.winner),
      why: whyText(why),
    });
    if (shown.bonus > 0) text += ` ${t("game.bonus_if_made", { n: shown.bonus })}`;
    result.textContent = text;
  } else if (best >= 0) {
    result.textContent = t("game.winning_so_far", { name: seatName(shown.rolls[best].seat) });
  } else {
    result.textContent = "";
  }
}

function whyText(why) {
  const p = {};
  for (const [k, val] of Object.entries(why.params)) p[k] = /^\d$/.test(val) ? val : faceName(val);
  let s = t(why.key, p);
  if (why.tie) s += t("why.tie", p);
  return s;
}

function renderMe(v, d, bidding, myTurnBid, myTurnRoll, cur) {
  const spectator = S.seat === null || v.seat === null || v.seat === undefined;
  $("spectator").hidden = !spectator;
  $("me-h").hidden = spectator;
  // Bid pad
  const pad = $("bid-pad");
  pad.hidden = !myTurnBid;
  $("hint-button").hidden = !myTurnBid || !S.table?.hints;
  if (!myTurnBid || $("hint-box").dataset.hand !== String(v.hand)) $("hint-box").hidden = true;
  if (myTurnBid) {
    $("bid-prompt").textContent = t("game.bid_prompt", { n: v.hand });
    const box = $("bid-buttons");
    const wanted = v.legal.map(String).join(",");
    if (box.dataset.bids !== wanted) {
      box.textContent = "";
      box.dataset.bids = wanted;
      for (const b of v.legal) {
        box.append(
          el("button", {
            type: "button",
            class: "bid",
            "data-bid": b,
            "aria-keyshortcuts": b <= 9 ? String(b) : null,
            "aria-label": t("game.bid_n", { n: b }),
            text: String(b),
            onclick: () => sendBid(b),
          }),
        );
      }
    }
  }
  const waiting = $("bid-waiting");
  if (bidding && !myTurnBid && !spectator && d.myBid !== null) {
    waiting.textContent = t("game.bid_sent_waiting", { bid: d.myBid, names: nameList(waitingBidders()) });
  } else if (!bidding && d.revealed) {
    waiting.textContent = t("game.bids_revealed", {
      list: d.revealed.map((b, i) => t("game.name_bid", { name: seatName(i), bid: b })).join(" · "),
      sum: d.revealed.reduce((a, b) => a + b, 0),
      n: v.hand,
    });
  } else {
    waiting.textContent = "";
  }
  // Dice
  const held = v.dice || [];
  const lead = cur ? leadColour(cur.rolls) : null;
  const legal = myTurnRoll ? new Set(v.legal) : new Set();
  $("roll-prompt").textContent = myTurnRoll
    ? lead && held.includes(lead)
      ? t("game.roll_follow", { colour: dieName(lead) })
      : t("game.roll_any")
    : "";
  const ul = $("my-dice");
  const focusedDie = document.activeElement?.dataset?.index;
  ul.textContent = "";
  held.forEach((die, i) => {
    const ok = legal.has(die);
    const why = myTurnRoll && !ok ? whyNot(die, held, lead) : null;
    const btn = el(
      "button",
      {
        type: "button",
        class: `die-btn ${ok ? "legal" : ""} ${myTurnRoll ? "" : "held"}`,
        "data-die": die,
        "data-index": i,
        disabled: !ok,
        "aria-keyshortcuts": ok && i < 9 ? String(i + 1) : null,
        "aria-label": ok
          ? t("game.roll_die_label", { die: dieName(die), faces: facesText(die) })
          : why
            ? t("game.cannot_roll_label", { die: dieName(die), why: t(`whynot.${why}`, { colour: dieName(lead) }) })
            : `${dieName(die)} (${facesText(die)})`,
        onclick: () => sendRoll(die),
      },
      el("span", { html: dieSVG(die) }),
      el("span", { class: "dname", text: dieName(die) }),
      why ? el("span", { class: "why", text: t(`whynot.${why}`, { colour: dieName(lead) }) }) : null,
      ok && i < 9 ? el("span", { class: "key", text: t("game.key_hint", { key: i + 1 }) }) : null,
    );
    ul.append(el("li", {}, btn));
  });
  if (!held.length && !spectator) ul.append(el("li", { class: "status", text: t("game.no_dice") }));
  if (focusedDie !== undefined) ul.querySelector(`[data-index="${focusedDie}"]`)?.focus();
  else if (myTurnRoll && !document.activeElement?.closest?.(".me-area")) ul.querySelector("button:not(:disabled)")?.focus({ preventScroll: true });
}

function facesText(die) {
  return t(`die.${die}.faces`);
}

// The bid advisor for this seat's dice (GET /api/tables/{code}/hint), shown under the bid pad.
async function showHint(hand) {
  const box = $("hint-box");
  const button = $("hint-button");
  button.disabled = true;
  try {
    const a = await api.hint(S.code, S.token);
    const table = el("table", { class: "hint-table" });
    table.append(el("tr", {}, [
      el("th", { text: t("hint.bid") }), el("th", { text: t("hint.expected") }), el("th", { text: t("hint.made") }),
    ]));
    for (const b of a.bids) {
      const row = el("tr", { class: b.bid === a.best_bid ? "best" : null }, [
        el("td", { text: String(b.bid) }),
        el("td", { text: `${b.expected_score >= 0 ? "+" : ""}${b.expected_score.toFixed(1)} ± ${b.ci95.toFixed(1)}` }),
        el("td", { text: `${Math.round(b.made * 100)} %` }),
      ]);
      table.append(row);
    }
    box.textContent = "";
    box.append(el("p", { class: "hint-best", text: t("hint.best", { bid: a.best_bid }) }), table,
      el("p", { class: "hint-note", text: t("hint.note", { deals: a.deals }) }));
    box.dataset.hand = String(hand);
    box.hidden = false;
  } catch (err) {
    showError(err);
  } finally {
    button.disabled = false;
  }
}

async function sendBid(b) {
  try {
    for (const btn of $("bid-buttons").querySelectorAll("button")) btn.disabled = true;
    $("bid-buttons").dataset.bids = "";
    await S.conn.send({ type: "bid", bid: b });
  } catch (err) {
    showError(err);
  }
}

async function sendRoll(die) {
  try {
    for (const btn of $("my-dice").querySelectorAll("button")) btn.disabled = true;
    await S.conn.send({ type: "roll", die });
  } catch (err) {
    showError(err);
  }
}

// --- log, sheet, podium ------------------------------------------------------------------------

function eventLine(ev) {
  switch (ev.type) {
    case "drawn":
      return t("log.drawn", { hand: ev.hand, name: seatName(ev.start) });
    case "bid_placed":
      return ev.seat === S.seat && ev.bid !== null ? t("log.you_bid", { bid: ev.bid }) : t("log.bid_placed", { name: seatName(ev.seat) });
    case "bids_revealed":
      return t("log.bids_revealed", { list: ev.bids.map((b, i) => t("game.name_bid", { name: seatName(i), bid: b })).join(" · ") });
    case "rolled":
      return t("log.rolled", { name: seatName(ev.seat), die: dieName(ev.die), face: faceName(ev.face) });
    case "trick_won":
      return t("log.trick_won", { n: ev.trick, name: seatName(ev.seat), face: faceName(ev.face) });
    case "hand_scored":
      return t("log.hand_scored", { hand: ev.hand });
    case "game_over":
      return t("log.game_over");
    default:
      return null;
  }
}

function renderLog() {
  if (!S.logOpen) return;
  const ol = $("log");
  ol.textContent = "";
  for (const ev of S.events.slice(-80)) {
    const line = eventLine(ev);
    if (line) ol.append(el("li", { text: line }));
  }
  ol.scrollTop = ol.scrollHeight;
}

function renderSheet() {
  const d = digest();
  const n = S.view?.seats || S.table?.seats?.length || 0;
  const tbl = $("sheet-table");
  tbl.textContent = "";
  const head = el("tr", {}, el("th", { scope: "col", text: t("sheet.hand") }));
  for (let i = 0; i < n; i++) head.append(el("th", { scope: "col", text: seatName(i) }));
  tbl.append(el("thead", {}, head));
  const body = el("tbody");
  for (const row of d.rows) {
    const tr = el("tr", {}, el("th", { scope: "row", text: String(row.hand) }));
    for (let i = 0; i < n; i++) {
      const made = row.bids[i] === row.won[i];
      const bonusCounts = made && row.bids[i] > 0 && row.bonus[i] > 0 && (S.view?.rules?.scoring || "standard") === "standard";
      tr.append(
        el(
          "td",
          { class: row.scores[i] < 0 ? "neg" : "" },
          el("strong", { text: signed(row.scores[i]) }),
          el("span", { class: "bw", text: t("sheet.bid_won", { bid: row.bids[i], won: row.won[i] }) }),
          bonusCounts ? el("span", { class: "bonus", text: t("sheet.bonus", { n: row.bonus[i] }) }) : null,
        ),
      );
    }
    body.append(tr);
  }
  if (!d.rows.length) {
    body.append(el("tr", {}, el("td", { colspan: n + 1, text: t("sheet.empty") })));
  }
  tbl.append(body);
  const last = d.rows[d.rows.length - 1];
  const totals = last ? last.totals : S.view?.totals || [];
  const foot = el("tr", {}, el("th", { scope: "row", text: t("sheet.total") }));
  for (let i = 0; i < n; i++) foot.append(el("td", { text: String(totals[i] ?? 0) }));
  tbl.append(el("tfoot", {}, foot));
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

function renderPodium() {
  const d = digest();
  const over = d.over;
  const totals = over?.totals || S.view?.totals || [];
  const places = over?.places || totals.map((x) => 1 + totals.filter((o) => o > x).length);
  const order = totals.map((_, i) => i).sort((a, b) => places[a] - places[b] || a - b);
  const ol = $("podium");
  ol.textContent = "";
  // Classic podium order on wide screens: 2nd, 1st, 3rd, then the rest.
  const shown = order.length >= 3 ? [order[1], order[0], order[2], ...order.slice(3)] : order;
  for (const i of shown) {
    const p = places[i];
    ol.append(
      el(
        "li",
        { class: p <= 3 ? `p${p}` : "rest", "data-seat": i },
        el("div", { class: "place", text: t("podium.place", { n: p }) }),
        el("div", { class: "pname", text: seatName(i) }),
        el("div", { class: "pts", text: t("game.points", { n: totals[i] }) }),
      ),
    );
  }
  const rec = api.recordUrl(S.code, S.token);
  $("record-link-final").href = rec;
  $("record-link-final").setAttribute("download", `minodice-${S.code}.json`);
  $("rematch-btn").hidden = S.seat === null && !S.table?.rematch;
  $("rematch-btn").textContent = t(S.table?.rematch ? "podium.rematch_go" : "podium.rematch");
  const winners = order.filter((i) => places[i] === 1).map((i) => plainName(i));
  $("rematch-status").textContent = S.table?.rematch
    ? t("podium.rematch_ready", { code: S.table.rematch })
    : t("podium.winner", { names: nameList(winners), n: winners.length });
}

// --- keyboard ---------------------------------------------------------------------------------

function onKey(ev) {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const tag = ev.target?.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  if (ev.key === "?") {
    toggleHelp();
    ev.preventDefault();
    return;
  }
  if (S.screen !== "game") return;
  const k = ev.key.toLowerCase();
  if (k === "s") return toggleSheet();
  if (k === "l") return toggleLog();
  if (/^\d$/.test(ev.key)) {
    const n = Number(ev.key);
    if (!$("bid-pad").hidden) {
      $("bid-buttons").querySelector(`[data-bid="${n}"]:not(:disabled)`)?.click();
    } else {
      $("my-dice").querySelector(`[data-index="${n - 1}"]:not(:disabled)`)?.click();
    }
  }
}

function toggleSheet() {
  S.sheetOpen = !S.sheetOpen;
  $("sheet-btn").setAttribute("aria-expanded", String(S.sheetOpen));
  $("sheet-btn").textContent = t(S.sheetOpen ? "game.hide_sheet" : "game.show_sheet");
  if (S.sheetOpen) renderSheet();
  $("sheet").hidden = !(S.sheetOpen || S.screen === "podium");
}

function toggleLog() {
  S.logOpen = !S.logOpen;
  $("log-btn").setAttribute("aria-expanded", String(S.logOpen));
  $("log-btn").textContent = t(S.logOpen ? "game.hide_log" : "game.show_log");
  $("log-wrap").hidden = !S.logOpen;
  renderLog();
}

function toggleHelp() {
  const open = $("help").hidden;
  $("help").hidden = !open;
  $("help-btn").setAttribute("aria-expanded", String(open));
  if (open) $("help").scrollIntoView({ block: "nearest" });
}

// --- start --------------------------------------------------------------------------------------

function goHome() {
  S.code = null;
  S.table = null;
  if (S.conn) S.conn.close();
  S.conn = null;
  show("home");
  renderCreateSeats();
  renderRuleOptions();
  renderMyTables();
  renderPastGames();
  loadPastGames();
}

function rerender() {
  $("lang-switch").value = currentLanguage();
  if (S.screen === "home") {
    renderCreateSeats();
    renderRuleOptions();
    renderMyTables();
    renderPastGames();
  } else {
    route();
  }
  $("sheet-btn").textContent = t(S.sheetOpen ? "game.hide_sheet" : "game.show_sheet");
  $("log-btn").textContent = t(S.logOpen ? "game.hide_log" : "game.show_log");
}

async function startFromUrl() {
  const { code, token } = readRoute();
  if (!code) return goHome();
  if (code === S.code && !token && S.conn) return;
  if (token) {
    // A personal link: keep the token in the cookie; the address bar shows the invite.
    saveToken(code, token, null);
    showInviteUrl(code);
  }
  await enterTable(code, token || loadToken(code));
}

async function main() {
  await setLanguage(pickLanguage());
  $("lang-switch").value = currentLanguage();
  $("lang-switch").addEventListener("change", (e) => setLanguage(e.target.value, { remember: true }));
  onLanguage(rerender);
  $("create-seats").addEventListener("change", renderCreateSeats);
  $("create-form").addEventListener("submit", onCreate);
  $("join-code-form").addEventListener("submit", onJoinCode);
  $("join-form").addEventListener("submit", onJoinSeat);
  $("start-btn").addEventListener("click", onStart);
  $("hint-button").addEventListener("click", () => showHint(S.view?.hand));
  $("rematch-btn").addEventListener("click", onRematch);
  $("sheet-btn").addEventListener("click", toggleSheet);
  $("log-btn").addEventListener("click", toggleLog);
  $("help-btn").addEventListener("click", toggleHelp);
  $("past-games-more").addEventListener("click", () => loadPastGames(true));
  for (const b of document.querySelectorAll("button.copy")) {
    b.addEventListener("click", async () => {
      const input = $(b.dataset.copy);
      input.select();
      try {
        await navigator.clipboard.writeText(input.value);
      } catch {
        document.execCommand?.("copy");
      }
      toast(t("copied"));
    });
  }
  document.addEventListener("keydown", onKey);
  window.addEventListener("popstate", startFromUrl);
  window.addEventListener("hashchange", startFromUrl);
  await startFromUrl();
}

main().catch((err) => {
  console.error(err);
  showError(err);
});
