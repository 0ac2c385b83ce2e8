import { readFile } from "node:fs/promises";
import { AppError, isAppError } from "@loupe/errors";
import { compileRedactionRules, DEFAULT_REDACTION_RULES, parseRedactionRules, type CompiledRule } from "@loupe/projection";

/**
 * The redaction rules in force: none when redaction is off; the file's
 * (LOUPE_REDACTION_RULES_FILE, which extends or replaces the defaults) when
 * given; else the defaults.
 * @throws AppError `invalid_argument` naming the file and every problem in it
 */
export async function loadRedactionRules(enabled: boolean, path: string | undefined): Promise<CompiledRule[] | undefined> {
  if (!enabled) return undefined;
  if (path === undefined) return compileRedactionRules(DEFAULT_REDACTION_RULES);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new AppError("invalid_argument", `cannot read LOUPE_REDACTION_RULES_FILE [path=${path}]`, { cause: error });
  }
  try {
    return compileRedactionRules(parseRedactionRules(text));
  } catch (error) {
    if (isAppError(error)) throw new AppError("invalid_argument", `LOUPE_REDACTION_RULES_FILE is invalid [path=${path}]: ${error.message}`, { cause: error });
    throw error;
  }
}
