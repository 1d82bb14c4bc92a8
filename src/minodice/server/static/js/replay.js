// The replay page (replay.html): a finished game played back step by step, from the server
// (replay.html#table=CODE → GET /api/tables/{CODE}/record) or from a `minodice/1` file chosen or
// dropped onto the page. A step is a deal, the bids (revealed together), each roll, each trick's
// winner and each hand's scores. The page shows every seat's dice (a finished game hides nothing)
// or one seat's view (the others' unrolled dice hidden). With a `minodice-analysis/1` document
// attached (a file, or GET /api/tables/{CODE}/analysis), each decision of an analysed seat shows
// the choice made, the best choice, the expected hand score of each and the loss with its label,
// and a graph of expected score over the game marks the mistakes and blunders.
// Opened bare, it lists this server's finished games (GET /api/games) to pick from, a saved file
// being the second way in. Words are a player's: the judge is named by its level ("checked by the
// Expert bot", the server's `judge`), a loss is "cost you about 6 points", luck is luck; bots are
// named in the page's language as in the game.
// The page holds no rule: what it shows is in the record (winners and scores are its derived
// fields) and in the analysis.
import { listGames } from "./api.js";
import { bdi, isolateIn, tn } from "./bidi.js";
import { blankDieSVG, dieInfo, dieName, dieSVG, faceName, setDiceTable } from "./dice.js";
import { $, el, flashError as showError } from "./dom.js";
import { currentLanguage, formatDate, formatNumber, onLanguage, pickLanguage, setLanguage, t, translateTree } from "./i18n.js";
import { botSeatName, botShort } from "./state.js";

const RECORD = "minodice/1";
const ANALYSIS = "minodice-analysis/1";
const LABELS = ["forced", "fine", "inaccuracy", "mistake", "blunder"];
const MARKED = new Set(["mistake", "blunder"]);

const R = {
  record: null, // the minodice/1 record played back
  source: null, // {table: CODE} or {file: NAME}
  steps: [], // [{kind: deal|bids|roll|won|scores, hand, trick?, roll?}] (0-based indices)
  at: 0, // the step shown
  view: "all", // "all" or a seat index (as a string): that seat's view
  analysis: null, // the minodice-analysis/1 document attached
  decisions: new Map(), // step index → [decision (with .seat)]
  analysisBusy: false,
  analysisMissing: false, // the server has no analysis of this game (404)
  levels: [], // the server's levels (GET /api/options): [{name, bot}]
  games: null, // this server's finished games (GET /api/games), once asked
};

// --- small helpers -------------------------------------------------------------------------------

const n = () => R.record.seats.length;
// A seat's name as the record has it (what an analysis names), and as the page says it: a bot under
// the name the server gave it ("Greedy 3", `auto_name`) in the page's language, as the game says it.
const recordName = (i) => String(R.record.seats[i]?.name ?? t("lobby.seat_n", { n: i + 1 }));
function seatName(i) {
  const s = R.record.seats[i];
  if (s?.auto_name === true && typeof s.bot === "string") return botSeatName(s.bot, i);
  return recordName(i);
}
// The seat this browser played at the table shown (kept by the game page), or null.
function mySeat() {
  const code = R.source?.table;
  if (!code) return null;
  try {
    const seat = JSON.parse(localStorage.getItem("minodice.tables") || "{}")[code]?.seat;
    return isInt(seat) && seat >= 0 && seat < n() ? seat : null;
  } catch {
    return null;
  }
}
// A sentence with the players' names in it, each isolated (<bdi>: a right-to-left name keeps its place).
const withNames = (text) => isolateIn(text, R.record.seats.map((_, i) => seatName(i)));
const isInt = (x) => Number.isInteger(x);

function signed(x) {
  return x > 0 ? `+${x}` : String(x);
}

const fmt = (x, digits = 1) => formatNumber(x, digits);


function refuse(id, text) {
  const box = $(id);
  box.textContent = text || "";
  box.hidden = !text;
}

/** JSON, tolerating the bare NaN / Infinity Python's json writes for undefined figures (→ null). */
function parseJSON(text) {
  try {
    return JSON.parse(text);
  } catch (err) {
    if (!/\b(NaN|Infinity)\b/.test(text)) throw err;
    return JSON.parse(text.replace(/-?\bInfinity\b|\bNaN\b/g, "null"));
  }
}

// --- checking a record ---------------------------------------------------------------------------

