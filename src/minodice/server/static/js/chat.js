// Table chat and quick reactions (docs/server-protocol.md, "Chat"): the panel in <aside id="chat">,
// shown while the page is at a table (lobby, game, podium). It reads the table's frames before
// the game's paced queue (chat never waits for a roll to land) and keeps what it needs itself:
// its seat, the players and their mute flags. Messages are plain text, set with textContent only.
// The reactions come from GET /api/options; a live one is also dispatched as the document
// event "minodice:reaction" {seat, reaction} so the table can show it at the seat.
// A name and a message are each isolated (<bdi>): Arabic or Hebrew ones never run together.
// During a game on a narrow screen the panel follows the play area: the game's Chat button
// (#chat-btn) brings it into view and counts the messages come meanwhile.
import { bdi, tn } from "./bidi.js";
import { errorText } from "./codes.js";
import { $, el } from "./dom.js";
import { currentLanguage, onLanguage, t } from "./i18n.js";
import { S, getCookie, hostToken } from "./state.js";

const AT_TABLE = new Set(["lobby", "game", "podium"]);
const KEEP = 100; // lines kept on the page

// seat: this page's (null: watching); players: TABLE.players as sent; pending: my text on its way.
const C = { code: null, seat: null, host: null, players: [], messages: [], last: 0, pending: null, note: null, inView: true, unread: 0 };

/** Build the panel and follow the screens; call once the options are loaded. */
export function initChat() {
  const box = $("chat");
  if (!box) return;
  const reactions = (S.options.chat?.reactions || []).map(({ reaction, name }) =>
    el("button", { type: "button", class: "chat-react", "data-name": name, onclick: () => send({ type: "react", reaction }) }, reaction),
  );
  box.replaceChildren(
    el("h2", { id: "chat-h", class: "chat-title" }),
    el("p", { id: "chat-empty", class: "chat-empty status" }),
    el("div", { id: "chat-log", class: "chat-log", role: "log", "aria-live": "polite", "aria-labelledby": "chat-h", tabindex: "0" }),
    el("div", { id: "chat-reactions", class: "chat-reactions", role: "group" }, reactions),
    el(
      "form",
      { id: "chat-form", class: "chat-form", autocomplete: "off", onsubmit: onSubmit },
      el("label", { for: "chat-input", id: "chat-label", class: "sr-only" }),
      el("input", { id: "chat-input", maxlength: S.options.chat?.max_length ?? 200, enterkeyhint: "send", "aria-describedby": "chat-status" }),
      el("button", { type: "submit", id: "chat-send" }),
    ),
    el("p", { id: "chat-status", class: "chat-status", role: "status" }),
    el("p", { id: "chat-watching", class: "status" }),
    el("div", { id: "chat-mutes", class: "chat-mutes" }, el("p", { id: "chat-mutes-h", class: "chat-mutes-title" }), el("ul", { "aria-labelledby": "chat-mutes-h" })),
  );
  const observer = new MutationObserver(showPanel);
  for (const s of ["home", "lobby", "game", "podium"]) observer.observe($(`screen-${s}`), { attributes: true, attributeFilter: ["hidden"] });
  $("chat-btn")?.addEventListener("click", goToChat);
  // What is seen of the panel: a message that comes while it is out of sight is counted on the button.
  if ("IntersectionObserver" in window) {
    new IntersectionObserver((entries) => {
      C.inView = entries.some((e) => e.isIntersecting);
      if (C.inView) unread(0);
    }).observe(box);
  }
  onLanguage(render);
  render();
}

