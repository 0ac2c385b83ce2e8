import { callText, composeIntent, earlierMessage, MAX_EARLIER_MESSAGES } from "@loupe/client";

/** A call an assistant message made: its id (how its result names it), its tool and its arguments. */
export interface TrackedCall {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}

/**
 * The intent of each call as a history walk finds it, from the history before its result alone (so it
 * is fixed once the result is in the history): the task (the first non-empty user message), the
 * assistant's earlier messages with their calls, and the text of the message that made the call.
 */
export class IntentTracker {
  private task = "";
  private readonly earlier: string[] = [];
  private lastText: string | undefined;
  private readonly asked = new Map<string, { text: string; earlier: readonly string[] }>();

  /** A user message's text: the first non-empty one is the task. */
  user(text: string): void {
    if (this.task === "" && text.trim() !== "") this.task = text;
    this.lastText = undefined;
  }

  /**
   * An assistant message's text and the calls it made. Calls given one by one with the same text
   * (flat Responses items) are one message's.
   */
  assistant(text: string, calls: readonly TrackedCall[]): void {
    const sameMessage = this.lastText === text && text.trim() !== "" && this.earlier.length > 0;
    const before = sameMessage ? this.earlier.slice(0, -1) : this.earlier.slice();
    for (const call of calls) this.asked.set(call.id, { text, earlier: before });
    const said = calls.map((call) => callText(call.name, call.input));
    if (sameMessage) this.earlier[this.earlier.length - 1] = [this.earlier.at(-1) ?? "", ...said].join("\n");
    else this.earlier.push(earlierMessage(text, said));
    if (this.earlier.length > MAX_EARLIER_MESSAGES) this.earlier.shift();
    this.lastText = text;
  }

  /**
   * The intent of the call `callId` as the history so far gives it (the task alone when the call is
   * unknown), composed when first asked for: a long history has hundreds of results and the cut
   * projects few of them. Taken now, so what the walk meets later (a Gemini call known by its name
   * only, made again) does not change it.
   */
  intentOf(callId: string): () => string {
    const asked = this.asked.get(callId);
    const task = this.task;
    let intent: string | undefined;
    return () => (intent ??= composeIntent(task, asked?.text ?? "", asked?.earlier ?? []));
  }
}
