// The home screen (create a table, join by code, my tables, finished games) and a
// table's lobby (seats, invite links, start). The rule options, bots and levels offered
// come from the server (GET /api/options), never from a list kept here.
import * as api from "./api.js";
import { bdi, tn } from "./bidi.js";
import { renderClockChoice } from "./clock.js";
import { $, el } from "./dom.js";
import { formatDate, t } from "./i18n.js";
import { nameField, nameRefused } from "./names.js";
import { applyTable, enterTable, route } from "./net.js";
import {
  S, amHost, botLabel, botSeatName, hostToken, inviteLink, loadToken, personalLink, plainName, saveToken, setCookie, show,
  showError, showInviteUrl,
} from "./state.js";

// --- home: create / join by code -------------------------------------------------------

function botNames() {
  return S.options.bots.map((b) => b.name);
}

// The levels (easy … expert), easiest first: a level is a bot name the server accepts.
function levelNames() {
  return (S.options.levels || []).map((l) => l.name);
}

// The bots' level of the create form: what a seat set to "level" gets ("medium" at first).
export function renderLevels() {
  const sel = $("create-level");
  const levels = levelNames();
  const old = sel.value;
  sel.textContent = "";
  for (const lv of levels) sel.append(el("option", { value: lv, text: t(`level.${lv}`) }));
  sel.value = levels.includes(old) ? old : levels.includes("medium") ? "medium" : levels[0] || "";
  $("create-level-field").hidden = levels.length === 0;
}

export function renderSeatCount() {
  const sel = $("create-seats");
  const { min, max } = S.options.seats || { min: 3, max: 6 };
  const old = sel.value || "4";
  sel.textContent = "";
  for (let n = min; n <= max; n++) sel.append(el("option", { value: n, text: String(n) }));
  sel.value = Number(old) >= min && Number(old) <= max ? old : String(min);
}

export function renderCreateSeats() {
  const n = Number($("create-seats").value);
  const list = $("create-seat-list");
  const old = [...list.querySelectorAll("select")].map((s) => s.value);
  const bots = botNames();
  const lastBot = bots.includes("greedy") ? "greedy" : bots[0];
  const level = $("create-level").value;
  list.textContent = "";
  for (let i = 0; i < n; i++) {
    const sel = el("select", { id: `seat-kind-${i}`, "data-seat": i, "aria-label": t("lobby.seat_n", { n: i + 1 }) });
    if (i === 0) {
      sel.append(el("option", { value: "me", text: t("create.seat_me") }));
    } else {
      sel.append(el("option", { value: "human", text: t("create.seat_human") }));
      if (level) sel.append(el("option", { value: "level", text: t("create.seat_bot", { bot: botLabel(level) }) }));
      for (const b of bots) sel.append(el("option", { value: `bot:${b}`, text: t("create.seat_bot", { bot: botLabel(b) }) }));
    }
    if (old[i]) sel.value = old[i];
    // A solo player changes nothing: every other seat is a bot of the chosen level (a friend when chosen).
    else if (i > 0) sel.value = level ? "level" : lastBot ? `bot:${lastBot}` : "human";
    list.append(el("li", {}, sel));
  }
}

export function renderRuleOptions() {
  const box = $("create-rules");
  const old = Object.fromEntries([...box.querySelectorAll("select")].map((s) => [s.name, s.value]));
  box.textContent = "";
  for (const [name, option] of Object.entries(S.options.rules)) {
    const sel = el("select", { name, id: `rule-${name}` });
    for (const v of option.values) sel.append(el("option", { value: v, text: t(`rule.${name}.${v}`) }));
    sel.value = old[name] || option.default;
    box.append(el("label", { class: "field" }, el("span", { text: t(`rule.${name}`) }), sel));
  }
}

export function renderMyTables() {
  const mine = JSON.parse(localStorage.getItem("minodice.tables") || "{}");
  const codes = Object.entries(mine).sort((a, b) => b[1].at - a[1].at).slice(0, 8);
  $("my-tables").hidden = codes.length === 0;
  const ul = $("my-tables-list");
  ul.textContent = "";
  for (const [code] of codes) {
    ul.append(el("li", {}, el("a", { href: api.invitePath(code), text: t("home.table_code", { code }) })));
  }
}

