/** The model APIs the scripted vendor speaks. */
export type ScriptedApi = "anthropic" | "openai-responses" | "openai-chat" | "gemini";

/** A tool call the model made earlier in the conversation. */
export interface ScriptedToolCall {
  /** The call's id as the API carries it (Gemini calls may have none: then `""`). */
  callId: string;
  name: string;
  /** The parsed arguments (the raw string when they are not JSON). */
  args: unknown;
}

/** A tool result the runtime sent back, reduced to its text. */
export interface ScriptedToolResult {
  callId: string;
  /** The name of the call it answers (from the matching call, or the result itself for Gemini). */
  name: string;
  /** Every text part of the result, joined with `\n` (a JSON result is its JSON text). */
  text: string;
  /** What the API marks as an error (`is_error`, Gemini's `response.error`); false where it cannot say. */
  isError: boolean;
}

/**
 * A model request as the script sees it: the conversation so far, parsed per API into one form.
 * `step` counts the model turns that called tools, so a script that is a list of steps picks
 * `steps[step]` and stays the same when the runtime retries a request.
 */
export interface ScriptedRequest {
  api: ScriptedApi;
  model: string;
  /** Names of the tools offered in this request, in order. */
  tools: string[];
  /** The system prompt's text (empty if none). */
  system: string;
  /** The text of the first user message that is not a tool result. */
  prompt: string;
  /** Every tool call the model made so far, in order. */
  calls: ScriptedToolCall[];
  /** Every tool result the runtime sent so far, in order. */
  results: ScriptedToolResult[];
  /** The results after the model's last turn (empty if the last message is not a tool result). */
  lastResults: ScriptedToolResult[];
  /** Model turns so far that called at least one tool. */
  step: number;
  /** True when the request offers no tools: a side request (title, summary, check) that the script does not answer. */
  side: boolean;
  /** The request body, parsed. */
  body: unknown;
}

/** The model calls one tool (with optional text before the call). */
export interface ToolAction {
  kind: "tool";
  name: string;
  args: Record<string, unknown>;
  text?: string;
}

/** The model answers with text and ends its turn. */
export interface TextAction {
  kind: "text";
  text: string;
}

/** What the scripted model does next. */
export type ModelAction = ToolAction | TextAction;

/** A function from the conversation so far to the model's next action. */
export type VendorScript = (request: ScriptedRequest) => ModelAction;

/** A tool call action. */
export function callTool(name: string, args: Record<string, unknown>, text?: string): ToolAction {
  return text === undefined ? { kind: "tool", name, args } : { kind: "tool", name, args, text };
}

/** A final text action. */
export function finalText(text: string): TextAction {
  return { kind: "text", text };
}

/**
 * A script that plays `steps` in order: step n (the number of tool-calling model turns so far)
 * gets `steps[n]`, or its value for the request when it is a function. Past the end it answers
 * `finalText(done)`.
 */
export function scriptSteps(steps: ReadonlyArray<ModelAction | VendorScript>, done = "Done."): VendorScript {
  return (request) => {
    const step = steps[request.step];
    if (step === undefined) return finalText(done);
    return typeof step === "function" ? step(request) : step;
  };
}

/** Finds what the runtime sent for the calls to one tool, in order. */
export function resultsOf(request: ScriptedRequest, toolName: string): ScriptedToolResult[] {
  return request.results.filter((result) => result.name === toolName);
}
