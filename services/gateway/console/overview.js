// Overview: tokens kept out of context per app and hour, what Loupe did, every app's rule (editable), the sessions.
import { api, session, teamPath } from "./api.js";
import { el, number, show, svg } from "./dom.js";

const RULE_FIELDS = [
  ["keep_limit_chars", "Cut results over (characters, 0 = off)"],
  ["keep_head_chars", "Keep head (characters)"],
  ["keep_tail_chars", "Keep tail (characters)"],
  ["budget_tokens", "First-view budget (tokens, 0 = default)"],
];
const COLORS = ["#2457c5", "#c5572a", "#2a9d6a", "#8a4fc5", "#c59a24", "#2496c5"];

export async function overview() {
  const [{ sources }, ledger] = await Promise.all([api(teamPath("sources")), api(teamPath("ledger?limit=500"))]);
  const rules = el("section", { class: "card", "aria-labelledby": "apps" }, el("h2", { id: "apps" }, "Apps and their rules"));
  for (const source of sources) rules.append(await ruleForm(source));
  const add = el("input", { id: "new-app", placeholder: "app name, as in x-loupe-source" });
  rules.append(
    el(
      "form",
      {
        class: "rule",
        onsubmit: async (event) => {
          event.preventDefault();
          if (add.value.trim() !== "") rules.insertBefore(await ruleForm(add.value.trim()), event.target);
          add.value = "";
        },
      },
      el("label", { for: "new-app" }, "Another app", add),
      el("button", { type: "submit", class: "quiet" }, "Edit its rule"),
    ),
  );
  show(el("h1", {}, `Overview — team ${session.team}`), savedChart(ledger.entries), activity(ledger.entries), rules, sessions(ledger.entries));
}

async function ruleForm(source) {
  const answer = await api(teamPath(`source-limits?source=${encodeURIComponent(source)}`));
  const limit = answer.limit ?? {};
  const id = (field) => `${source}-${field}`.replace(/[^A-Za-z0-9_-]/g, "_");
  const inputs = RULE_FIELDS.map(([field, label]) => [
    field,
    el("input", { id: id(field), name: field, inputmode: "numeric", value: String(limit[field] ?? 0) }),
    label,
  ]);
  const tools = el("input", { id: id("keep_tools"), name: "keep_tools", value: (limit.keep_tools ?? []).join(", ") });
  const status = el("p", { role: "status", class: "muted" }, answer.warning ?? "");
  const form = el(
    "form",
    {
      class: "rule",
      "data-source": source,
      onsubmit: async (event) => {
        event.preventDefault();
        const body = {
          source,
          keep_tools: tools.value
            .split(",")
            .map((tool) => tool.trim())
            .filter(Boolean),
        };
        for (const [field, input] of inputs) body[field] = Number(input.value);
        try {
          const stored = await api(teamPath("source-limits"), { method: "PUT", body: JSON.stringify(body) });
          status.className = "stored";
          status.textContent = `Stored (rule version ${stored.limit?.version ?? "?"}).${stored.warning ? ` ${stored.warning}` : ""}`;
        } catch (error) {
          status.className = "refusal";
          status.textContent = `Refused: ${error.message}`;
        }
      },
    },
    ...inputs.map(([, input, label]) => el("label", { for: input.id }, label, input)),
    el("label", { for: tools.id }, "Cut these tools (keep_tools)", tools),
    el("button", { type: "submit" }, `Save ${source}`),
  );
  return el("div", {}, el("h2", {}, source), form, status);
}

