import type { ProjectorContext, ProjectorInput } from "../projectors/projector.js";
import { boundIntent } from "./bound-intent.js";
import { intentTerms } from "./intent-terms.js";
import { matchIntent, NO_MATCHES, type IntentMatches } from "./match-intent.js";

// One match per projector input and intent: a projector may ask again (notice rounds, a mixed result's text part).
const cache = new WeakMap<ProjectorInput, { intent: string; matches: IntentMatches }>();

/**
 * Where the context's intent points in a projector's input (see
 * {@link matchIntent}); no matches without an intent. The intent is bounded
 * to MAX_INTENT_BYTES first. Remembered per input object.
 */
export function intentMatchesOf(input: ProjectorInput, context: Pick<ProjectorContext, "intent">): IntentMatches {
  const intent = context.intent === undefined ? "" : boundIntent(context.intent);
  if (intent.trim() === "") return NO_MATCHES;
  const known = cache.get(input);
  if (known !== undefined && known.intent === intent) return known.matches;
  const matches = matchIntent(input.text, input.lines, intentTerms(intent));
  cache.set(input, { intent, matches });
  return matches;
}