/** Why `rec` cannot be played back (a translated sentence), or null when it can. */
function recordFault(rec) {
  if (!rec || typeof rec !== "object" || Array.isArray(rec)) return t("replay.bad_file");
  if (rec.format === ANALYSIS) return t("replay.analysis_first");
  if (rec.format !== RECORD) return t("replay.bad_format");
  const seats = rec.seats;
  if (!Array.isArray(seats) || seats.length < 3 || seats.length > 6) return t("replay.bad_record");
  if (!seats.every((s) => s && typeof s === "object" && typeof s.name === "string")) return t("replay.bad_record");
  if (!Array.isArray(rec.hands) || rec.hands.length === 0) return t("replay.bad_record");
  const k = seats.length;
  // A die the server's dice table knows (any name when the table could not be loaded); null: hidden.
  const known = (die) => die === null || (typeof die === "string" && (Boolean(dieInfo(die)) || !anyDice()));
  for (const [hi, h] of rec.hands.entries()) {
    const bad = t("replay.bad_hand", { hand: hi + 1 });
    if (!h || typeof h !== "object") return bad;
    if (!isInt(h.start) || h.start < 0 || h.start >= k) return bad;
    if (!Array.isArray(h.dice) || h.dice.length !== k) return bad;
    if (!h.dice.every((row) => Array.isArray(row) && row.every(known))) return bad;
    if (h.bids != null && (!Array.isArray(h.bids) || h.bids.some((b) => b !== null && !isInt(b)))) return bad;
    if (h.tricks != null && !Array.isArray(h.tricks)) return bad;
    for (const tr of h.tricks || []) {
      if (!tr || !Array.isArray(tr.rolls) || tr.rolls.length > k) return bad;
      for (const r of tr.rolls) {
        if (!r || !isInt(r.seat) || r.seat < 0 || r.seat >= k || typeof r.die !== "string" || !known(r.die)) return bad;
        const faces = dieInfo(r.die)?.faces;
        if (typeof r.face !== "string" || (faces && !faces.includes(r.face))) return bad;
      }
      if (tr.winner != null && (!isInt(tr.winner) || tr.winner < 0 || tr.winner >= k)) return bad;
    }
    if (h.scores != null && (!Array.isArray(h.scores) || h.scores.length !== k || !h.scores.every(isInt))) return bad;
  }
  return null;
}

function anyDice() {
  return Boolean(dieInfo("red"));
}

// --- the steps -----------------------------------------------------------------------------------

function buildSteps(rec) {
  const steps = [];
  rec.hands.forEach((h, hand) => {
    steps.push({ kind: "deal", hand });
    const bids = h.bids || [];
    if (bids.length !== rec.seats.length || !bids.every(isInt)) return;
    steps.push({ kind: "bids", hand });
    (h.tricks || []).forEach((tr, trick) => {
      tr.rolls.forEach((_, roll) => steps.push({ kind: "roll", hand, trick, roll }));
      if (isInt(tr.winner)) steps.push({ kind: "won", hand, trick });
    });
    if (Array.isArray(h.scores)) steps.push({ kind: "scores", hand });
  });
  return steps;
}

/** The table at step k: per seat {held: [die|null], bid, won, score}, the trick shown and its winner. */
function stateAt(k) {
  const st = R.steps[k];
  const h = R.record.hands[st.hand];
  const seats = n();
  const tricks = h.tricks || [];
  // The tricks over by this step (their winners count) and the rolls made in this hand so far.
  let over; // number of tricks finished
  let shown = null; // index of the trick on show
  let rollsInShown = 0;
  if (st.kind === "deal" || st.kind === "bids") {
    over = 0;
  } else if (st.kind === "roll") {
    over = st.trick;
    shown = st.trick;
    rollsInShown = st.roll + 1;
  } else if (st.kind === "won") {
    over = st.trick + 1;
    shown = st.trick;
    rollsInShown = tricks[st.trick].rolls.length;
  } else {
    over = tricks.length;
    shown = tricks.length ? tricks.length - 1 : null;
    rollsInShown = shown === null ? 0 : tricks[shown].rolls.length;
  }
  const rolled = [];
  for (let ti = 0; ti < tricks.length; ti++) {
    const count = ti < over ? tricks[ti].rolls.length : ti === shown ? rollsInShown : 0;
    rolled.push(...tricks[ti].rolls.slice(0, count));
  }
  const seat = [];
  for (let s = 0; s < seats; s++) {
    const held = [...(h.dice[s] || [])];
    for (const r of rolled) {
      if (r.seat !== s) continue;
      const i = held.indexOf(r.die);
      held.splice(i >= 0 ? i : held.indexOf(null), 1);
    }
    let score = 0;
    for (let hi = 0; hi < st.hand; hi++) score += R.record.hands[hi].scores?.[s] ?? 0;
    if (st.kind === "scores") score += h.scores[s];
    const won = tricks.slice(0, over).filter((tr) => tr.winner === s).length;
    seat.push({ held, bid: st.kind === "deal" ? null : h.bids[s], won, score, gained: st.kind === "scores" ? h.scores[s] : null });
  }
  const trick = shown === null ? null : tricks[shown];
  const winner = trick && shown < over && isInt(trick.winner) ? trick.winner : null;
  return { st, h, seat, trick, shown, rolls: trick ? trick.rolls.slice(0, rollsInShown) : [], winner };
}

