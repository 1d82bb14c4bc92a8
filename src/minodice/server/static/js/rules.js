// The rules in the app: the rules page (rules.html) and the help's scoring paragraph. The words are
// the translation files' (rules.* keys); every number in them — points, bonuses, hands, the special
// cycle — comes from the engine (GET /api/rules: rules.hand_score and rules.py's values), never from
// here, so the page cannot disagree with the game.
import { setDiceTable, dieName, faceName } from "./dice.js";
import { $, el, flashError } from "./dom.js";
import { currentLanguage, onLanguage, pickLanguage, setLanguage, t } from "./i18n.js";

let facts = null;
let options = null;

/** GET /api/rules, once. */
export async function rulesFacts() {
  if (!facts) {
    const res = await fetch("/api/rules", { headers: { Accept: "application/json" } });
    if (!res.ok) throw new Error(`rules: ${res.status}`);
    facts = await res.json();
  }
  return facts;
}

const signed = (n) => (n > 0 ? `+${n}` : String(n));

/** The points of the standard scoring as translation params: made, missed, zero, zero_missed, bonuses. */
export function scoreParams(f, scoring = "standard") {
  const s = f.scoring[scoring];
  return {
    made: signed(s.made_per_trick),
    missed: signed(s.missed_per_trick),
    zero: signed(s.zero_made_per_die),
    zero_missed: signed(s.zero_missed_per_die),
    mermaid: signed(f.bonus.mermaid_took_minotaur),
    griffin: signed(f.bonus.minotaur_took_griffin),
  };
}

/** The help drawer's scoring paragraph (#help-scoring): points, penalties and bonuses. */
export async function renderHelpScoring() {
  const box = $("help-scoring");
  if (!box) return;
  try {
    box.textContent = t("help.scoring", scoreParams(await rulesFacts()));
  } catch {
    /* the sentence without numbers (help.rules3) stays */
  }
}

// --- the rules page -------------------------------------------------------------------------------

function para(key, params = {}) {
  return el("p", { text: t(key, params) });
}

function section(id, titleKey, ...children) {
  return el("section", { class: "card rules-section", id, "aria-labelledby": `${id}-h` },
    el("h2", { id: `${id}-h`, text: t(titleKey) }), ...children);
}

function diceTable() {
  const head = el("tr", {}, ...["rules.dice_die", "rules.dice_count", "rules.dice_faces"].map((k) => el("th", { scope: "col", text: t(k) })));
  const rows = options.dice.map((d) => el("tr", { "data-die": d.die },
    el("th", { scope: "row", text: dieName(d.die) }),
    el("td", { text: String(d.bag) }),
    el("td", { text: d.faces.map((f) => faceName(f)).join(", ") })));
  return el("table", { class: "rules-table" }, el("caption", { text: t("rules.dice_caption") }), el("thead", {}, head), el("tbody", {}, rows));
}

function handsList(f) {
  return el("ul", {}, Object.entries(f.hands).map(([seats, hands]) => el("li", { text: t("rules.hands_for", { seats, hands }) })));
}

function cycleList(f) {
  return el("ul", { class: "rules-cycle" }, Object.entries(f.beats).map(([face, beaten]) =>
    el("li", { text: t("rules.beats", { face: faceName(face), beaten: faceName(beaten) }) })));
}

function examplesTable(f, scoring) {
  const head = el("tr", {}, ...["rules.ex_bid", "rules.ex_won", "rules.ex_dice", "rules.ex_points"].map((k) => el("th", { scope: "col", text: t(k) })));
  const rows = f.scoring[scoring].examples.map((x) => el("tr", { class: "rules-example" },
    el("td", { text: String(x.bid) }), el("td", { text: String(x.won) }), el("td", { text: String(x.dice) }),
    el("td", { class: "points", text: signed(x.points) })));
  return el("table", { class: "rules-table", "data-scoring": scoring },
    el("caption", { text: t("rules.examples") }), el("thead", {}, head), el("tbody", {}, rows));
}

function renderRulesPage() {
  const f = facts;
  const p = scoreParams(f);
  const land = scoreParams(f, "landlubber");
  const box = $("rules");
  box.replaceChildren(
    section("rules-goal", "rules.goal_title", para("rules.goal", { min: f.seats.min, max: f.seats.max })),
    section("rules-dice", "rules.dice_title", para("rules.dice"), diceTable()),
    section("rules-hands", "rules.hands_title", para("rules.hands"), handsList(f)),
    section("rules-bidding", "rules.bidding_title", para("rules.bidding")),
    section("rules-tricks", "rules.tricks_title", para("rules.tricks"), para("rules.follow"), para("rules.special_free")),
    section("rules-winner", "rules.winner_title", para("rules.specials"), cycleList(f),
      para("rules.all_specials", { face: faceName(f.defaults.all_specials) }), para("rules.numbers"), para("rules.ties"),
      para(`rules.all_flags.${f.defaults.all_flags}`)),
    section("rules-scoring", "rules.scoring_title",
      el("ul", { class: "rules-points" },
        el("li", { "data-case": "made", text: t("rules.score_made", p) }),
        el("li", { "data-case": "missed", text: t("rules.score_missed", p) }),
        el("li", { "data-case": "zero", text: t("rules.score_zero", p) }),
        el("li", { "data-case": "zero_missed", text: t("rules.score_zero_missed", p) })),
      examplesTable(f, "standard")),
    section("rules-bonuses", "rules.bonuses_title", para("rules.bonuses"),
      el("ul", { class: "rules-points" },
        el("li", { "data-case": "mermaid", text: t("rules.bonus_mermaid", p) }),
        el("li", { "data-case": "griffin", text: t("rules.bonus_griffin", p) }))),
    section("rules-landlubber", "rules.landlubber_title", para("rules.landlubber", land)),
    section("rules-end", "rules.end_title", para("rules.end")),
  );
}

async function main() {
  await setLanguage(pickLanguage());
  $("lang-switch").value = currentLanguage();
  $("lang-switch").addEventListener("change", (e) => setLanguage(e.target.value, { remember: true }));
  try {
    const [rules, opts] = await Promise.all([rulesFacts(), fetch("/api/options").then((r) => r.json())]);
    facts = rules;
    options = opts;
    setDiceTable(options.dice);
  } catch (err) {
    flashError(t("error.generic"));
    console.error(err);
    return;
  }
  $("loading").hidden = true;
  renderRulesPage();
  onLanguage(() => renderRulesPage());
}

if (document.body?.dataset.page === "rules") main();
