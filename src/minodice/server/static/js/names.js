// The name fields (create a table, take a seat): the limit said before it is reached.
// The limit is the server's (GET /api/options `name.max_length`, protocol.NAME_MAX), never
// retyped here. Under the field: "Up to 24 characters", then a live count when the name is
// near the limit; a paste or key that the limit cuts is said in words; the server's refusal
// of a name (`name_too_long`, `name_bot`, …) is said in words next to the field.
import { errorText } from "./codes.js";
import { el } from "./dom.js";
import { onLanguage, t } from "./i18n.js";
import { S } from "./state.js";

const NEAR = 5; // the count shows from this many characters before the limit
const fields = new Set();

function limit() {
  return Number(S.options?.name?.max_length) || null;
}

// The note under the field: its id, created once after the field's label.
function noteOf(input) {
  let note = document.getElementById(`${input.id}-note`);
  if (!note) {
    note = el("p", { id: `${input.id}-note`, class: "status name-note", "aria-live": "polite" });
    (input.closest("label") || input).after(note);
    input.setAttribute("aria-describedby", note.id);
  }
  return note;
}

function render(input) {
  const max = limit();
  const note = noteOf(input);
  if (input.dataset.refused) return; // the refusal stays until the name is changed
  note.className = "status name-note";
  if (!max) {
    note.textContent = "";
    return;
  }
  const n = input.value.length;
  if (input.dataset.cut) note.textContent = t("name.cut", { limit: max });
  else if (n >= max - NEAR) note.textContent = t("name.count", { n, limit: max });
  else note.textContent = t("name.limit", { limit: max });
}

// A key or paste that would pass the limit: the browser keeps the first characters; say so.
function beforeInput(ev) {
  const input = ev.target;
  const max = limit();
  if (!max || typeof ev.data !== "string" || !ev.data) return;
  const chosen = (input.selectionEnd ?? 0) - (input.selectionStart ?? 0);
  if (input.value.length - chosen + ev.data.length > max) input.dataset.cut = "1";
}

/** Give a name field the server's limit, its hint and live count (again after a language change). */
export function nameField(input) {
  if (!input) return;
  const max = limit();
  if (max) input.maxLength = max;
  if (!fields.has(input)) {
    fields.add(input);
    input.addEventListener("beforeinput", beforeInput);
    input.addEventListener("input", () => {
      delete input.dataset.refused;
      input.removeAttribute("aria-invalid");
      render(input);
      delete input.dataset.cut;
    });
  }
  render(input);
}

onLanguage(() => fields.forEach(render));

/** If the server refused the name typed in `input` (a `name_*` code), say why next to it and focus
 * it: true. Else false (the caller shows the error its own way). */
export function nameRefused(input, err) {
  if (!input || typeof err?.code !== "string" || !err.code.startsWith("name_")) return false;
  const note = noteOf(input);
  input.dataset.refused = "1";
  input.setAttribute("aria-invalid", "true");
  note.className = "pad-refused name-note";
  note.textContent = errorText(err);
  input.focus();
  return true;
}