// --- words for a step ----------------------------------------------------------------------------

function winningFace(trick) {
  return trick.rolls.find((r) => r.seat === trick.winner)?.face;
}

function stepText(k) {
  const st = R.steps[k];
  const h = R.record.hands[st.hand];
  const hand = st.hand + 1;
  const hands = R.record.hands.length;
  switch (st.kind) {
    case "deal":
      return t("replay.step_deal", { hand, hands, n: hand, name: seatName(h.start) });
    case "bids":
      return t("replay.step_bids", {
        hand, list: h.bids.map((b, i) => t("game.name_bid", { name: seatName(i), bid: b })).join(" · "),
      });
    case "roll": {
      const r = h.tricks[st.trick].rolls[st.roll];
      return t("replay.step_roll", {
        hand, trick: st.trick + 1, name: seatName(r.seat), die: dieName(r.die), face: faceName(r.face),
      });
    }
    case "won": {
      const tr = h.tricks[st.trick];
      return t("replay.step_won", { hand, trick: st.trick + 1, name: seatName(tr.winner), face: faceName(winningFace(tr)) });
    }
    default:
      return t("replay.step_scores", {
        hand, list: h.scores.map((s, i) => t("game.name_bid", { name: seatName(i), bid: signed(s) })).join(" · "),
      });
  }
}

// --- navigation ----------------------------------------------------------------------------------

function last() {
  return R.steps.length - 1;
}

/** The steps that end a trick: its winner, or its last roll when the record has no winner. */
function trickEnds() {
  const out = [];
  R.steps.forEach((st, i) => {
    const next = R.steps[i + 1];
    if (st.kind === "won") out.push(i);
    else if (st.kind === "roll" && !(next && next.hand === st.hand && next.trick === st.trick)) out.push(i);
  });
  return out;
}

function handStarts() {
  return R.steps.flatMap((st, i) => (st.kind === "deal" ? [i] : []));
}

const after = (list) => list.find((i) => i > R.at) ?? last();
const before = (list) => [...list].reverse().find((i) => i < R.at) ?? 0;

function go(k) {
  if (!R.record) return;
  const to = Math.max(0, Math.min(last(), k));
  R.at = to;
  render();
}

const NAV = {
  "first-step": () => 0,
  "prev-hand": () => before(handStarts()),
  "prev-trick": () => before(trickEnds()),
  "prev-step": () => R.at - 1,
  "next-step": () => R.at + 1,
  "next-trick": () => after(trickEnds()),
  "next-hand": () => after(handStarts()),
  "last-step": () => last(),
};

