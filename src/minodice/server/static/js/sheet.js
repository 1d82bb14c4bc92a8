// The score sheet and trick referee for games played with real dice (sheet.html).
// The server checks and scores everything (/api/sheet/check, /api/trick) and sends the
// dice table and the seat limits (/api/options); this page holds no rule. It keeps the
// sheet (in localStorage, so it survives a reload), shows it, and puts every refusal,
// reason, bonus and foul in the player's language from its code ("code.<code>").
import { bdi, isolateIn, tn } from "./bidi.js";
import { codeText } from "./codes.js";
import { dieName, faceName } from "./dice.js";
import { $, el, flashError as showError } from "./dom.js";
import { currentLanguage, has, nameList, onLanguage, pickLanguage, setLanguage, t, translateTree } from "./i18n.js";

const STORE = "minodice.sheet";
const FORMAT = "minodice-sheet/1";

const S = {
  dice: [], // the dice table from /api/options: [{die, faces, special, bag}]
  seats: null, // players at a table, from /api/options: {min, max}
  sheet: null, // {format, players, scoring, hands} as the server returned it
  report: null, // the last /api/sheet/check answer
  draft: [], // the hand being typed: [{bid, won, mermaid, griffins}] as typed
  setupNames: [],
  refused: null, // the server's refusal of the hand being typed: {code, message, params}
  rolls: [], // the referee's rolls: [{name, die, face, check, held: [colours]}]
  verdict: null, // the referee's last answer, or {refused: {code, message, params}}
  // Each hand's tricks as entered with the referee, by hand (tricks[h - 1]; the hand being
  // typed is tricks[hands.length]): per trick [{player, roll: "die:face"}] in rolling order.
  tricks: [],
  lastTrick: null, // the referee's last judged trick, ready to be added to the hand being typed
  recordRefused: null, // the server's refusal of the game record: {code, message, params}
};

// --- small helpers -------------------------------------------------------------------------

/** A visible label wrapping its control. */
function labelled(text, control, cls = "field") {
  return el("label", { class: cls }, el("span", { text }), control);
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}


// --- the server ----------------------------------------------------------------------------