export async function onCreate(ev) {
  ev.preventDefault();
  const name = $("create-name").value.trim();
  if (!name) return $("create-name").focus();
  const n = Number($("create-seats").value);
  const seats = [];
  for (let i = 0; i < n; i++) {
    const v = $(`seat-kind-${i}`).value;
    if (v === "level") seats.push({ bot: $("create-level").value });
    else seats.push(v.startsWith("bot:") ? { bot: v.slice(4) } : { human: true });
  }
  const rules = Object.fromEntries([...$("create-rules").querySelectorAll("select")].map((s) => [s.name, s.value]));
  try {
    const res = await api.createTable({
      name, seats, rules, hints: $("create-hints").checked, clock: $("create-clock")?.value, level: $("create-level").value,
    });
    saveToken(res.code, res.token, res.seat);
    if (res.hostToken) setCookie(`mdh_${res.code}`, res.hostToken);
    history.pushState({}, "", api.invitePath(res.code));
    await enterTable(res.code, res.token);
  } catch (err) {
    if (!nameRefused($("create-name"), err)) showError(err);
  }
}

// "Play now": one click to a started game, you and bots of the medium level (GET /api/options
// `levels`), under the name typed in the create form if any.
export async function onPlayNow() {
  const levels = levelNames();
  const level = levels.includes("medium") ? "medium" : levels[0];
  const name = $("create-name").value.trim() || t("play.default_name");
  const seats = [{ human: true }, ...Array.from({ length: 3 }, () => (level ? { bot: level } : { bot: botNames()[0] }))];
  $("play-now-btn").disabled = true;
  try {
    const res = await api.createTable({ name, seats, rules: {}, hints: true, level });
    saveToken(res.code, res.token, res.seat);
    if (res.hostToken) setCookie(`mdh_${res.code}`, res.hostToken);
    await api.startTable(res.code, res.hostToken);
    history.pushState({}, "", api.invitePath(res.code));
    await enterTable(res.code, res.token);
  } catch (err) {
    showError(err);
  } finally {
    $("play-now-btn").disabled = false;
  }
}

export function onJoinCode(ev) {
  ev.preventDefault();
  const code = $("join-code").value.trim().toUpperCase();
  if (!code) return;
  history.pushState({}, "", api.invitePath(code));
  enterTable(code, loadToken(code));
}

// --- home: finished games (GET /api/games), each with its record to download ----------------

const GAMES_PAGE = 20;
const past = { games: [], more: false, failed: false, loaded: false, loading: false };