function onKey(ev) {
  if (!R.record || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const tgt = ev.target;
  const tag = tgt?.tagName;
  if (tag === "SELECT" || tag === "TEXTAREA" || (tag === "INPUT" && tgt.type !== "range")) return;
  let to;
  switch (ev.key) {
    case "ArrowRight":
      to = ev.shiftKey ? NAV["next-hand"]() : R.at + 1;
      break;
    case "ArrowLeft":
      to = ev.shiftKey ? NAV["prev-hand"]() : R.at - 1;
      break;
    case "ArrowDown":
      to = NAV["next-hand"]();
      break;
    case "ArrowUp":
      to = NAV["prev-hand"]();
      break;
    case "Home":
      to = 0;
      break;
    case "End":
      to = last();
      break;
    default:
      return;
  }
  ev.preventDefault();
  go(to);
}

// --- drawing the table ---------------------------------------------------------------------------

function heldDice(s, held, hidden) {
  const box = el("div", { class: "held" });
  if (!held.length) {
    box.append(el("span", { class: "status", text: t("game.no_dice") }));
    return box;
  }
  const label = t("replay.dice_held", { name: seatName(s) });
  const ul = el("ul", { class: "held-dice", "aria-label": label });
  for (const die of held) {
    const li = el("li");
    li.innerHTML = hidden || die === null ? blankDieSVG(t("replay.hidden_die")) : dieSVG(die, null);
    ul.append(li);
  }
  box.append(ul);
  return box;
}

function renderSeats(state) {
  const ol = $("seats");
  ol.textContent = "";
  const viewer = R.view === "all" ? null : Number(R.view);
  const acted = state.st.kind === "roll" ? state.rolls[state.rolls.length - 1]?.seat : null;
  state.seat.forEach((s, i) => {
    const hidden = viewer !== null && viewer !== i;
    const bid = s.bid === null || s.bid === undefined
      ? t("replay.not_bid_yet")
      : t("sheet.bid_won", { bid: s.bid, won: s.won });
    const cls = ["replay-seat"];
    if (i === state.winner) cls.push("won-trick");
    if (i === acted) cls.push("acted");
    if (i === viewer) cls.push("viewer");
    const marks = el("div", { class: "marks" });
    if (i === state.h.start && state.st.kind === "deal") marks.append(el("span", { class: "badge", text: t("game.leads_mark") }));
    if (i === state.winner) marks.append(el("span", { class: "badge win", text: t("replay.won_mark") }));
    ol.append(
      el(
        "li",
        { class: cls.join(" "), "data-seat": i },
        el("div", { class: "seat-head" },
          el("span", { class: "pname", text: seatName(i) }),
          el("span", { class: "ptotal", text: t("game.points", { n: s.score }) })),
        el("div", { class: "pbid", text: bid }),
        s.gained === null ? null : el("div", { class: `gained${s.gained < 0 ? " neg" : ""}`, text: t("replay.hand_points", { points: signed(s.gained) }) }),
        marks.childNodes.length ? marks : null,
        heldDice(i, s.held, hidden),
      ),
    );
  });
}

function renderTrick(state) {
  const ol = $("trick");
  ol.textContent = "";
  const st = state.st;
  if (!state.trick) {
    $("trick-h").textContent = t("replay.no_trick");
    $("trick-note").textContent = st.kind === "deal" ? t("replay.note_deal") : t("replay.note_bids");
    return;
  }
  $("trick-h").textContent = t("replay.trick_title", { hand: st.hand + 1, trick: state.shown + 1, of: state.h.tricks.length });
  const rolls = state.rolls;
  rolls.forEach((r, i) => {
    const li = el("li", { class: `roll${r.seat === state.winner ? " winner" : ""}${st.kind === "roll" && i === rolls.length - 1 ? " latest" : ""}` });
    const die = el("div", { class: "die-box" });
    die.innerHTML = dieSVG(r.die, r.face);
    li.append(die, el("span", { class: "who", text: seatName(r.seat) }));
    if (r.seat === state.winner) li.append(el("span", { class: "badge win", text: t("replay.won_mark") }));
    ol.append(li);
  });
  // The seats still to roll in this trick, in order from the leader.
  const lead = rolls[0]?.seat ?? 0;
  for (let i = rolls.length; i < n(); i++) {
    const s = (lead + i) % n();
    const li = el("li", { class: "roll pending" });
    const die = el("div", { class: "die-box" });
    die.innerHTML = blankDieSVG(t("replay.to_roll", { name: seatName(s) }));
    li.append(die, el("span", { class: "who", text: seatName(s) }));
    ol.append(li);
  }
  $("trick-note").textContent = "";
}

function render() {
  if (!R.record) return;
  const k = R.at;
  const state = stateAt(k);
  const text = stepText(k);
  const slider = $("step-slider");
  slider.max = String(last());
  slider.value = String(k);
  slider.setAttribute("aria-valuetext", t("replay.step_of", { n: k + 1, of: R.steps.length }) + ": " + text);
  $("step-count").textContent = t("replay.step_of", { n: k + 1, of: R.steps.length });
  $("step-line").replaceChildren(withNames(text));
  for (const id of ["first-step", "prev-hand", "prev-trick", "prev-step"]) $(id).disabled = k === 0;
  for (const id of ["next-step", "next-trick", "next-hand", "last-step"]) $(id).disabled = k === last();
  renderTrick(state);
  renderSeats(state);
  renderDecisions();
  renderGraphs();
}

function renderViewSelect() {
  const sel = $("view-select");
  const old = R.view;
  sel.textContent = "";
  sel.append(el("option", { value: "all", text: t("replay.view_all") }));
  for (let i = 0; i < n(); i++) sel.append(el("option", { value: String(i), text: t("replay.view_seat", { name: seatName(i) }) }));
  sel.value = old;
  if (sel.value !== old) R.view = sel.value = "all";
}

function renderSource() {
  const src = R.source;
  const hands = R.record.hands.length;
  const players = n();
  $("replay-source").textContent = src?.table
    ? t("replay.source_table", { code: src.table, hands, players })
    : t("replay.source_file", { file: src?.file || "", hands, players });
  const dl = $("download-record");
  dl.hidden = !src?.table;
  if (src?.table) {
    dl.href = `/api/tables/${encodeURIComponent(src.table)}/record`;
    dl.setAttribute("download", `minodice-${src.table}.json`);
  }
  $("analysis-fetch").hidden = !src?.table || R.analysisMissing === true;
}

// --- loading -------------------------------------------------------------------------------------

function useRecord(rec, source) {
  R.record = rec;
  R.source = source;
  R.steps = buildSteps(rec);
  R.at = 0;
  R.view = "all";
  R.analysis = null;
  R.analysisMissing = false;
  R.decisions = new Map();
  refuse("analysis-error", "");
  $("replay").hidden = false;
  $("open").hidden = true; // on the game: the list of games is one link away ("Other games")
  $("loading").hidden = true;
  renderViewSelect();
  renderSource();
  renderAnalysisAbout();
  render();
}

async function loadTable(code) {
  $("loading").hidden = false;
  const failed = await tableFault(code);
  if (failed === null) return;
  refuse("file-error", failed);
  showGames();
}

// The record of table `code` played back: null; else why not, in words.
async function tableFault(code) {
  let res;
  try {
    res = await fetch(`/api/tables/${encodeURIComponent(code)}/record`);
  } catch {
    $("loading").hidden = true;
    return t("error.network");
  }
  $("loading").hidden = true;
  if (res.status === 404) return t("replay.no_table", { code });
  if (res.status === 403 || res.status === 409) return t("replay.not_over", { code });
  if (!res.ok) return t("error.generic");
  let rec;
  try {
    rec = parseJSON(await res.text());
  } catch {
    return t("error.generic");
  }
  const fault = recordFault(rec);
  if (fault) return fault;
  refuse("file-error", "");
  useRecord(rec, { table: code });
  return null;
}

// --- picking a game: this server's finished games ------------------------------------------------

const GAMES = 50;

/** Show the list of finished games (asked of the server once). */
async function showGames() {
  $("open").hidden = false;
  if (R.games === null) {
    $("open").setAttribute("aria-busy", "true");
    try {
      R.games = await listGames(GAMES, 0);
    } catch {
      R.games = false;
    }
    $("open").setAttribute("aria-busy", "false");
  }
  renderGames();
}

// One line a game: when it ended (the link to it) and its players with their points, best first.
function renderGames() {
  const ol = $("games-list");
  ol.textContent = "";
  const games = R.games || [];
  $("games-failed").hidden = R.games !== false;
  $("games-empty").hidden = R.games === false || R.games === null || games.length > 0;
  for (const g of games) {
    const names = g.names || [];
    const order = names.map((_, i) => i).sort((a, b) => (g.places?.[a] ?? 99) - (g.places?.[b] ?? 99) || a - b);
    const players = el("span", { class: "game-players" });
    order.forEach((i, k) => {
      if (k) players.append(", ");
      players.append(tn("home.player_score", {
        place: t("podium.place", { n: g.places?.[i] ?? i + 1 }),
        name: bdi(names[i] || t("lobby.seat_n", { n: i + 1 }), "name"),
        points: t("game.points", { n: g.totals?.[i] ?? 0 }),
      }));
    });
    const date = formatDate(g.finished);
    ol.append(el("li", { class: "replay-game", "data-code": g.code },
      el("a", { href: `#table=${encodeURIComponent(g.code)}`, "aria-label": t("replay.review_label", { code: g.code, date }) }, date),
      " ", players));
  }
}

/** A file chosen or dropped: a record to play back, or an analysis of the record shown. */
async function openFile(file) {
  if (!file) return;
  let doc;
  try {
    doc = parseJSON(await file.text());
  } catch {
    return refuse("file-error", t("replay.bad_json", { file: file.name }));
  }
  if (doc && doc.format === ANALYSIS) {
    if (!R.record) return refuse("file-error", t("replay.analysis_first"));
    refuse("file-error", "");
    return attachAnalysis(doc);
  }
  const fault = recordFault(doc);
  if (fault) return refuse("file-error", `${t("replay.bad_named", { file: file.name })} ${fault}`);
  refuse("file-error", "");
  if (R.source?.table) history.replaceState(null, "", location.pathname + location.search);
  useRecord(doc, { file: file.name });
}

function readHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  return (params.get("table") || "").trim().toUpperCase();
}