/** Tokens kept out of context per app (projections and cuts), per hour, as stacked bars. */
function savedChart(entries) {
  const byHour = new Map();
  const apps = new Set();
  for (const entry of entries) {
    if (entry.kind !== "projection" && entry.kind !== "cut") continue;
    const hour = entry.time.slice(0, 13);
    const app = entry.source || "(no app)";
    apps.add(app);
    const row = byHour.get(hour) ?? new Map();
    row.set(app, (row.get(app) ?? 0) + Math.max(0, entry.tokens_before - entry.tokens_after));
    byHour.set(hour, row);
  }
  const hours = [...byHour.keys()].sort().slice(-24);
  const names = [...apps].sort();
  const top = Math.max(1, ...hours.map((hour) => [...byHour.get(hour).values()].reduce((sum, value) => sum + value, 0)));
  const width = 720;
  const height = 180;
  const bar = width / Math.max(hours.length, 1);
  const chart = svg("svg", { class: "chart", viewBox: `0 0 ${width} ${height + 20}`, role: "img", "aria-label": "Tokens saved per hour, by app" });
  hours.forEach((hour, index) => {
    let y = height;
    names.forEach((app, color) => {
      const value = byHour.get(hour).get(app) ?? 0;
      const h = (value / top) * (height - 10);
      y -= h;
      chart.append(
        svg(
          "rect",
          { x: index * bar + 2, y, width: Math.max(1, bar - 4), height: h, fill: COLORS[color % COLORS.length] },
          svg("title", {}, document.createTextNode(`${hour}:00 ${app}: ${number(value)} tokens`)),
        ),
      );
    });
    chart.append(svg("text", { x: index * bar + 2, y: height + 14 }, document.createTextNode(`${hour.slice(11)}h`)));
  });
  const legend = el("p", { class: "legend" }, ...names.map((app, color) => el("span", {}, swatch(COLORS[color % COLORS.length]), app)));
  const total = entries.reduce(
    (sum, entry) => (entry.kind === "projection" || entry.kind === "cut" ? sum + Math.max(0, entry.tokens_before - entry.tokens_after) : sum),
    0,
  );
  return el(
    "section",
    { class: "card" },
    el("h2", {}, `Tokens kept out of context: ${number(total)}`),
    hours.length === 0 ? el("p", { class: "muted" }, "Nothing projected or cut yet.") : chart,
    legend,
  );
}
const swatch = (color) => svg("svg", { class: "swatch", viewBox: "0 0 10 10", "aria-hidden": "true" }, svg("rect", { width: 10, height: 10, fill: color }));

/** Projections per tool kind, recoveries, cuts, compactions by path and deletions. */
function activity(entries) {
  const counts = new Map();
  const add = (label) => counts.set(label, (counts.get(label) ?? 0) + 1);
  for (const entry of entries) {
    if (entry.kind === "projection") add(`projections: ${/\(([a-z_]+)\)/.exec(entry.detail)?.[1] ?? "other"}`);
    else if (entry.kind === "compaction") add(`compactions: ${entry.detail.split(":")[0]}`);
    else add(`${entry.kind === "recovery" ? "recoveries" : entry.kind === "cut" ? "history cuts" : "deletions"}`);
  }
  const rows = [...counts.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([label, count]) => el("tr", {}, el("td", {}, label), el("td", { class: "num" }, number(count))));
  return el(
    "section",
    { class: "card" },
    el("h2", {}, "What Loupe did (latest 500 entries)"),
    rows.length === 0
      ? el("p", { class: "muted" }, "Nothing yet.")
      : el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "operation"), el("th", { class: "num" }, "count"))), el("tbody", {}, rows)),
  );
}

/** The sessions the ledger saw, latest first, each with its note's lag once GetNote answers. */
function sessions(entries) {
  const latest = new Map();
  for (const entry of entries) if (entry.session_id !== "" && !latest.has(entry.session_id)) latest.set(entry.session_id, entry);
  const items = [...latest.entries()].map(([id, entry]) => {
    const lag = el("span", { class: "muted" }, "");
    void api("/v1/get-note", { method: "POST", body: JSON.stringify({ session_id: id }) })
      .then((answer) => {
        const note = answer.note;
        if (note !== undefined) lag.textContent = ` — note v${note.version ?? 1} lags ${number(note.lag_tokens ?? note.lagTokens ?? 0)} tokens`;
        else lag.textContent = " — no note yet";
      })
      .catch((error) => {
        // A session that only projected results streams no turns: it has no note to lag.
        if (error.status === 404) lag.textContent = " — no turns streamed, no note";
      });
    return el(
      "li",
      {},
      el("a", { href: `#/session/${encodeURIComponent(id)}` }, id),
      el("span", { class: "muted" }, ` — last ${entry.kind} ${entry.time.replace("T", " ").slice(0, 19)}`),
      lag,
    );
  });
  return el("section", { class: "card" }, el("h2", {}, "Sessions"), items.length === 0 ? el("p", { class: "muted" }, "No session yet.") : el("ul", {}, items));
}
