// Loupe's console: Overview (apps and their rules, saved tokens, what Loupe did), a session's ledger and
// note, and any saved original. Plain browser JavaScript modules; every datum comes from Loupe's own API.
import { api, ApiError, session, TOKEN_KEY } from "./api.js";
import { el, show } from "./dom.js";
import { overview } from "./overview.js";
import { resultPage, sessionPage } from "./pages.js";

const who = document.getElementById("who");

// ---------- sign-in
function signIn(message) {
  const input = el("input", { id: "token", type: "password", autocomplete: "off", required: "" });
  show(
    el("h1", {}, "Sign in"),
    el(
      "form",
      {
        class: "card",
        onsubmit: (event) => {
          event.preventDefault();
          sessionStorage.setItem(TOKEN_KEY, input.value.trim());
          void route();
        },
      },
      el("p", { class: "muted" }, message),
      el("label", { for: "token" }, "Token (from loupe token create)", input),
      el("p", {}, el("button", { type: "submit" }, "Sign in")),
    ),
  );
  input.focus();
}

// ---------- routing
async function route() {
  try {
    const me = await api("/api/whoami");
    session.team = me.team;
    who.textContent = `team ${session.team}${me.admin ? " (admin)" : ""}`;
    const [, page, id] = /^#\/(session|result)\/(.+)$/.exec(location.hash) ?? [];
    if (page === "session") await sessionPage(decodeURIComponent(id));
    else if (page === "result") await resultPage(decodeURIComponent(id));
    else await overview();
  } catch (error) {
    if (error instanceof ApiError && error.status === 401)
      signIn(sessionStorage.getItem(TOKEN_KEY) ? "That token was refused." : "This Loupe asks for a token.");
    else show(el("h1", {}, "Something went wrong"), el("p", { class: "refusal" }, String(error.message ?? error)));
  }
}
window.addEventListener("hashchange", () => void route());
void route();