// --- the analysis --------------------------------------------------------------------------------

function analysisFault(doc) {
  if (!doc || doc.format !== ANALYSIS || !Array.isArray(doc.seats)) return t("replay.analysis_bad");
  for (const s of doc.seats) {
    if (!s || !isInt(s.seat) || s.seat < 0 || s.seat >= n() || !Array.isArray(s.decisions)) return t("replay.analysis_bad");
    if (typeof s.name === "string" && s.name !== recordName(s.seat)) return t("replay.analysis_mismatch");
    for (const d of s.decisions) {
      if (!d || !isInt(d.hand) || d.hand < 1 || d.hand > R.record.hands.length) return t("replay.analysis_mismatch");
    }
  }
  return null;
}

function attachAnalysis(doc) {
  const fault = analysisFault(doc);
  if (fault) return refuse("analysis-error", fault);
  refuse("analysis-error", "");
  const index = new Map();
  R.steps.forEach((st, i) => {
    if (st.kind === "bids") index.set(`${st.hand + 1}:bid`, i);
    if (st.kind === "roll") index.set(`${st.hand + 1}:${st.trick + 1}:${st.roll + 1}`, i);
  });
  R.decisions = new Map();
  for (const s of doc.seats) {
    for (const d of s.decisions) {
      const key = d.trick === null || d.trick === undefined ? `${d.hand}:bid` : `${d.hand}:${d.trick}:${d.roll}`;
      const at = index.get(key);
      if (at === undefined) continue;
      d.seat = s.seat;
      d.step = at;
      if (!R.decisions.has(at)) R.decisions.set(at, []);
      R.decisions.get(at).push(d);
    }
  }
  R.analysis = doc;
  renderAnalysisAbout();
  render();
}

