import { IntentTracker } from "./intent-tracker.js";
import type { HistoryToolResult } from "./tool-results.js";

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** A Gemini call's key: its id when it has one, else its function's name. */
function callKey(call: Json): string {
  return typeof call["id"] === "string" && call["id"] !== "" ? call["id"] : `name:${String(call["name"])}`;
}

/**
 * Gemini `generateContent` / `streamGenerateContent` / `countTokens`: `functionResponse` parts in
 * `contents` (also inside `generateContentRequest` of countTokens). A function's response is a JSON
 * object; each of its top-level string fields (Gemini CLI puts a tool's text in `output`) is one
 * result, named by the function.
 */
export function geminiToolResults(body: Json): HistoryToolResult[] {
  const wrapped = body["generateContentRequest"];
  const contents = asArray(isObject(wrapped) ? wrapped["contents"] : body["contents"]);
  const results: HistoryToolResult[] = [];
  const intents = new IntentTracker();
  for (const content of contents) {
    if (!isObject(content)) continue;
    const parts = asArray(content["parts"]);
    const text = parts.flatMap((part) => (isObject(part) && typeof part["text"] === "string" && part["thought"] !== true ? [part["text"]] : [])).join("\n");
    // Gemini calls may have no id: a call is known by its function's name.
    const calls = parts.flatMap((part) =>
      isObject(part) && isObject(part["functionCall"])
        ? [{ id: callKey(part["functionCall"]), name: String(part["functionCall"]["name"]), input: part["functionCall"]["args"] }]
        : [],
    );
    if (content["role"] === "model") intents.assistant(text, calls);
    else intents.user(text);
    for (const part of parts) {
      const call = isObject(part) ? part["functionResponse"] : undefined;
      if (!isObject(call) || !isObject(call["response"])) continue;
      const response = call["response"];
      const toolName = typeof call["name"] === "string" ? call["name"] : "";
      const intentOf = intents.intentOf(callKey(call));
      for (const [field, value] of Object.entries(response)) {
        if (typeof value !== "string") continue;
        results.push({
          toolName,
          text: value,
          get intent() {
            return intentOf();
          },
          replace: (replacement) => (response[field] = replacement),
        });
      }
    }
  }
  return results;
}