/** POST JSON; resolves to the Response, rejects with {network: true} when the server is unreachable. */
async function post(path, body) {
  try {
    return await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch {
    throw { network: true };
  }
}

/** The refusal of an error response: {code, message, params} (code null when the answer has none). */
async function refusal(res) {
  try {
    const body = await res.json();
    if (body?.detail?.code) return { params: {}, ...body.detail };
  } catch {
    // not JSON: fall through
  }
  return { code: null, message: t("error.generic"), params: {} };
}

/** Ask the server to check and score `sheet`: {ok: true, report} or {ok: false, refused}. */
async function checkSheet(sheet) {
  const res = await post("/api/sheet/check", sheet);
  if (res.ok) return { ok: true, report: await res.json() };
  return { ok: false, refused: await refusal(res) };
}

/** The dice table and seat limits the server plays with (GET /api/options). */
async function loadOptions() {
  const res = await fetch("/api/options");
  if (!res.ok) throw new Error(`/api/options: ${res.status}`);
  const options = await res.json();
  if (!Array.isArray(options.dice) || !options.dice.length || !options.seats) {
    throw new Error("/api/options: no dice table or seats");
  }
  S.dice = options.dice;
  S.seats = options.seats;
}

// --- codes in words ------------------------------------------------------------------------

// List params (names, dice, faces) are joined the language's way, their dice and faces translated;
// codes.js translates everything else (die, face and rule-option names) from "code.<code>".
const DIE_LISTS = new Set(["dice", "held"]);
const FACE_LISTS = new Set(["faces"]);

const dieWord = (die) => (has(`die.${die}`) ? dieName(die) : String(die));
const faceWord = (face) => (has(`face.${face}`) ? faceName(face) : String(face));

/** `params` with each list param as one phrase ("Ana et Ben", "Rouge, Jaune et Gris"). */
function listParams(params) {
  const out = { ...(params || {}) };
  for (const [key, value] of Object.entries(out)) {
    if (!Array.isArray(value)) continue;
    const word = DIE_LISTS.has(key) ? dieWord : FACE_LISTS.has(key) ? faceWord : String;
    out[key] = nameList(value.map(word));
  }
  return out;
}

/** The words of a code with its params in the page's language, or null if the code has none. */
function wordsOf(code, params) {
  return (code && codeText(code, listParams(params))) || null;
}

/** A reason ({code, params}: a trick's, a bonus's, a foul's) in words. */
function reasonText(reason) {
  return wordsOf(reason.code, reason.params) ?? reason.code;
}

/** A refusal ({code, message, params}) in words, with the hand, trick and roll it is about. */
function refusalText(refused) {
  const text = wordsOf(refused.code, refused.params) ?? refused.message ?? t("error.generic");
  const { in_hand: hand, in_trick: trick, in_player: player } = refused.params || {};
  if (hand == null) return text;
  if (trick == null) return t("pad.at_hand", { hand, text });
  if (player == null) return t("pad.at_trick", { hand, trick, text });
  return t("pad.at_roll", { hand, trick, player, text });
}

function failText(err) {
  return err?.network ? t("error.network") : t("error.generic");
}

// --- keeping the sheet ---------------------------------------------------------------------

function save() {
  const data = { sheet: S.sheet, draft: S.draft, setupNames: S.setupNames, tricks: S.tricks };
  try {
    localStorage.setItem(STORE, JSON.stringify(data));
  } catch {
    // storage full or disabled: the page still works, it just will not survive a reload
  }
}

function load() {
  try {
    const data = JSON.parse(localStorage.getItem(STORE) || "null");
    if (data && typeof data === "object") {
      S.sheet = data.sheet && typeof data.sheet === "object" ? data.sheet : null;
      S.draft = Array.isArray(data.draft) ? data.draft : [];
      S.tricks = Array.isArray(data.tricks) ? data.tricks.map((h) => (Array.isArray(h) ? h : [])) : [];
      if (Array.isArray(data.setupNames)) S.setupNames = data.setupNames.slice(0, S.seats.max).map(String);
    }
  } catch {
    S.sheet = null;
  }
  while (S.setupNames.length < S.seats.max) S.setupNames.push("");
}

function adopt(report) {
  S.report = report;
  S.sheet = report.sheet;
  S.recordRefused = null;
  save();
}

// --- set up --------------------------------------------------------------------------------

function renderSetup() {
  const list = $("setup-names");
  list.textContent = "";
  for (let i = 0; i < S.seats.max; i++) {
    const input = el("input", {
      id: `setup-name-${i}`,
      maxlength: "24",
      required: i < S.seats.min,
      value: S.setupNames[i] || "",
      oninput: (e) => {
        S.setupNames[i] = e.target.value;
        save();
      },
    });
    const label = i < S.seats.min ? t("pad.player_n", { n: i + 1 }) : t("pad.player_optional", { n: i + 1 });
    list.append(el("li", {}, labelled(label, input)));
  }
}

async function onSetup(event) {
  event.preventDefault();
  const players = S.setupNames.map((n) => n.trim()).filter(Boolean);
  const sheet = { format: FORMAT, players, scoring: $("setup-scoring").value, hands: [] };
  const box = $("setup-error");
  try {
    const got = await checkSheet(sheet);
    if (!got.ok) {
      box.textContent = t("pad.refused", { message: refusalText(got.refused) });
      box.hidden = false;
      return;
    }
    box.hidden = true;
    S.draft = [];
    S.tricks = [];
    adopt(got.report);
    // The referee's rolls, still unnamed, now default to the players.
    if (S.rolls.every((r) => !r.name.trim())) {
      S.rolls = defaultRolls().map((r, i) => (S.rolls[i] ? { ...S.rolls[i], name: r.name } : r));
    }
    render();
    $("bid-0")?.focus();
  } catch (err) {
    showError(failText(err));
  }
}

// --- the hand being entered ----------------------------------------------------------------

function draftLine(i) {
  S.draft[i] ??= { bid: "", won: "", mermaid: false, griffins: "0" };
  return S.draft[i];
}

/** One player's inputs: bid, tricks won and (standard scoring) the bonuses. */
function handLine(name, i, bonuses) {
  const line = draftLine(i);
  const keep = (field, value) => {
    line[field] = value;
    save();
  };
  const number = (id, field) =>
    el("input", {
      id,
      type: "number",
      inputmode: "numeric",
      min: "0",
      step: "1",
      value: line[field],
      oninput: (e) => keep(field, e.target.value),
    });
  const fields = [
    labelled(t("pad.bid"), number(`bid-${i}`, "bid")),
    labelled(t("pad.won"), number(`won-${i}`, "won")),
  ];
  if (bonuses) {
    const mermaid = el("input", {
      type: "checkbox",
      id: `mermaid-${i}`,
      checked: !!line.mermaid,
      onchange: (e) => keep("mermaid", e.target.checked),
    });
    fields.push(el("label", { class: "check" }, mermaid, el("span", { text: t("pad.mermaid") })));
    fields.push(labelled(t("pad.griffins"), number(`griffins-${i}`, "griffins")));
  }
  return el("fieldset", { class: "pad-line" }, el("legend", {}, bdi(name, "name")), ...fields);
}

function renderHandForm() {
  const r = S.report;
  const form = $("hand-form");
  form.hidden = !r.next_hand;
  $("pad-finished").hidden = !r.finished;
  if (!r.next_hand) return;
  const { number, dice } = r.next_hand;
  $("hand-title").textContent = t("pad.hand_of", { hand: number, count: r.hand_count, n: dice });
  const bonuses = S.sheet.scoring !== "landlubber";
  const lines = $("hand-lines");
  lines.textContent = "";
  S.sheet.players.forEach((name, i) => lines.append(handLine(name, i, bonuses)));
  const box = $("hand-error");
  box.textContent = S.refused ? t("pad.refused", { message: refusalText(S.refused) }) : "";
  box.hidden = !S.refused;
}

/** A typed number as an integer, or the text itself (the server says what is wrong with it). */
function whole(text, empty) {
  const s = String(text ?? "").trim();
  if (s === "") return empty;
  return /^-?\d+$/.test(s) ? Number(s) : s;
}

function typedHand() {
  const bonuses = S.sheet.scoring !== "landlubber";
  return S.sheet.players.map((_, i) => {
    const line = draftLine(i);
    return {
      bid: whole(line.bid, null),
      won: whole(line.won, null),
      mermaid: bonuses && !!line.mermaid,
      griffins: bonuses ? whole(line.griffins, 0) : 0,
    };
  });
}

/** Which player left a field empty: the first such input, or null. */
function firstEmpty(hand) {
  for (let i = 0; i < hand.length; i++) {
    for (const field of ["bid", "won"]) if (hand[i][field] === null) return { i, field };
  }
  return null;
}

async function onAddHand(event) {
  event.preventDefault();
  const hand = typedHand();
  const empty = firstEmpty(hand);
  if (empty) {
    const key = empty.field === "bid" ? "pad.missing_bid" : "pad.missing_won";
    S.refused = null;
    showRefusal(t(key, { name: S.sheet.players[empty.i] }));
    $(`${empty.field}-${empty.i}`).focus();
    return;
  }
  const sheet = { ...S.sheet, hands: [...S.sheet.hands, hand] };
  try {
    const got = await checkSheet(sheet);
    if (!got.ok) {
      S.refused = got.refused;
      showRefusal(t("pad.refused", { message: refusalText(got.refused) }));
      return;
    }
    S.refused = null;
    S.draft = [];
    adopt(got.report);
    render();
    (S.report.next_hand ? $("bid-0") : $("pad-table"))?.focus();
  } catch (err) {
    showError(failText(err));
  }
}

function showRefusal(text) {
  const box = $("hand-error");
  box.replaceChildren(isolateIn(text, S.sheet?.players || [])); // the players' names isolated
  box.hidden = false;
}

// --- the sheet table -----------------------------------------------------------------------

function headRow(players, leaders) {
  const row = el("tr", {}, el("th", { scope: "col", text: t("sheet.hand") }));
  players.forEach((name) => {
    const lead = leaders.includes(name);
    row.append(
      el(
        "th",
        { scope: "col", class: lead ? "leader" : "" },
        bdi(name, "name"),
        lead ? el("span", { class: "badge win", text: t("pad.leader") }) : null,
      ),
    );
  });
  return row;
}

function handRow(hand, number, h, leaders, players) {
  const r = S.report;
  const [scores, totals, bonuses] = [r.hand_scores[h], r.running_totals[h], r.bonuses[h]];
  const row = el("tr", {}, el("th", { scope: "row", text: String(number) }));
  hand.forEach((line, i) => {
    row.append(
      el(
        "td",
        { class: [scores[i] < 0 ? "neg" : "", leaders.includes(players[i]) ? "leader" : ""].join(" ").trim() },
        el("strong", { text: signed(scores[i]) }),
        el("span", { class: "bw", text: t("sheet.bid_won", { bid: line.bid, won: line.won }) }),
        bonuses[i] ? el("span", { class: "bonus", text: t("sheet.bonus", { n: bonuses[i] }) }) : null,
        el("span", { class: "run", text: t("pad.running", { n: totals[i] }) }),
      ),
    );
  });
  return row;
}

function footRows(r, players) {
  const rows = [el("tr", {}, el("th", { scope: "row", text: t("sheet.total") }))];
  players.forEach((name, i) => {
    rows[0].append(el("td", { class: r.leaders.includes(name) ? "leader" : "", text: String(r.totals[i]) }));
  });
  if (r.places) {
    const places = el("tr", { class: "places" }, el("th", { scope: "row", text: t("pad.place") }));
    r.places.forEach((p) => places.append(el("td", { text: t("podium.place", { n: p }) })));
    rows.push(places);
  }
  return rows;
}

function renderTable() {
  const r = S.report;
  const { players, hands } = S.sheet;
  const table = $("pad-table");
  table.textContent = "";
  table.setAttribute("tabindex", "-1");
  table.append(el("caption", { class: "sr-only", text: t("sheet.title") }));
  table.append(el("thead", {}, headRow(players, r.leaders)));
  const body = el("tbody");
  hands.forEach((hand, h) => {
    body.append(handRow(hand, h + 1, h, r.leaders, players));
  });
  if (!hands.length) body.append(el("tr", {}, el("td", { colspan: players.length + 1, text: t("sheet.empty") })));
  table.append(body);
  table.append(el("tfoot", {}, ...footRows(r, players)));
}

function renderPad() {
  const scoring = S.sheet.scoring === "landlubber" ? "rule.scoring.landlubber" : "rule.scoring.standard";
  $("pad-scoring").textContent = t("pad.scoring", { scoring: t(scoring) });
  renderHandForm();
  renderTable();
  $("undo-hand").disabled = !S.sheet.hands.length;
  $("download-csv").disabled = !S.sheet.hands.length;
  $("download-record").hidden = !allTricksEntered();
  const box = $("record-error");
  box.textContent = S.recordRefused ? t("pad.record_refused", { message: refusalText(S.recordRefused) }) : "";
  box.hidden = !S.recordRefused;
}

// --- undo, CSV, new sheet ------------------------------------------------------------------

async function onUndo() {
  if (!S.sheet?.hands.length) return;
  const hands = S.sheet.hands.slice(0, -1);
  const undone = S.sheet.hands[S.sheet.hands.length - 1];
  try {
    const got = await checkSheet({ ...S.sheet, hands });
    if (!got.ok) return showError(refusalText(got.refused));
    // The undone hand goes back into the form, ready to be corrected.
    S.draft = undone.map((l) => ({ bid: String(l.bid), won: String(l.won), mermaid: l.mermaid, griffins: String(l.griffins) }));
    S.refused = null;
    adopt(got.report);
    render();
    $("bid-0")?.focus();
  } catch (err) {
    showError(failText(err));
  }
}

/** Save a response's body as a download named `filename`. */
async function saveAs(res, filename) {
  const url = URL.createObjectURL(await res.blob());
  const a = el("a", { href: url, download: filename, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

async function onDownload() {
  try {
    const res = await post("/api/sheet/csv", S.sheet);
    if (!res.ok) return showError(refusalText(await refusal(res)));
    await saveAs(res, "minodice-sheet.csv");
  } catch (err) {
    showError(failText(err));
  }
}

// --- the tricks of each hand and the game record -------------------------------------------

/** The tricks entered so far for hand `number` (from 1). */
function handTricks(number) {
  while (S.tricks.length < number) S.tricks.push([]);
  return S.tricks[number - 1];
}

/** Every entered hand has all its tricks (hand h has h): a game record can be made. */
function allTricksEntered() {
  const hands = S.sheet?.hands || [];
  return hands.length > 0 && hands.every((_, h) => (S.tricks[h] || []).length === h + 1);
}

/** The hand being typed, whose tricks the referee adds to, or null (no sheet, or it is finished). */
function recordingHand() {
  return S.sheet && S.report?.next_hand ? S.report.next_hand.number : null;
}

function renderRecord() {
  const number = recordingHand();
  $("ref-record").hidden = !number;
  if (!number) return;
  const tricks = handTricks(number);
  $("ref-tricks").textContent = t("ref.tricks_entered", { hand: number, k: tricks.length, n: number });
  const keep = $("ref-keep-trick");
  keep.textContent = t("ref.keep_trick", { hand: number });
  keep.hidden = !S.lastTrick || tricks.length >= number;
  $("ref-drop-trick").disabled = !tricks.length;
}

function onKeepTrick() {
  const number = recordingHand();
  if (!number || !S.lastTrick) return;
  const tricks = handTricks(number);
  if (tricks.length >= number) return;
  tricks.push(S.lastTrick);
  S.lastTrick = null;
  save();
  renderRecord();
  $("ref-drop-trick").focus();
}

function onDropTrick() {
  const number = recordingHand();
  if (!number) return;
  handTricks(number).pop();
  save();
  renderRecord();
  $(S.lastTrick ? "ref-keep-trick" : "ref-drop-trick").focus();
}

async function onDownloadRecord() {
  if (!allTricksEntered()) return;
  const body = { sheet: S.sheet, tricks: S.tricks.slice(0, S.sheet.hands.length), hand_start: "rotate" };
  try {
    const res = await post("/api/sheet/record", body);
    S.recordRefused = res.ok ? null : await refusal(res);
    renderPad();
    if (res.ok) await saveAs(res, "minodice-sheet-record.json");
  } catch (err) {
    showError(failText(err));
  }
}

function onNewSheet() {
  if (!window.confirm(t("pad.confirm_new"))) return;
  if (S.sheet) S.setupNames = [...S.sheet.players, ...Array(S.seats.max).fill("")].slice(0, S.seats.max);
  S.sheet = null;
  S.report = null;
  S.draft = [];
  S.tricks = [];
  S.lastTrick = null;
  S.refused = null;
  save();
  render();
  $("setup-name-0").focus();
}

// --- the trick referee ---------------------------------------------------------------------

function defaultRolls() {
  const names = S.sheet?.players || [];
  const { min, max } = S.seats;
  const count = Math.max(min, Math.min(max, names.length || min));
  return Array.from({ length: count }, (_, i) => newRoll(names[i] || ""));
}

/** The distinct faces of `die`, in the server's dice table order. */
function facesOf(die) {
  return [...new Set(S.dice.find((d) => d.die === die)?.faces || [])];
}

/** A fresh roll: the table's first number die, showing its first face. */
function newRoll(name) {
  const first = S.dice.find((d) => !d.special) || S.dice[0];
  return { name, die: first.die, face: first.faces[0], check: false, held: [] };
}

function dieSelect(roll, i) {
  const select = el("select", {
    id: `ref-die-${i}`,
    onchange: (e) => {
      roll.die = e.target.value;
      const faces = facesOf(roll.die);
      roll.face = faces.includes(roll.face) ? roll.face : faces[0];
      renderReferee();
      $(`ref-die-${i}`).focus();
    },
  });
  for (const { die } of S.dice) {
    select.append(el("option", { value: die, selected: die === roll.die, text: dieName(die) }));
  }
  return select;
}

function faceSelect(roll, i) {
  const select = el("select", { id: `ref-face-${i}`, onchange: (e) => (roll.face = e.target.value) });
  for (const face of facesOf(roll.die)) {
    select.append(el("option", { value: face, selected: face === roll.face, text: faceName(face) }));
  }
  return select;
}

/** The optional "what else did this roller hold" part of a roll. */
function heldPart(roll, i) {
  const box = el("input", {
    type: "checkbox",
    id: `ref-check-${i}`,
    checked: roll.check,
    onchange: (e) => {
      roll.check = e.target.checked;
      renderReferee();
      $(`ref-check-${i}`).focus();
    },
  });
  const parts = [el("label", { class: "check" }, box, el("span", { text: t("ref.check_held") }))];
  if (roll.check) {
    const colours = S.dice.filter((d) => !d.special).map(({ die }) =>
      el(
        "label",
        { class: "check" },
        el("input", {
          type: "checkbox",
          id: `ref-held-${i}-${die}`,
          checked: roll.held.includes(die),
          onchange: (e) => {
            roll.held = e.target.checked ? [...roll.held, die] : roll.held.filter((d) => d !== die);
          },
        }),
        el("span", { text: dieName(die) }),
      ),
    );
    parts.push(el("fieldset", { class: "ref-held" }, el("legend", { text: t("ref.held") }), ...colours));
  }
  return parts;
}

function renderReferee() {
  const list = $("ref-rolls");
  list.textContent = "";
  const datalist = $("ref-names");
  datalist.textContent = "";
  for (const name of S.sheet?.players || []) datalist.append(el("option", { value: name }));
  S.rolls.forEach((roll, i) => {
    const name = el("input", {
      id: `ref-name-${i}`,
      maxlength: "24",
      list: "ref-names",
      value: roll.name,
      placeholder: t("ref.roll_n", { n: i + 1 }),
      oninput: (e) => (roll.name = e.target.value),
    });
    list.append(
      el(
        "li",
        { class: "ref-roll" },
        el(
          "fieldset",
          {},
          el("legend", { text: t("ref.roll_n", { n: i + 1 }) }),
          el(
            "div",
            { class: "ref-fields" },
            labelled(t("ref.name"), name),
            labelled(t("ref.die"), dieSelect(roll, i)),
            labelled(t("ref.face"), faceSelect(roll, i)),
          ),
          ...heldPart(roll, i),
        ),
      ),
    );
  });
  $("ref-add").disabled = S.rolls.length >= S.seats.max;
  $("ref-remove").disabled = S.rolls.length <= 2;
}

function trickBody() {
  const rolls = S.rolls.map((r) => (r.die === r.face ? r.die : `${r.die}:${r.face}`));
  const names = S.rolls.map((r, i) => r.name.trim() || t("ref.roll_n", { n: i + 1 }));
  const held = {};
  S.rolls.forEach((r, i) => {
    if (r.check) held[String(i + 1)] = [r.die, ...r.held].join(",");
  });
  const rules = { all_specials: $("ref-all-specials").value, all_flags: $("ref-all-flags").value };
  return { rolls, names, held, rules };
}

/** The referee's answer (or its refusal) in words, in the page's language. */
function renderVerdict() {
  const box = $("ref-result");
  box.textContent = "";
  const v = S.verdict;
  if (!v) return;
  if (v.refused) {
    box.append(el("p", { class: "pad-refused", text: t("ref.refused", { message: refusalText(v.refused) }) }));
    return;
  }
  const w = v.rolls[v.winner];
  const what = t("die_shows", { die: dieName(w.die), face: faceName(w.face) });
  box.append(el("p", { class: "ref-winner" }, tn("ref.winner", { name: bdi(v.winner_name, "name"), what })));
  box.append(el("p", { class: "ref-why", text: t("ref.why", { why: reasonText(v.reason) }) }));
  if (v.lead) box.append(el("p", { text: t("ref.lead", { die: dieName(v.lead) }) }));
  if (v.bonus_reason) {
    const why = reasonText(v.bonus_reason);
    box.append(el("p", { class: "ref-bonus" }, tn("ref.bonus", { name: bdi(v.winner_name, "name"), why })));
  }
  const fouls = v.fouls.map((f) => el("li", {}, tn("ref.foul", { name: bdi(v.names[f.roll], "name"), why: reasonText(f.reason) })));
  if (fouls.length) box.append(el("ul", { class: "ref-fouls" }, ...fouls));
  else if (v.checked) box.append(el("p", { text: t("ref.no_fouls") }));
}

async function onReferee(event) {
  event.preventDefault();
  const body = trickBody();
  try {
    const res = await post("/api/trick", body);
    if (!res.ok) {
      S.verdict = { refused: await refusal(res) };
      S.lastTrick = null;
      renderVerdict();
      renderRecord();
      return;
    }
    const verdict = await res.json();
    S.verdict = { ...verdict, checked: Object.keys(body.held).length > 0 };
    renderVerdict();
    S.lastTrick = verdict.rolls.map((r, i) => ({ player: verdict.names[i], roll: `${r.die}:${r.face}` }));
    renderRecord();
  } catch (err) {
    showError(failText(err));
  }
}

function onAddRoll() {
  if (S.rolls.length >= S.seats.max) return;
  S.rolls.push(newRoll(S.sheet?.players?.[S.rolls.length] || ""));
  renderReferee();
  $(`ref-die-${S.rolls.length - 1}`).focus();
}

function onRemoveRoll() {
  if (S.rolls.length <= 2) return;
  S.rolls.pop();
  renderReferee();
  $("ref-remove").focus();
}

// --- the page ------------------------------------------------------------------------------

function render() {
  $("loading").hidden = true;
  $("lang-switch").value = currentLanguage();
  const ready = !!(S.sheet && S.report);
  $("setup-form").hidden = ready;
  $("pad").hidden = !ready;
  if (ready) renderPad();
  else renderSetup();
  renderReferee();
  renderVerdict();
  renderRecord();
}

/** Check the sheet kept from an earlier visit; a refused one goes, with the server's reason. */
async function restore() {
  if (!S.sheet) return;
  try {
    const got = await checkSheet(S.sheet);
    if (got.ok) {
      S.report = got.report;
      S.sheet = got.report.sheet;
      return;
    }
    showError(t("pad.restore_failed", { message: refusalText(got.refused) }));
    S.sheet = null;
  } catch (err) {
    showError(failText(err)); // the sheet stays kept: a later visit checks it again
  }
}

async function main() {
  await setLanguage(pickLanguage());
  await loadOptions();
  $("lang-switch").addEventListener("change", (e) => setLanguage(e.target.value, { remember: true }));
  onLanguage(() => {
    translateTree(document);
    render();
  });
  load();
  await restore();
  S.rolls = defaultRolls();
  $("setup-form").addEventListener("submit", onSetup);
  $("hand-form").addEventListener("submit", onAddHand);
  $("undo-hand").addEventListener("click", onUndo);
  $("download-csv").addEventListener("click", onDownload);
  $("download-record").addEventListener("click", onDownloadRecord);
  $("ref-keep-trick").addEventListener("click", onKeepTrick);
  $("ref-drop-trick").addEventListener("click", onDropTrick);
  $("new-sheet").addEventListener("click", onNewSheet);
  $("ref-form").addEventListener("submit", onReferee);
  $("ref-add").addEventListener("click", onAddRoll);
  $("ref-remove").addEventListener("click", onRemoveRoll);
  render();
}

main().catch((err) => {
  console.error(err);
  showError(t("error.generic"));
});
