// The intent helpers alone (`@loupe/client/intent`): pure functions over messages and transcripts,
// for callers that need them without the SDK's gRPC client (the hook).
export { callText, callValues, composeIntent, earlierMessage, MAX_EARLIER_BYTES, MAX_EARLIER_MESSAGES, MAX_INTENT_BYTES } from "./compose-intent.js";
export { intentFromAnthropicMessages, textOfContent } from "./intent-from-anthropic-messages.js";
export { intentFromClaudeTranscript, messagesFromClaudeTranscript, modelFromClaudeTranscript } from "./intent-from-claude-transcript.js";
export {
  intentFromCodexRollout,
  isRolloutToolOutput,
  isRolloutUserText,
  rolloutItems,
  saidInRolloutItem,
  type RolloutItem,
} from "./intent-from-codex-rollout.js";
export { unwrapShellCommand, WRAP_MARKER } from "./loupe-wrapper.js";
export { intentFromGeminiChat, messagesFromGeminiChat, modelFromGeminiChat, saidInGeminiReply, type ChatMessage } from "./intent-from-gemini-chat.js";
export { INJECTED_CONTEXT, jsonObjects, textOfParts } from "./transcript-lines.js";