async function fetchAnalysis() {
  const code = R.source?.table;
  if (!code || R.analysisBusy) return;
  const btn = $("analysis-fetch");
  R.analysisBusy = true;
  btn.disabled = true;
  $("analysis").setAttribute("aria-busy", "true");
  refuse("analysis-error", "");
  $("analysis-about").hidden = false;
  $("analysis-about").textContent = t("replay.analysis_working");
  try {
    const res = await fetch(`/api/tables/${encodeURIComponent(code)}/analysis`);
    if (res.status === 404) {
      R.analysisMissing = true;
      btn.hidden = true;
      refuse("analysis-error", t("replay.analysis_unavailable"));
    } else if (!res.ok) {
      refuse("analysis-error", t("error.generic"));
    } else {
      attachAnalysis(parseJSON(await res.text()));
    }
  } catch {
    refuse("analysis-error", t("error.network"));
  } finally {
    R.analysisBusy = false;
    btn.disabled = false;
    $("analysis").setAttribute("aria-busy", "false");
    renderAnalysisAbout();
  }
}

function renderAnalysisAbout() {
  const doc = R.analysis;
  $("analysis-none").hidden = Boolean(doc);
  const about = $("analysis-about");
  if (!doc) {
    if (!R.analysisBusy) about.hidden = true;
    $("decisions").textContent = "";
    $("graphs").textContent = "";
    return;
  }
  about.hidden = false;
  const t0 = doc.thresholds || {};
  about.textContent = `${judgeText(doc)} ${t("replay.thresholds", {
    inaccuracy: fmt(t0.inaccuracy ?? 2, 0), mistake: fmt(t0.mistake ?? 5, 0), blunder: fmt(t0.blunder ?? 10, 0),
  })}`;
}

// Who checked the choices, never as a raw spec: the level whose bot it is (the server's `judge`, or for
// a file a level whose spec the server lists in GET /api/options), else the built-in bot by its name.
function judgeText(doc) {
  const spec = typeof doc.bot === "string" ? doc.bot : "";
  const level = doc.judge?.level ?? R.levels.find((lv) => lv.bot === spec)?.name;
  if (typeof level === "string" && level) return t("replay.judge_level", { level: t(`level.${level}`) });
  const bot = doc.judge?.bot ?? (/^[a-z][a-z+]*(?=:|$)/.exec(spec)?.[0] || null);
  return typeof bot === "string" && bot ? t("replay.judge_bot", { bot: botShort(bot) }) : t("replay.judge_any");
}

function choiceText(kind, choice) {
  if (choice === null || choice === undefined) return "—";
  return kind === "bid" ? t("replay.choice_bid", { n: choice }) : dieName(String(choice));
}

// Points in words, rounded: "about 7 points expected in this hand".
function expect(mean) {
  if (typeof mean !== "number" || !Number.isFinite(mean)) return "";
  const k = Math.round(mean);
  return t("replay.expect", { n: k === 0 ? 0 : k });
}

// What a choice cost, rounded, the sign in words: "This choice cost you about 6 points." (the
// reader's own seat), "… cost Ana about 6 points."; nothing lost: "The best choice, or as good as it."
function costNode(seat, loss) {
  const k = Math.round(Math.max(0, Number(loss) || 0));
  if (k === 0) return document.createTextNode(t("replay.cost_nothing"));
  const cost = seat === mySeat() ? t("replay.cost_you", { n: k }) : tn("replay.cost", { n: k, name: bdi(seatName(seat), "name") });
  return tn("replay.cost_line", { cost: cost instanceof Node ? cost : document.createTextNode(cost) });
}

// The dice's luck over the finished hands (`split.faces`), as luck: kind, unlucky or even.
function luckText(faces) {
  if (typeof faces !== "number" || !Number.isFinite(faces)) return "";
  const k = Math.round(faces);
  if (k > 0) return t("replay.luck_good", { n: k });
  if (k < 0) return t("replay.luck_bad", { n: -k });
  return t("replay.luck_even");
}

