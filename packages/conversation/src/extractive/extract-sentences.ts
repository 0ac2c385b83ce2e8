import type { TurnPart } from "../turn.js";
import { LIMITS } from "./extractive-state.js";
import { clipText, oneLine } from "./text-bounds.js";

/** A sentence or list item of prose. */
export interface Sentence {
  text: string;
  /** A list item under a line that announces a plan ("Next steps:", "Plan", "TODO"). */
  planItem: boolean;
}

// A finding or a choice: these cues carry a decision on their own.
const STRONG_CUE =
  /\b(found the (bug|issue|problem|cause)|(is|was|are|were) (wrong|incorrect|inconsistent|missing|broken)|should (also |instead |rather |not |only )?(be|use|return|call|copy|handle|raise|set|keep)|((could|might|must|may) be|is|was) the (bug|issue|problem|cause|culprit)|needs? to be (changed|fixed|updated|removed)|root cause|the fix|(the|a) (better|simpler|right|correct) (approach|way|fix)|the (problem|issue|bug|culprit|reason|cause) (is|was|here)|decided|decision|instead|because|switch(ed|ing)? to|turns out|caused by|chose|opt(ed)? (for|to)|fixed by|the solution)\b/i;
// Intentions: a decision only when they announce a change, not a look around.
const WEAK_CUE = /\b(I'll|I will|I'm going to|we'll|we will|let's|going to|we should|I should|must)\b/i;
const INTENT = "(I'll|I will|I'm going to|we'll|we will|let's|let me|going to|we should|I should)";
const LOOK =
  "(now\\s+|first\\s+|also\\s+|quickly\\s+|then\\s+)?(look|check|see|examine|view|read|open|run|try|search|find|explore|start|inspect|verify|test|investigate|understand|take|review|confirm|analy[sz]e|debug|trace|print|list|get|figure|create (a |an )?([\\w-]+ ){0,3}(test|script|reproduc))";
const EXPLORING = new RegExp(`\\b${INTENT}\\s+${LOOK}`, "i");
const OPENS_EXPLORING = new RegExp(`^((now|first|next|then|ok|okay|good|great)[,!.]?\\s+)*${INTENT}\\s+${LOOK}`, "i");
const OPENS_ACTION = /^((now|first|next|then|ok|okay|good|great)[,!.]?\s+)*(let me|let's|I'll|I will)\b/i;
const NEXT_CUE =
  /\b(next|todo|to-do|remaining|remains|still need|need to|needs to|have to|has to|after that|afterwards|follow-up)\b|^(then|and then|finally)\b/i;
const PLAN_INTRO = /\b(plan|steps|next|todo|to do|remaining|need to|still)\b/i;
const LIST_MARKER = /^(\d+[.)]|[-*•+]|\[[ xX]\])\s+/;
const MIN_SENTENCE_CHARS = 16;
const SHORT_DECISION_CHARS = 40;

/** The text parts of a turn, joined with line ends; runtime reminders (`<system-reminder>…`) removed. */
export function textOf(parts: readonly TurnPart[]): string {
  return parts
    .map((part) => (part.type === "text" ? part.text : ""))
    .filter((text) => text !== "")
    .join("\n")
    .replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, "")
    .trim();
}

/**
 * The sentences and list items of prose, in order: fenced code blocks
 * skipped, Markdown markers removed, each on one line and cut to about 280
 * characters. A sentence ends at ".", "!" or "?" followed by a space and a
 * capital letter, digit, quote or backquote (so `a.py` stays whole).
 */
export function sentencesOf(text: string): Sentence[] {
  const sentences: Sentence[] = [];
  let planList = false;
  let inCode = false;
  for (const raw of text.replace(/\r\n?/g, "\n").split("\n")) {
    const line = raw.trim();
    if (line.startsWith("```") || line.startsWith("~~~")) inCode = !inCode;
    if (inCode || line.startsWith("```") || line.startsWith("~~~") || line === "") continue;
    const marker = LIST_MARKER.exec(line);
    const body = line
      .replace(LIST_MARKER, "")
      .replace(/^(#{1,6}|>)\s*/, "")
      .replace(/\*\*|__/g, "");
    if (marker === null) planList = PLAN_INTRO.test(body) && (/:$/.test(body) || /^#/.test(line));
    for (const piece of body.split(/(?<=[.!?])\s+(?=[A-Z0-9`"'([])/)) {
      const sentence = oneLine(piece);
      if (sentence.length >= MIN_SENTENCE_CHARS) sentences.push({ text: clipText(sentence, LIMITS.sentenceChars), planItem: marker !== null && planList });
    }
  }
  return sentences;
}

/** Whether a sentence states a choice or a finding ("the fix is…", "I'll switch to…", "…because…"), not a question or a look around. */
export function isDecision(sentence: string): boolean {
  if (sentence.endsWith("?")) return false;
  // "Let me verify the fix…", "Now I'll check why…", "Let me update the fix:": a look around or an action, whatever it mentions.
  if (OPENS_EXPLORING.test(sentence) || (OPENS_ACTION.test(sentence) && sentence.endsWith(":"))) return false;
  return STRONG_CUE.test(sentence) || (WEAK_CUE.test(sentence) && !EXPLORING.test(sentence));
}

/**
 * The decisions among a text's sentences (see {@link isDecision}). A short one
 * ("This is the bug!") is joined to the sentence it points at: the one before
 * it when it opens with "This", "That" or "It", else the one after it.
 */
export function decisionsOf(sentences: readonly Sentence[]): string[] {
  const decisions: string[] = [];
  for (const [index, sentence] of sentences.entries()) {
    if (!isDecision(sentence.text)) continue;
    const before = /^(this|that|it)\b/i.test(sentence.text);
    const other = sentence.text.length >= SHORT_DECISION_CHARS ? undefined : sentences[before ? index - 1 : index + 1]?.text;
    const joined = other === undefined ? sentence.text : before ? `${other} ${sentence.text}` : `${sentence.text} ${other}`;
    decisions.push(clipText(joined, LIMITS.sentenceChars));
  }
  return decisions;
}

/** Whether a sentence names work still to do ("next", "need to", "TODO", "then …"), or is an item of a plan list. */
export function isNextStep(sentence: Sentence): boolean {
  if (sentence.text.endsWith("?")) return false;
  return sentence.planItem || NEXT_CUE.test(sentence.text);
}

/**
 * The open items of a plan tool's arguments: Claude Code `TodoWrite
 * {todos: [{content, status}]}`, Codex `update_plan {plan: [{step, status}]}`
 * and similar; completed items left out, each shown with its status.
 * Undefined when the arguments hold no such list.
 */
export function planOfArgs(args: Readonly<Record<string, unknown>>): string[] | undefined {
  const list = args["todos"] ?? args["plan"] ?? args["items"];
  if (!Array.isArray(list)) return undefined;
  const items: string[] = [];
  for (const entry of list) {
    if (typeof entry === "string") items.push(oneLine(entry));
    if (typeof entry !== "object" || entry === null) continue;
    const record = entry as Record<string, unknown>;
    const text = [record["content"], record["step"], record["text"], record["title"]].find((value): value is string => typeof value === "string");
    const status = typeof record["status"] === "string" ? record["status"] : "";
    if (text === undefined || /^(completed|done|cancelled)$/i.test(status)) continue;
    items.push(status === "" ? oneLine(text) : `[${status}] ${oneLine(text)}`);
  }
  return items.filter((item) => item !== "").map((item) => clipText(item, LIMITS.sentenceChars));
}
