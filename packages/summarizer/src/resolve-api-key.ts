import { join } from "node:path";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { AppError } from "@loupe/errors";

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Reads an API key from a reference: `env:NAME` (the variable `NAME` of `env`), `secret:NAME` (the file NAME
 * under LOUPE_SECRETS_DIR, default /run/secrets) or `file:/path` (the
 * file's text, trimmed; `file:///path` URLs work too). Throws `invalid_argument` for any other
 * reference — without repeating it, as it may be a key pasted by mistake — and `failed_precondition`
 * naming the reference (never a value) when the variable is unset or blank, or the file is missing,
 * unreadable or blank.
 */
export function resolveApiKey(reference: string, env: NodeJS.ProcessEnv): string {
  const trimmed = reference.trim();
  if (trimmed.startsWith("env:")) {
    const name = trimmed.slice("env:".length);
    if (!ENV_NAME.test(name)) throw new AppError("invalid_argument", "api key reference env:NAME needs a variable name of letters, digits and underscores");
    const value = env[name]?.trim() ?? "";
    if (value === "") throw new AppError("failed_precondition", `api key not set [reference=env:${name}]`);
    return value;
  }
  if (trimmed.startsWith("secret:")) {
    // A mounted secret (Docker and Kubernetes): a file named NAME under LOUPE_SECRETS_DIR (default /run/secrets).
    const name = trimmed.slice("secret:".length);
    if (!/^[A-Za-z0-9_.-]{1,200}$/.test(name) || name.startsWith("."))
      throw new AppError("invalid_argument", "api key reference secret:NAME needs a file name");
    return resolveApiKey(`file:${join(env["LOUPE_SECRETS_DIR"] ?? "/run/secrets", name)}`, env);
  }
  if (trimmed.startsWith("file:")) {
    const rest = trimmed.slice("file:".length);
    if (rest === "") throw new AppError("invalid_argument", "api key reference file:/path needs a path");
    const path = rest.startsWith("//") ? fileURLToPath(trimmed) : rest;
    let value: string;
    try {
      value = readFileSync(path, "utf8").trim();
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? "unreadable";
      throw new AppError("failed_precondition", `api key file not readable [reference=file:${path}, reason=${reason}]`);
    }
    if (value === "") throw new AppError("failed_precondition", `api key file is empty [reference=file:${path}]`);
    return value;
  }
  throw new AppError("invalid_argument", "api key reference must be env:NAME, secret:NAME or file:/path (a key itself is not accepted here)");
}
