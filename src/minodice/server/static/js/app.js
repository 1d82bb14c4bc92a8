// The Mino Dice web client: lobby, game, score sheet and podium (one module per screen:
// lobby.js, table.js, podium.js; net.js holds the connection, state.js what they share).
// This page's start: it wires the screens into net.js, which routes to them without importing them.
// The server is the authority: this page shows what it is sent — the dice table, the rule
// options and bots, the trick state and every reason as a code — and sends wishes.
import * as api from "./api.js";
import { initChat } from "./chat.js";
import { setDiceTable } from "./dice.js";
import { $ } from "./dom.js";
import { currentLanguage, onLanguage, pickLanguage, setLanguage, t } from "./i18n.js";
import {
  goHome, loadPastGames, onCreate, onJoinCode, onJoinSeat, onPlayNow, onStart, renderCreateSeats, renderHome, renderLobby,
} from "./lobby.js";
import { enterTable, route, useScreens } from "./net.js";
import { onRematch, onRematchStarted, renderLog, renderPodium, renderSheet } from "./podium.js";
import { S, loadToken, readRoute, saveToken, showError, showInviteUrl, toast } from "./state.js";
import { initSound } from "./sound.js";
import { moveAnswer, reclaimSeat, renderGame, showHint } from "./table.js";
import { renderHelpScoring } from "./rules.js";
import { initTutorial, startTutorial } from "./tutorial.js";

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
  if (!S.online && /^\d$/.test(ev.key)) return toast(t("game.offline_blocked")); // the table is inert meanwhile
  const k = ev.key.toLowerCase();
  if (k === "s") return toggleSheet();
  if (k === "l") return toggleLog();
  if (k === "h") return $("hint-button").hidden || $("hint-button").disabled ? undefined : showHint();
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

function rerender() {
  $("lang-switch").value = currentLanguage();
  if (S.screen === "home") renderHome();
  else route();
  $("sheet-btn").textContent = t(S.sheetOpen ? "game.hide_sheet" : "game.show_sheet");
  $("log-btn").textContent = t(S.logOpen ? "game.hide_log" : "game.show_log");
}

async function startFromUrl() {
  const { code, token } = readRoute();
  if (location.hash === "#tutorial") {
    goHome(); // "Learn to play" from the rules page: the home page until the tutorial's table is there
    return startTutorial();
  }
  if (!code) return goHome();
  if (code === S.code && !token && S.conn) return;
  if (token) {
    // A personal link: keep the token in the cookie; the address bar shows the invite.
    saveToken(code, token, null);
    showInviteUrl(code);
  }
  await enterTable(code, token || loadToken(code));
}

// The rule options, bots and dice table the server plays with (GET /api/options).
async function loadOptions() {
  try {
    S.options = await api.options();
  } catch (err) {
    showError(err);
  }
  setDiceTable(S.options.dice);
}

function wire() {
  $("lang-switch").addEventListener("change", (e) => setLanguage(e.target.value, { remember: true }));
  onLanguage(rerender);
  $("create-seats").addEventListener("change", renderCreateSeats);
  $("create-level").addEventListener("change", renderCreateSeats);
  $("create-form").addEventListener("submit", onCreate);
  $("play-now-btn").addEventListener("click", onPlayNow);
  initTutorial(); // the tutorial's buttons and coach (tutorial.js)
  renderHelpScoring();
  onLanguage(renderHelpScoring);
  $("join-code-form").addEventListener("submit", onJoinCode);
  $("join-form").addEventListener("submit", onJoinSeat);
  $("start-btn").addEventListener("click", onStart);
  $("hint-button").addEventListener("click", () => showHint());
  $("reclaim-btn").addEventListener("click", reclaimSeat);
  initSound($("sound-btn"));
  $("rematch-btn").addEventListener("click", onRematch);
  initChat(); // the table chat panel (chat.js)
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
}

// The screens net.js shows the table's state on (net.js does not import them: they import it).
useScreens({
  home: goHome,
  lobby: renderLobby,
  podium: () => {
    renderPodium();
    renderSheet();
  },
  game: renderGame,
  moveAnswer,
  rematchStarted: onRematchStarted,
});

async function main() {
  await setLanguage(pickLanguage());
  await loadOptions();
  $("lang-switch").value = currentLanguage();
  wire();
  await startFromUrl();
}

main().catch((err) => {
  console.error(err);
  showError(err);
});