// The Chat button of a narrow game screen: the panel comes into view, its box takes the focus.
function goToChat() {
  const box = $("chat");
  box.scrollIntoView({ block: "end", behavior: matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth" });
  ($("chat-input")?.offsetParent ? $("chat-input") : $("chat-log")).focus({ preventScroll: true });
  unread(0);
}

function unread(n) {
  C.unread = n;
  const badge = $("chat-unread");
  if (!badge) return;
  badge.hidden = n === 0;
  badge.textContent = n ? String(n) : "";
  if (n) $("chat-btn").setAttribute("aria-label", t("chat.unread", { n }));
  else $("chat-btn").removeAttribute("aria-label");
}

/** A server frame: chat frames are taken (true); seats and mutes are read from the others. */
export function chatMessage(msg) {
  if (msg.type === "welcome") {
    C.seat = msg.spectator ? null : msg.seat;
    if (C.code !== S.code) {
      // Another table (a rematch, a new link): nothing of the last one's chat stays.
      Object.assign(C, { code: S.code, messages: [], last: 0, pending: null });
      unread(0);
      say(null);
      renderLog();
    }
  }
  if (msg.table?.players) takeTable(msg.table);
  if (msg.type === "chat_history") {
    Object.assign(C, { code: S.code, messages: [], last: 0 });
    for (const m of msg.messages || []) add(m);
    renderLog();
    return true;
  }
  if (msg.type === "chat" && msg.message) {
    const m = msg.message;
    if (!add(m)) return true;
    if (m.seat === C.seat && m.kind === "text" && m.text === C.pending) sent();
    if (m.kind === "reaction") document.dispatchEvent(new CustomEvent("minodice:reaction", { detail: { seat: m.seat, reaction: m.text } }));
    appendLine(m);
    if (!C.inView && m.seat !== C.seat) unread(C.unread + 1);
    return true;
  }
  if (msg.type === "error" && String(msg.code).startsWith("chat_")) {
    say({ code: msg.code, params: msg.params || {} });
    return true;
  }
  if (msg.table?.players) renderControls();
  return false;
}

function takeTable(table) {
  C.players = table.players;
  C.host = table.host_seat ?? null;
}

// Keeps a message unless it is one already shown (a history and a live frame may overlap).
function add(m) {
  if (typeof m?.n !== "number" || m.n <= C.last) return false;
  C.last = m.n;
  C.messages.push(m);
  if (C.messages.length > KEEP) C.messages.splice(0, C.messages.length - KEEP);
  return true;
}

function send(msg) {
  try {
    S.conn.send(msg);
    return true;
  } catch (err) {
    say(err);
    return false;
  }
}

function onSubmit(ev) {
  ev.preventDefault();
  const text = $("chat-input").value.trim();
  if (!text) return say({ code: "chat_empty", params: {} });
  if (send({ type: "chat", text })) C.pending = text;
}

// My text came back from the server: it was said, so the box is cleared for the next one.
function sent() {
  if ($("chat-input").value.trim() === C.pending) $("chat-input").value = "";
  C.pending = null;
  say(null);
}

// A refusal or a failure in words next to the form (null: clear it); the typed text stays.
function say(note) {
  C.note = note;
  const box = $("chat-status");
  box.textContent = note ? errorText(note) : "";
  box.classList.toggle("bad", !!note);
}

function showPanel() {
  $("chat").hidden = !(AT_TABLE.has(S.screen) && S.code);
}

// --- drawing ----------------------------------------------------------------------------------

function render() {
  renderControls();
  renderLog();
}

// Everything but the messages: words, the form (players) or the note (spectators), the mutes.
function renderControls() {
  if (!$("chat-h")) return;
  $("chat-h").textContent = t("chat.title");
  $("chat-label").textContent = t("chat.input");
  $("chat-input").placeholder = t("chat.placeholder");
  $("chat-send").textContent = t("chat.send");
  $("chat-reactions").setAttribute("aria-label", t("chat.reactions"));
  for (const b of $("chat-reactions").children) {
    const key = `chat.reaction.${b.dataset.name}`;
    const label = t(key);
    b.setAttribute("aria-label", label === key ? b.textContent : label);
    b.title = b.getAttribute("aria-label");
  }
  const watching = C.seat === null;
  $("chat-form").hidden = watching;
  $("chat-reactions").hidden = watching;
  $("chat-watching").hidden = !watching;
  $("chat-watching").textContent = t("chat.watching");
  $("chat-empty").textContent = t("chat.empty");
  if (C.note) say(C.note);
  renderMutes();
  showPanel();
}

// Every line again (a history, a language): screen readers are not read the whole log out.
function renderLog() {
  const log = $("chat-log");
  if (!log) return;
  log.setAttribute("aria-busy", "true");
  log.setAttribute("aria-live", "off");
  log.replaceChildren(...C.messages.map(line));
  $("chat-empty").hidden = C.messages.length > 0;
  log.scrollTop = log.scrollHeight;
  setTimeout(() => {
    log.setAttribute("aria-live", "polite");
    log.removeAttribute("aria-busy");
  }, 200);
}

// A new message: added at the end (announced politely) and scrolled into view inside the log.
function appendLine(m) {
  const log = $("chat-log");
  log.append(line(m));
  while (log.childElementCount > KEEP) log.firstElementChild.remove();
  $("chat-empty").hidden = true;
  log.scrollTop = log.scrollHeight;
}

// "Name: text", the time it was said in the title. Plain text only.
function line(m) {
  const at = new Date(m.at);
  const time = Number.isNaN(at.getTime()) ? "" : at.toLocaleTimeString(currentLanguage(), { hour: "2-digit", minute: "2-digit" });
  return el(
    "p",
    { class: `chat-line chat-${m.kind === "reaction" ? "reaction" : "text"}${m.seat === C.seat ? " mine" : ""}`, title: t("chat.at", { time }) },
    el("span", { class: "chat-who" }, tn("chat.said", { name: bdi(m.name, "name") })),
    " ",
    bdi(m.text, "chat-text"),
  );
}

// The host's page: a mute / unmute button for every other person at the table.
function renderMutes() {
  const host = !!getCookie(`mdh_${S.code}`) || (C.seat !== null && C.seat === C.host);
  const others = C.players.filter((p) => (p.person ?? p.kind === "human") && p.seat !== C.seat && p.seat !== C.host);
  const box = $("chat-mutes");
  box.hidden = !host || others.length === 0;
  $("chat-mutes-h").textContent = t("chat.mutes");
  box.querySelector("ul").replaceChildren(
    ...others.map((p) =>
      el(
        "li",
        {},
        el("button", {
          type: "button",
          class: "small",
          "aria-pressed": String(!!p.muted),
          onclick: () => mute(p.seat, !p.muted),
        }, tn(p.muted ? "chat.unmute" : "chat.mute", { name: bdi(p.name || "") })),
      ),
    ),
  );
}

async function mute(seat, muted) {
  const headers = { "Content-Type": "application/json", Accept: "application/json" };
  const token = hostToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    const res = await fetch(`/api/tables/${encodeURIComponent(S.code)}/seats/${seat}/mute`, {
      method: "POST",
      headers,
      body: JSON.stringify({ muted }),
    });
    const data = await res.json().catch(() => null);
    if (!res.ok) return say({ status: res.status, ...(data?.detail?.code ? data.detail : {}) });
    takeTable(data);
    say(null);
    renderControls();
  } catch {
    say({ network: true });
  }
}
