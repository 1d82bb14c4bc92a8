// The end of a hand, with a moment to see it: once the hand's last trick has been shown, a
// panel over the felt says for every seat its bid and the tricks it won, whether the bid was
// made, the bonuses its score counts (and why), the hand's points and the new total, and a
// line for this page's own seat ("You made your bid of 2: +40"). Everything comes from the
// server: its `hand_scored` event (bids, won, made, bonus, bonus_counted, scores, totals) and
// the reasons of the hand's `trick_won` events (bonus_why). No rule is worked out here.
//
// net.js shows it after the trick's result has had its time, holds the next hand's frames for
// the summary's time (the server's `hand_pause`), and closes it when the next hand's bids are
// revealed; a player may close it before (its button, Escape). Under reduced motion it comes
// without animation and says the same. Screen readers are told it all at once (the assertive
// region): the title, the page's own line and each seat's hand score with its total.
import { nameNode } from "./bidi.js";
import { $, el } from "./dom.js";
import { t } from "./i18n.js";
import { S, announce, plainName } from "./state.js";

const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");

let shown = null; // {hand, onClose}

/** Whether a hand's summary is on the felt now. */
export function summaryOpen() {
  return shown !== null;
}

// The bonuses a seat's tricks earned this hand and why (the server's reasons): "the mermaid
// caught the minotaur (+50)".
function bonusWhy(tricks, seat) {
  return tricks
    .filter((tr) => tr.winner === seat && tr.bonusWhy)
    .map((tr) => t(`summary.why.${tr.bonusWhy.code}`, { ...tr.bonusWhy.params, n: tr.bonusWhy.params?.griffins ?? 1 }));
}

function seatLine(hs, tricks, i) {
  const made = hs.made ? hs.made[i] : null;
  const counted = hs.bonus_counted?.[i] || 0;
  const earned = hs.bonus?.[i] || 0;
  const why = bonusWhy(tricks, i);
  let bonus = null;
  if (counted > 0) bonus = t("summary.bonus", { n: counted, why: why.join(", ") });
  else if (earned > 0) bonus = t("summary.bonus_lost", { n: earned });
  const score = hs.scores[i];
  return el(
    "li",
    { class: `${made === true ? "made" : made === false ? "missed" : ""} ${i === S.seat ? "me" : ""}`.trim(), "data-seat": i },
    el("span", { class: "s-name" }, nameNode(i)),
    el("span", { class: "s-bid", text: t("sheet.bid_won", { bid: hs.bids[i], won: hs.won[i] }) }),
    made === null ? null : el("span", { class: "s-result", text: t(made ? "summary.made" : "summary.missed") }),
    bonus ? el("span", { class: "s-bonus", text: bonus }) : null,
    el("span", { class: `s-points ${score < 0 ? "neg" : ""}`.trim(), text: signed(score) }),
    el("span", { class: "s-total", text: t("summary.total", { n: hs.totals[i] }) }),
  );
}

// The sentence for this page's own seat; for a spectator, the hand's best score.
function headline(hs) {
  const me = S.seat;
  if (me !== null && me !== undefined && hs.scores[me] !== undefined) {
    const p = { bid: hs.bids[me], won: hs.won[me], points: signed(hs.scores[me]), n: hs.bids[me] };
    return t(hs.made?.[me] ? "summary.you_made" : "summary.you_missed", p);
  }
  const best = hs.scores.reduce((b, s, i) => (s > hs.scores[b] ? i : b), 0);
  return t("summary.top", { name: plainName(best), points: signed(hs.scores[best]) });
}

/** Show hand `hs` (a `hand_scored` event) over the felt; `tricks`: the hand's finished tricks
 * (eventlog.js digest: winner and bonusWhy each); `onClose` is called once it is closed. */
export function showHandSummary(hs, tricks, onClose = null) {
  closeHandSummary();
  const felt = $("felt");
  if (!felt) return;
  const n = hs.scores.length;
  const list = el("ol", { class: "summary-list" });
  for (let i = 0; i < n; i++) list.append(seatLine(hs, tricks, i));
  const line = headline(hs);
  const close = el("button", {
    type: "button", class: "summary-close", "aria-label": t("summary.close"), title: t("summary.close"), text: "✕",
    onclick: () => closeHandSummary(),
  });
  const me = S.seat !== null && S.seat !== undefined ? hs.made?.[S.seat] : null;
  const panel = el(
    "section",
    { id: "hand-summary", class: "hand-summary", "aria-labelledby": "hand-summary-h", "data-hand": hs.hand },
    el("div", { class: "panel-head" }, el("h2", { id: "hand-summary-h", text: t("summary.title", { hand: hs.hand, hands: S.view?.hands ?? hs.hand }) }), close),
    el("p", { class: `summary-line ${me === true ? "made" : me === false ? "missed" : ""}`.trim(), text: line }),
    list,
  );
  felt.append(panel);
  shown = { hand: hs.hand, onClose };
  // Said as shown: the title, this seat's line, then every seat's hand score and total.
  const scores = hs.scores.map((s, i) => t("summary.seat_score", { name: plainName(i), points: signed(s), total: hs.totals[i] }));
  announce(`${t("summary.title", { hand: hs.hand, hands: S.view?.hands ?? hs.hand })}. ${line}. ${scores.join("; ")}.`);
}

/** Take the summary off the felt (nothing if none is shown). */
export function closeHandSummary() {
  $("hand-summary")?.remove();
  if (!shown) return;
  const { onClose } = shown;
  shown = null;
  onClose?.();
}

document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape" && shown && !ev.target?.closest?.("input, textarea, select")) closeHandSummary();
});