export async function loadPastGames(append = false) {
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

// A finished game's seat name: a bot under the name the server gave it ("Greedy 3", `auto_names`) in the
// page's language, as the game says it.
function pastName(g, i) {
  const bot = g.bots?.[i];
  if (g.auto_names?.[i] === true && typeof bot === "string" && bot) return botSeatName(bot, i);
  return g.names?.[i] || t("lobby.seat_n", { n: i + 1 });
}

// One finished game's players, best place first (places as the server sent them).
function pastPlayers(g) {
  const names = g.names || [];
  const totals = g.totals || [];
  const places = g.places || [];
  const order = names.map((_, i) => i).sort((a, b) => (places[a] ?? 99) - (places[b] ?? 99) || a - b);
  const players = el("ol", { class: "past-players" });
  for (const i of order) {
    const won = places[i] === 1;
    // The name isolated: "#1 ليلى حسن: 320 pts" keeps its place, name and points in that order.
    const text = tn("home.player_score", {
      place: t("podium.place", { n: places[i] ?? i + 1 }),
      name: bdi(pastName(g, i), "name"),
      points: t("game.points", { n: totals[i] ?? 0 }),
    });
    players.append(
      el(
        "li",
        { class: won ? "winner" : null, "data-seat": i },
        el("span", {}, text),
        won ? el("span", { class: "badge win", text: t("home.winner") }) : null,
      ),
    );
  }
  return players;
}

export function renderPastGames() {
  const ol = $("past-games-list");
  ol.textContent = "";
  for (const g of past.games) {
    const date = formatDate(g.finished);
    const head = el(
      "div",
      { class: "past-head" },
      el("time", { datetime: g.finished || null, text: date }),
      el("span", { class: "past-code", text: t("home.table_code", { code: g.code }) }),
    );
    const link = el("a", {
      class: "button small download",
      href: api.recordUrl(g.code),
      download: `minodice-${g.code}.json`,
      "aria-label": t("home.download_label", { code: g.code, date }),
      text: t("home.download"),
    });
    const review = el("a", {
      class: "button small review",
      href: `/replay.html#table=${encodeURIComponent(g.code)}`,
      "aria-label": t("replay.review_label", { code: g.code, date }),
      text: t("replay.review_link"),
    });
    const links = el("div", { class: "actions past-links" }, link, review);
    ol.append(el("li", { class: "past-game", "data-code": g.code }, head, pastPlayers(g), links));
  }
  $("past-games-empty").hidden = !past.loaded || past.failed || past.games.length > 0;
  $("past-games-failed").hidden = !past.failed;
  $("past-games-more").hidden = past.failed || !past.more;
}

export function goHome() {
  S.code = null;
  S.table = null;
  if (S.conn) S.conn.close();
  S.conn = null;
  show("home");
  renderHome();
  loadPastGames();
}

export function renderHome() {
  renderSeatCount();
  renderLevels();
  renderClockChoice();
  renderCreateSeats();
  renderRuleOptions();
  renderMyTables();
  renderPastGames();
  nameField($("create-name"));
}

// --- a table's lobby ------------------------------------------------------------------------

export async function onJoinSeat(ev) {
  ev.preventDefault();
  const name = $("join-name").value.trim();
  if (!name) return $("join-name").focus();
  try {
    const res = await api.joinTable(S.code, name);
    saveToken(S.code, res.token, res.seat);
    showInviteUrl(S.code);
    await enterTable(S.code, res.token);
  } catch (err) {
    if (!nameRefused($("join-name"), err)) showError(err);
  }
}

export async function giveToBot(seat, bot) {
  try {
    applyTable(await api.handToBot(S.code, seat, bot, hostToken()));
    route();
  } catch (err) {
    showError(err);
  }
}

function seatItem(s, i) {
  const tb = S.table;
  const li = el("li", { class: i === S.seat ? "me" : "" }, el("span", { class: "seat-no", text: t("lobby.seat_n", { n: i + 1 }) }));
  if (s.bot) {
    li.append(bdi(plainName(i), "name"), el("span", { class: "badge", text: t("lobby.bot", { bot: botLabel(s.bot) }) }));
  } else if (s.taken) {
    li.append(i === S.seat ? el("span", {}, tn("you_name", { name: bdi(s.name, "name") })) : bdi(s.name, "name"));
    if (i === tb.host) li.append(el("span", { class: "badge", text: t("lobby.host") }));
    if (s.connected === false) li.append(el("span", { class: "badge off", text: t("lobby.away") }));
  } else {
    li.append(el("span", { class: "empty", text: t("lobby.open_seat") }));
    if (amHost()) {
      const sel = el("select", { "aria-label": t("lobby.bot_for_seat", { n: i + 1 }) });
      for (const b of [...botNames(), ...levelNames()]) sel.append(el("option", { value: b, text: botLabel(b) }));
      const give = el("button", { type: "button", class: "small", text: t("lobby.give_to_bot"), onclick: () => giveToBot(i, sel.value) });
      li.append(el("div", { class: "give-bot" }, sel, give));
    }
  }
  return li;
}

export function renderLobby() {
  const tb = S.table;
  $("lobby-code").textContent = tb.code;
  nameField($("join-name"));
  $("invite-link").value = inviteLink(tb.code);
  $("personal").hidden = !S.token;
  if (S.token) $("personal-link").value = personalLink(tb.code, S.token);
  const ol = $("lobby-seats");
  ol.textContent = "";
  tb.seats.forEach((s, i) => ol.append(seatItem(s, i)));
  const free = tb.seats.filter((s) => !s.bot && !s.taken).length;
  $("join-form").hidden = S.seat !== null || free === 0;
  const isHost = amHost();
  $("start-btn").hidden = !isHost;
  $("start-btn").disabled = free > 0;
  let status;
  if (free > 0) status = t("lobby.waiting_players", { n: free });
  else if (isHost) status = t("lobby.ready_host");
  else status = tn("lobby.ready_wait", { name: bdi(tb.seats[tb.host]?.name || "") });
  if (S.seat === null && free === 0) status = t("lobby.full");
  const box = $("lobby-status");
  if (box.textContent !== (typeof status === "string" ? status : status.textContent)) box.replaceChildren(status);
}

export async function onStart() {
  try {
    $("start-btn").disabled = true;
    applyTable(await api.startTable(S.code, hostToken()));
    route();
  } catch (err) {
    $("start-btn").disabled = false;
    showError(err);
  }
}
