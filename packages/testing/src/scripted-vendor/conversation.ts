import type { ScriptedApi, ScriptedRequest, ScriptedToolCall, ScriptedToolResult } from "./script.js";

/** One turn of a conversation in the common form: what the user (or runtime) or the model said. */
export interface CommonTurn {
  role: "user" | "model";
  texts: string[];
  calls: ScriptedToolCall[];
  results: ScriptedToolResult[];
}

/** What an API parser gives: the parts of a {@link ScriptedRequest} that differ per API. */
export interface ParsedConversation {
  model: string;
  tools: string[];
  system: string;
  /** Items in order, one per message or item; consecutive ones of the same role are merged here. */
  items: CommonTurn[];
}

/** A plain object's fields, or an empty object for anything else. */
export function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The value as an array (an empty one for anything else). */
export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The value as a string (`""` for anything else). */
export function str(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** Parses tool arguments sent as JSON text, keeping the text when it is not JSON. */
export function parseArgs(value: unknown): unknown {
  if (typeof value !== "string") return value ?? {};
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/**
 * The text of message content in any of the APIs' shapes: a string, or a list of parts whose
 * `text` fields are joined with `\n` (other parts are skipped; a JSON value with no text is its JSON).
 */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content
      .map(textOf)
      .filter((text) => text !== "")
      .join("\n");
  const fields = record(content);
  if (typeof fields["text"] === "string") return fields["text"];
  if (content === undefined || content === null) return "";
  return Object.keys(fields).length > 0 && fields["type"] === undefined ? JSON.stringify(content) : "";
}

function merge(items: CommonTurn[]): CommonTurn[] {
  const turns: CommonTurn[] = [];
  for (const item of items) {
    const last = turns[turns.length - 1];
    if (last?.role !== item.role) {
      turns.push({ role: item.role, texts: [...item.texts], calls: [...item.calls], results: [...item.results] });
      continue;
    }
    last.texts.push(...item.texts);
    last.calls.push(...item.calls);
    last.results.push(...item.results);
  }
  return turns;
}

/** Builds the script's view of a request from its parsed conversation. */
export function scriptedRequestOf(api: ScriptedApi, parsed: ParsedConversation, body: unknown): ScriptedRequest {
  const turns = merge(parsed.items);
  const calls = turns.flatMap((turn) => turn.calls);
  const names = new Map(calls.map((call) => [call.callId, call.name]));
  const named = (result: ScriptedToolResult): ScriptedToolResult => (result.name !== "" ? result : { ...result, name: names.get(result.callId) ?? "" });
  const last = turns[turns.length - 1];
  const prompt = turns.find((turn) => turn.role === "user" && turn.texts.some((text) => text.trim() !== ""));
  return {
    api,
    model: parsed.model,
    tools: parsed.tools,
    system: parsed.system,
    prompt: prompt?.texts.join("\n") ?? "",
    calls,
    results: turns.flatMap((turn) => turn.results).map(named),
    lastResults: last?.role === "user" ? last.results.map(named) : [],
    step: turns.filter((turn) => turn.role === "model" && turn.calls.length > 0).length,
    side: parsed.tools.length === 0,
    body,
  };
}
