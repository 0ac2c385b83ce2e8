import type { TokenEncoding } from "../token-counter.js";

/** Hard cap on the UTF-8 bytes of a first view's text, whatever its token budget. */
export const MAX_VIEW_BYTES = 50 * 1024;

/** Tokens per first view when neither the request nor the source's rule sets a budget. */
export const DEFAULT_BUDGET_TOKENS = 2000;

/** How Loupe counts tokens for one model. */
export interface ModelProfile {
  /** The encoding Loupe counts with (gpt-tokenizer). */
  encoding: TokenEncoding;
  /** True when `encoding` is the model's own tokenizer, so counts are exact; false when they are estimates. */
  exact: boolean;
  /**
   * How many more tokens the model's own tokenizer may count than `encoding`,
   * as a ratio (0.45 = up to 45% more); 0 for exact profiles. The projector
   * gets budget / (1 + marginRatio) so the model's real count stays within the
   * budget (see `effectiveBudget`).
   */
  marginRatio: number;
  defaultBudgetTokens: number;
}

/** Options of `modelProfileFor`. */
export interface ModelProfileOptions {
  /** Overrides DEFAULT_BUDGET_TOKENS (e.g. from the gateway's configuration). */
  defaultBudgetTokens?: number;
}

/**
 * Margins for estimated families: the 99th percentile of (family tokenizer
 * count / o200k count) over corpus tool outputs where a tokenizer was
 * available to measure, rounded up to 0.05; public measurements otherwise.
 * docs/kind-inference.md ("Token budgets per model") gives the figures.
 */
export const ESTIMATE_MARGINS = Object.freeze({
  /** Llama 3 tokenizer: p99 1.063. */
  llama3: 0.1,
  /** DeepSeek V3 tokenizer: p99 1.215 (1.237 on outputs over 8,000 characters). */
  deepseek: 0.25,
  /** Qwen 3 tokenizer: p99 1.197 on outputs over 8,000 characters. */
  qwen: 0.2,
  /** Gemma/Gemini SentencePiece tokenizer: p99 1.543. */
  gemini: 0.55,
  /** Claude before Opus 4.7: Claude 2's public tokenizer p99 1.408; Claude 3.5 counts ~30% more than o200k on Python. */
  claude: 0.45,
  /** Claude Opus 4.7 and later: a new tokenizer counting up to 1.35× (Anthropic) to 1.47× (measured) more than 4.6. */
  claudeNewTokenizer: 1.0,
  /** Any other model: no tokenizer to measure; covers the p99 of two of the four measured families and the p90 of three. */
  other: 0.25,
});

const O200K_OPENAI = /^(?:gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|gpt-oss|o1|o3|o4|codex)(?:$|[-.:_ ])/;
const CL100K_OPENAI = /^(?:gpt-4|gpt-3\.5|gpt-35|text-embedding-3|text-embedding-ada)(?:$|[-.:_ ])/;

/**
 * The counting profile for a model name as vendors and routers write it
 * ("gpt-4o-2024-08-06", "openai/gpt-4.1", "claude-sonnet-4-5",
 * "us.anthropic.claude-3-7-sonnet-20250219-v1:0", "gemini-2.5-pro",
 * "meta-llama/Llama-3.1-70B-Instruct"; case-insensitive, a router prefix up to
 * the last "/" ignored):
 * - OpenAI gpt-4o, gpt-4.1, gpt-4.5, gpt-5*, o1/o3/o4*, gpt-oss → o200k_base, exact;
 * - OpenAI gpt-4, gpt-4-turbo, gpt-3.5 → cl100k_base, exact;
 * - everything else (Claude, Gemini, Llama, DeepSeek, Qwen, unknown, "") → o200k_base as
 *   an estimate with the family's margin (`ESTIMATE_MARGINS`).
 * Every profile's default budget is DEFAULT_BUDGET_TOKENS unless overridden.
 */
export function modelProfileFor(model: string, options: ModelProfileOptions = {}): ModelProfile {
  const defaultBudgetTokens = options.defaultBudgetTokens ?? DEFAULT_BUDGET_TOKENS;
  const name = model.trim().toLowerCase();
  const last = name.slice(name.lastIndexOf("/") + 1);
  if (O200K_OPENAI.test(last)) return { encoding: "o200k_base", exact: true, marginRatio: 0, defaultBudgetTokens };
  if (CL100K_OPENAI.test(last)) return { encoding: "cl100k_base", exact: true, marginRatio: 0, defaultBudgetTokens };
  return { encoding: "o200k_base", exact: false, marginRatio: estimateMargin(name), defaultBudgetTokens };
}

function estimateMargin(name: string): number {
  if (name.includes("claude")) return usesNewClaudeTokenizer(name) ? ESTIMATE_MARGINS.claudeNewTokenizer : ESTIMATE_MARGINS.claude;
  if (/gemini|gemma/.test(name)) return ESTIMATE_MARGINS.gemini;
  if (name.includes("deepseek")) return ESTIMATE_MARGINS.deepseek;
  if (/qwen|qwq/.test(name)) return ESTIMATE_MARGINS.qwen;
  if (/llama-?3/.test(name)) return ESTIMATE_MARGINS.llama3;
  return ESTIMATE_MARGINS.other;
}

/** Claude 4.7 and later ("claude-opus-4-7", "claude-opus-4.7", "claude-sonnet-5"). */
function usesNewClaudeTokenizer(name: string): boolean {
  const version = /claude-(?:(?:opus|sonnet|haiku|instant)-)?(\d+)(?:[-.](\d{1,2})(?!\d))?/.exec(name);
  if (version === null) return false;
  const major = Number(version[1]);
  const minor = Number(version[2] ?? 0);
  return major > 4 || (major === 4 && minor >= 7);
}
