// The intent helpers alone (`@loupe/client/intent`): pure functions over messages and transcripts,
// for callers that need them without the SDK's gRPC client (the hook).
export { callText, composeIntent, earlierMessage, MAX_EARLIER_BYTES, MAX_EARLIER_MESSAGES, MAX_INTENT_BYTES } from "./compose-intent.js";
export { intentFromAnthropicMessages } from "./intent-from-anthropic-messages.js";
export { intentFromClaudeTranscript, messagesFromClaudeTranscript, modelFromClaudeTranscript } from "./intent-from-claude-transcript.js";
export { intentFromCodexRollout } from "./intent-from-codex-rollout.js";
export { unwrapShellCommand, WRAP_MARKER } from "./loupe-wrapper.js";
export { intentFromGeminiChat, modelFromGeminiChat } from "./intent-from-gemini-chat.js";
export { INJECTED_CONTEXT, textOfParts } from "./transcript-lines.js";
