// A session (its ledger and handover note) and a saved original (page by page).
import { api, teamPath } from "./api.js";
import { el, number, show } from "./dom.js";

export async function sessionPage(sessionId) {
  const [ledger, note] = await Promise.all([
    api(teamPath(`ledger?session_id=${encodeURIComponent(sessionId)}&limit=200`)),
    api("/v1/get-note", { method: "POST", body: JSON.stringify({ session_id: sessionId }) }).catch(() => ({})),
  ]);
  const rows = ledger.entries.map((entry) => {
    const handle = entry.handle_json === "" ? undefined : JSON.parse(entry.handle_json);
    const open = handle?.result_id ? el("a", { href: `#/result/${encodeURIComponent(handle.result_id)}` }, "open original") : "";
    return el(
      "tr",
      {},
      el("td", {}, entry.time.replace("T", " ").slice(0, 19)),
      el("td", {}, entry.kind),
      el("td", {}, entry.detail),
      el("td", { class: "num" }, `${number(entry.tokens_before)} → ${number(entry.tokens_after)}`),
      el("td", {}, open),
    );
  });
  const text = note.note?.text ?? "";
  show(
    el("h1", {}, `Session ${sessionId}`),
    el(
      "section",
      { class: "card" },
      el("h2", {}, "Ledger"),
      el("table", {}, el("thead", {}, el("tr", {}, ...["time", "kind", "what", "tokens", ""].map((name) => el("th", {}, name)))), el("tbody", {}, rows)),
    ),
    el("section", { class: "card" }, el("h2", {}, "Handover note"), text === "" ? el("p", { class: "muted" }, "No note yet.") : el("pre", {}, text)),
  );
}

// ---------- a saved original, page by page
export async function resultPage(resultId) {
  const body = el("pre", { id: "original" });
  const more = el("button", { type: "button", class: "quiet" }, "Next page");
  let cursor = "";
  const next = async () => {
    const page = await api("/v1/recover", {
      method: "POST",
      body: JSON.stringify(cursor === "" ? { result_id: resultId, budget_tokens: 4000 } : { result_id: resultId, cursor, budget_tokens: 4000 }),
    });
    for (const part of page.parts ?? []) if (part.text !== undefined) body.append(document.createTextNode(part.text));
    cursor = page.next_cursor ?? page.nextCursor ?? "";
    more.hidden = cursor === "";
  };
  more.addEventListener("click", () => void next());
  await next();
  show(el("h1", {}, `Saved original ${resultId}`), el("section", { class: "card" }, body, more));
}
