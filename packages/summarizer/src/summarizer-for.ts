import { createExtractiveSummarizer, type ExtractiveSummarizerOptions, type Summarizer } from "@loupe/conversation";
import { AppError, isAppError } from "@loupe/errors";
import { resolveApiKey } from "./resolve-api-key.js";
import { checkOptions, type VendorSummarizerOptions } from "./summarizer-options.js";

/** A source's summarizer settings (as rules store them: a key reference, never a key). "" = the default. */
export interface SummarizerSettings {
  driver: string;
  model: string;
  baseUrl: string;
  keyRef: string;
}

/** Defaults for settings a source leaves empty, from LOUPE_SUMMARIZER_* variables. */
export function summarizerDefaults(env: NodeJS.ProcessEnv): SummarizerSettings {
  return {
    driver: env["LOUPE_SUMMARIZER_DRIVER"] ?? "",
    model: env["LOUPE_SUMMARIZER_MODEL"] ?? "",
    baseUrl: env["LOUPE_SUMMARIZER_BASE_URL"] ?? "",
    keyRef: env["LOUPE_SUMMARIZER_KEY_REF"] ?? "",
  };
}

const DEFAULT_MODELS: Readonly<Record<string, string>> = { anthropic: "claude-haiku-4-5", openai: "gpt-5-mini" };

/**
 * Chooses the summarizer a source's settings select, filling empty fields from `defaults`: `extractive`
 * (also when no driver is set anywhere), `anthropic` or `openai`. Instances are cached per settings. A key
 * that cannot be resolved gives a summarizer that fails with `failed_precondition` naming the reference
 * only, so callers fall back to the extractive one and say why.
 */
export function createSummarizerFor(
  defaults: SummarizerSettings,
  env: NodeJS.ProcessEnv,
  extractiveOptions: ExtractiveSummarizerOptions = {},
): (settings: SummarizerSettings) => Summarizer {
  const extractive = createExtractiveSummarizer(extractiveOptions);
  const cache = new Map<string, Summarizer>();
  return (settings) => {
    const merged = {
      driver: settings.driver || defaults.driver || "extractive",
      model: settings.model || defaults.model,
      baseUrl: settings.baseUrl || defaults.baseUrl,
      keyRef: settings.keyRef || defaults.keyRef,
    };
    if (merged.driver === "extractive") return extractive;
    const id = JSON.stringify(merged);
    const cached = cache.get(id);
    if (cached !== undefined) return cached;
    const { summarizer, built } = build(merged, env);
    // One that could not be set up (a key not there yet) is built again next time, so a key set later is found.
    if (built) cache.set(id, summarizer);
    return summarizer;
  };
}

function build(settings: SummarizerSettings, env: NodeJS.ProcessEnv): { summarizer: Summarizer; built: boolean } {
  try {
    const options = {
      apiKey: resolveApiKey(settings.keyRef, env),
      model: settings.model || (DEFAULT_MODELS[settings.driver] ?? ""),
      ...(settings.baseUrl === "" ? {} : { baseURL: settings.baseUrl }),
    };
    if (settings.driver === "anthropic" || settings.driver === "openai") return { summarizer: vendorSummarizer(settings.driver, options), built: true };
    throw new AppError("invalid_argument", `unknown summarizer driver [driver=${settings.driver.slice(0, 40)}]`);
  } catch (error) {
    const failure = isAppError(error) ? error : new AppError("failed_precondition", "summarizer could not be set up");
    const summarizer: Summarizer = {
      name: settings.driver,
      summarize: () => Promise.reject(new AppError(failure.code === "invalid_argument" ? "invalid_argument" : "failed_precondition", failure.message)),
    };
    return { summarizer, built: false };
  }
}

/**
 * A vendor's summarizer whose SDK is loaded with its first note: the options are checked at once (as
 * building it checks them), the vendor's SDK — about 25 MB resident and a third of a second to load
 * each, which a Loupe without a vendor summarizer never needs — only when a note is asked for.
 */
function vendorSummarizer(driver: "anthropic" | "openai", options: VendorSummarizerOptions): Summarizer {
  checkOptions(driver, options);
  let built: Promise<Summarizer> | undefined;
  const load = async (): Promise<Summarizer> =>
    driver === "anthropic"
      ? (await import("./anthropic-summarizer.js")).createAnthropicSummarizer(options)
      : (await import("./openai-summarizer.js")).createOpenAISummarizer(options);
  return {
    name: driver,
    summarize: async (input, summarizeOptions) => (await (built ??= load())).summarize(input, summarizeOptions),
  };
}