function decisionCard(d) {
  const label = LABELS.includes(d.label) ? d.label : "fine";
  const card = el("article", { class: `decision label-${label}`, "data-seat": d.seat });
  const head = d.kind === "bid" ? t("replay.decision_bid", { name: seatName(d.seat) }) : t("replay.decision_roll", { name: seatName(d.seat) });
  card.append(el("h4", {}, el("span", {}, withNames(head)), el("span", { class: `label label-${label}`, text: t(`replay.label.${label}`) })));
  if (label === "forced") {
    card.append(el("p", { text: t("replay.forced_note", { choice: choiceText(d.kind, d.made) }) }));
    return card;
  }
  const dl = el("dl", { class: "decision-figures" });
  const row = (term, ...value) => dl.append(el("dt", { text: term }), el("dd", {}, ...value));
  row(t("replay.made"), el("strong", { text: choiceText(d.kind, d.made) }), " ", el("span", { class: "est", text: expect(d.made_mean) }));
  row(t("replay.best"), el("strong", { text: choiceText(d.kind, d.best) }), " ", el("span", { class: "est", text: expect(d.best_mean) }));
  card.append(dl, el("p", { class: "loss", "data-loss": d.loss }, costNode(d.seat, d.loss)));
  if (Array.isArray(d.alternatives) && d.alternatives.length > 2) {
    const details = el("details", { class: "alternatives" }, el("summary", { text: t("replay.alternatives") }));
    const ul = el("ul");
    for (const a of [...d.alternatives].sort((x, y) => (y.mean ?? -1e9) - (x.mean ?? -1e9))) {
      ul.append(el("li", { text: `${choiceText(d.kind, a.choice)}: ${expect(a.mean)}` }));
    }
    details.append(ul);
    card.append(details);
  }
  return card;
}

function renderDecisions() {
  const box = $("decisions");
  box.textContent = "";
  if (!R.analysis) return;
  const here = R.decisions.get(R.at) || [];
  if (!here.length) {
    box.append(el("p", { class: "status", text: t("replay.no_decision") }));
    return;
  }
  for (const d of here) box.append(decisionCard(d));
}

// The graph: per analysed seat, the expected score of the game at each of its decisions (the
// points of the hands before plus the expected hand score of the choice made), over the steps.
const SVGNS = "http://www.w3.org/2000/svg";
function svg(tag, attrs = {}, ...kids) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) e.setAttribute(k, String(v));
  for (const c of kids) if (c) e.append(c);
  return e;
}

function graphPoints(seatReview) {
  const s = seatReview.seat;
  const pts = [];
  for (const d of seatReview.decisions) {
    if (d.step === undefined || typeof d.made_mean !== "number" || !Number.isFinite(d.made_mean)) continue;
    let before = 0;
    for (let hi = 0; hi < d.hand - 1; hi++) before += R.record.hands[hi].scores?.[s] ?? 0;
    pts.push({ x: d.step, y: before + d.made_mean, d });
  }
  return pts;
}

// Marks of decisions a step or two apart would cover each other, and the one below could not be
// clicked: a mark goes to the nearest height, up or down from its point on the curve, where it
// overlaps no mark already placed (a stem joins it to the curve). Circles are drawn with a stroke
// of 2, hence the gap of 3 between their radii.
function freeY(placed, cx, cy0, r, height) {
  const clear = (cy) => cy >= r + 1 && cy <= height - r - 1 &&
    placed.every((o) => Math.hypot(o.cx - cx, o.cy - cy) >= o.r + r + 3);
  for (let k = 0; k <= 80; k++) {
    const cy = cy0 + Math.ceil(k / 2) * (k % 2 ? -1 : 1) * (r / 2 + 1);
    if (clear(cy)) return cy;
  }
  return cy0;
}

