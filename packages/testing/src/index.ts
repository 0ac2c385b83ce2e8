export { repoRoot } from "./repo-root.js";
export { rgwDir, testStateDir } from "./test-state-dir.js";
export { freePort } from "./free-port.js";
export { s3TestEnv, s3ProcessEnv } from "./s3-test-env.js";
export { startLoupeProcess } from "./loupe-process.js";
export { rgwInstance } from "./rgw.js";
export { removeBucket } from "./remove-bucket.js";
export { createTestS3Client } from "./test-s3-client.js";
export type { S3TestEnv } from "./s3-test-env.js";
export type { LoupeProcess } from "./loupe-process.js";
export type { RgwInstance } from "./rgw.js";
export { startVendorServer } from "./vendor-server/vendor-server.js";
export { createPromptCache, estimateTokens } from "./vendor-server/prompt-cache.js";
export { validateAnthropicRequest } from "./vendor-server/validate-anthropic-request.js";
export { validateChatRequest } from "./vendor-server/validate-chat-request.js";
export { validateResponsesRequest } from "./vendor-server/validate-responses-request.js";
export type { VendorServer, VendorServerOptions, VendorFailure, ReceivedRequest } from "./vendor-server/vendor-server.js";
export type { VendorApi, VendorApiRequest } from "./vendor-server/vendor-answers.js";
export type { PromptCache, PromptCacheStats, PromptCacheUsage } from "./vendor-server/prompt-cache.js";
export { startScriptedVendor } from "./scripted-vendor/scripted-vendor.js";
export { callTool, finalText, scriptSteps, resultsOf } from "./scripted-vendor/script.js";

export type { ScriptedVendor, ScriptedVendorOptions, RecordedRequest } from "./scripted-vendor/scripted-vendor.js";
export type { VendorRoute } from "./scripted-vendor/routes.js";
export type {
  ModelAction,
  ScriptedApi,
  ScriptedRequest,
  ScriptedToolCall,
  ScriptedToolResult,
  TextAction,
  ToolAction,
  VendorScript,
} from "./scripted-vendor/script.js";
