// Words for the server's codes. Reasons, refusals and errors arrive as {code, params}
// (minodice/codes.py lists every code); each is translated from its "code.<code>" key,
// with die, face and rule-option names in params translated too. No rule is worked
// out here: the server says what happened and why.
import { has, t } from "./i18n.js";

// Params that name a die, a face or a rule option → the prefix of their translation keys.
const NAMED = { die: "die", colour: "die", face: "face", beaten: "face", which: "rule.all_flags" };

function words(params) {
  const out = {};
  for (const [name, value] of Object.entries(params || {})) {
    const key = NAMED[name] && typeof value === "string" ? `${NAMED[name]}.${value}` : null;
    out[name] = key && has(key) ? t(key) : value;
  }
  return out;
}

/** The words of `code` with its params, in the current language ("" for an unknown code). */
export function codeText(code, params = {}) {
  if (!has(`code.${code}`)) return "";
  const p = words(params);
  let text = t(`code.${code}`, p);
  if (params?.tie) text += t("code.tie", p); // of equal faces, the later roll wins
  return text;
}

/** A reason {code, params} (a trick's, a bonus's, a refusal's) in words; "" for none. */
export function reasonText(reason) {
  return reason ? codeText(reason.code, reason.params) : "";
}

function sentence(text) {
  return text ? text.charAt(0).toLocaleUpperCase() + text.slice(1) : text;
}

/** What to tell the player about a failed request: the server's code in words, or a generic text. */
export function errorText(err) {
  if (err && typeof err === "object") {
    const text = typeof err.code === "string" ? codeText(err.code, err.params) : "";
    if (text) return sentence(text);
    if (err.status === 404) return t("error.not_found");
    if (err.network) return t("error.network");
    // A code this page has no words for (a newer server): its own message, shortened.
    if (typeof err.code === "string" && typeof err.message === "string" && err.message.trim()) {
      return t("error.untranslated", { message: err.message.replace(/[\u0000-\u001f\u007f-\u009f]/g, " ").slice(0, 160) });
    }
  }
  return t("error.generic");
}