function renderGraphs() {
  const box = $("graphs");
  box.textContent = "";
  if (!R.analysis) return;
  const W = 800;
  const H = 180;
  const pad = { l: 36, r: 8, t: 10, b: 18 };
  for (const seatReview of R.analysis.seats) {
    const pts = graphPoints(seatReview);
    const fig = el("figure", { class: "graph", "data-seat": seatReview.seat });
    const counts = seatReview.counts || {};
    // The seat's choices in all, its mistakes and blunders, and its luck with the dice over the finished
    // hands (`split.faces`: an older analysis has none), each in words.
    const caption = [
      t("replay.graph_title", { name: seatName(seatReview.seat) }),
      t("replay.total_cost", { n: Math.round(Math.max(0, Number(seatReview.loss) || 0)) }),
      t("replay.count_mistakes", { n: counts.mistake ?? 0 }),
      t("replay.count_blunders", { n: counts.blunder ?? 0 }),
      luckText(seatReview.split?.faces),
    ].filter(Boolean).join(" · ");
    fig.append(el("figcaption", {}, withNames(caption)));
    if (!pts.length) {
      box.append(fig);
      continue;
    }
    const ys = pts.map((p) => p.y);
    let lo = Math.min(0, ...ys);
    let hi = Math.max(10, ...ys);
    if (hi - lo < 20) hi = lo + 20;
    const X = (x) => pad.l + (x / Math.max(1, last())) * (W - pad.l - pad.r);
    const Y = (y) => pad.t + (1 - (y - lo) / (hi - lo)) * (H - pad.t - pad.b);
    const g = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "graph-svg", role: "group", "aria-label": caption });
    // The zero line, the hands' boundaries, the axis labels.
    g.append(svg("line", { x1: pad.l, x2: W - pad.r, y1: Y(0), y2: Y(0), class: "axis" }));
    for (const i of handStarts()) g.append(svg("line", { x1: X(i), x2: X(i), y1: pad.t, y2: H - pad.b, class: "hand-line" }));
    for (const v of [lo, hi]) {
      const label = svg("text", { x: pad.l - 4, y: Y(v) + 4, class: "tick", "text-anchor": "end", "aria-hidden": "true" });
      label.textContent = String(Math.round(v));
      g.append(label);
    }
    g.append(svg("line", { x1: X(R.at), x2: X(R.at), y1: pad.t, y2: H - pad.b, class: "now" }));
    g.append(svg("polyline", { points: pts.map((p) => `${X(p.x).toFixed(1)},${Y(p.y).toFixed(1)}`).join(" "), class: "curve" }));
    // The mistakes and blunders: marks to click (links to the step).
    const placed = [];
    for (const p of pts) {
      if (!MARKED.has(p.d.label)) continue;
      const where = t("replay.mark", {
        label: t(`replay.label.${p.d.label}`), name: seatName(seatReview.seat), step: stepText(p.x), loss: Math.round(p.d.loss),
      });
      const a = svg("a", { href: `#step-${p.x}`, class: `mark label-${p.d.label}`, "aria-label": where, "data-step": p.x });
      const title = svg("title");
      title.textContent = where;
      const mark = { cx: X(p.x), r: p.d.label === "blunder" ? 7 : 5.5 };
      mark.cy = freeY(placed, mark.cx, Y(p.y), mark.r, H);
      placed.push(mark);
      if (mark.cy !== Y(p.y)) g.append(svg("line", { x1: mark.cx, x2: mark.cx, y1: Y(p.y), y2: mark.cy, class: "mark-stem" }));
      a.append(title, svg("circle", mark));
      a.addEventListener("click", (ev) => {
        ev.preventDefault();
        go(p.x);
        $("step-line").scrollIntoView({ block: "nearest" });
      });
      g.append(a);
    }
    fig.append(g);
    box.append(fig);
  }
}

// --- start ---------------------------------------------------------------------------------------

function wireDrop() {
  let depth = 0;
  const hint = $("drop-hint");
  window.addEventListener("dragenter", (ev) => {
    if (![...(ev.dataTransfer?.types || [])].includes("Files")) return;
    depth++;
    hint.hidden = false;
  });
  window.addEventListener("dragleave", () => {
    depth = Math.max(0, depth - 1);
    if (!depth) hint.hidden = true;
  });
  window.addEventListener("dragover", (ev) => ev.preventDefault());
  window.addEventListener("drop", (ev) => {
    ev.preventDefault();
    depth = 0;
    hint.hidden = true;
    openFile(ev.dataTransfer?.files?.[0]);
  });
}

async function loadOptions() {
  try {
    const res = await fetch("/api/options");
    if (res.ok) {
      const options = await res.json();
      setDiceTable(options.dice);
      R.levels = Array.isArray(options.levels) ? options.levels : [];
    }
  } catch {
    // The dice are drawn without their faces' range; a record is still checked for its shape.
  }
}

function wire() {
  $("lang-switch").addEventListener("change", (e) => setLanguage(e.target.value, { remember: true }));
  onLanguage(() => {
    translateTree(document);
    $("lang-switch").value = currentLanguage();
    if (R.games) renderGames();
    if (R.record) {
      renderViewSelect();
      renderSource();
      renderAnalysisAbout();
      render();
    }
  });
  for (const [id, to] of Object.entries(NAV)) $(id).addEventListener("click", () => go(to()));
  $("step-slider").addEventListener("input", (e) => go(Number(e.target.value)));
  $("view-select").addEventListener("change", (e) => {
    R.view = e.target.value;
    render();
  });
  $("file-input").addEventListener("change", (e) => {
    openFile(e.target.files?.[0]);
    e.target.value = "";
  });
  $("analysis-input").addEventListener("change", async (e) => {
    const file = e.target.files?.[0];
    e.target.value = "";
    if (!file) return;
    try {
      attachAnalysis(parseJSON(await file.text()));
    } catch {
      refuse("analysis-error", t("replay.analysis_bad"));
    }
  });
  $("analysis-fetch").addEventListener("click", fetchAnalysis);
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", () => {
    const code = readHash();
    if (code && code !== R.source?.table) loadTable(code);
  });
  wireDrop();
}

async function main() {
  await setLanguage(pickLanguage());
  $("lang-switch").value = currentLanguage();
  await loadOptions();
  wire();
  const code = readHash();
  if (code) await loadTable(code);
  else await showGames();
  document.body.dataset.ready = "true";
}

main().catch((err) => {
  console.error(err);
  showError(t("error.generic"));
});
