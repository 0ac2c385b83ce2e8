import { dropContained, extractEvidence, knownBefore, type EvidenceItem } from "./extract-evidence.js";

/** An item of a next action drawn from results older than the one just returned, and which of them hold it. */
export interface EarlierEvidenceItem extends EvidenceItem {
  /** Indexes (in the trajectory) of the earlier results whose output holds the item, oldest first. */
  readonly steps: readonly number[];
}

/**
 * The items of `nextAction` (as extractEvidence finds them) that the agent can only have taken from an earlier
 * result of its task: not in the result just returned (`output`: that is the call's own evidence), the task,
 * the call's arguments or the intent (the agent's own messages, which every policy carries), and in the
 * output of at least one of `earlierOutputs`; of those, an item contained in a longer one is dropped. What a
 * policy that edits the history after the first views can lose (context editing clears old results). Pure.
 */
export function earlierEvidenceOf(call: {
  nextAction: string;
  output: string;
  earlierOutputs: readonly string[];
  task: string;
  argsText: string;
  intent: string;
  /** `extractEvidence(nextAction)` when the caller has it already. */
  candidates?: readonly EvidenceItem[];
}): EarlierEvidenceItem[] {
  const knownToAgent = knownBefore(call);
  const known = (text: string): boolean => call.output.includes(text) || knownToAgent(text);
  const items: EarlierEvidenceItem[] = [];
  for (const item of call.candidates ?? extractEvidence(call.nextAction)) {
    if (known(item.text)) continue;
    const steps: number[] = [];
    call.earlierOutputs.forEach((output, index) => {
      if (output.includes(item.text)) steps.push(index);
    });
    if (steps.length > 0) items.push({ ...item, steps });
  }
  return dropContained(items);
}
