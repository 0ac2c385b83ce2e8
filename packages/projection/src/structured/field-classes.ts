/*
 * Classes of object keys that views treat specially. Matching is on the key
 * name only (case-insensitive), so the same rules apply to every source.
 */

const IDENTIFIER_NAMES = new Set(["id", "ids", "uuid", "guid", "number", "key", "sha", "url", "uri", "href", "html_url", "node_id"]);
// "order_id", "line_item_ids", "issueId", "orderID", "commit_sha", "api_key", "tracking_number".
const IDENTIFIER_SUFFIX = /(_ids?|_uuid|_key|_sha|_number|[a-z0-9]Ids?|[a-z0-9]IDs?)$/;

const IDENTITY_NAMES = new Set([
  "name",
  "title",
  "login",
  "username",
  "email",
  "path",
  "file",
  "filename",
  "slug",
  "ref",
  "branch",
  "tag",
  "version",
  "status",
  "state",
  "conclusion",
  "type",
  "kind",
  "code",
  "label",
]);

const QUALIFICATION_WORDS =
  /(estimat|approx|confiden|confirm|tentative|provisional|uncertain|unknown|partial|incomplete|truncat|stale|precision|accuracy|verified|is_final|preliminary)/i;

const ERROR_NAMES = new Set([
  "error",
  "errors",
  "is_error",
  "iserror",
  "failed",
  "failure",
  "failures",
  "failure_reason",
  "error_message",
  "error_code",
  "exception",
  "success",
  "ok",
  "status",
  "state",
  "conclusion",
  "outcome",
]);

// Status-like values that mean something went wrong ("delivery_failed", "FAILURE", "timed_out", "cancelled").
const FAILURE_VALUE = /(fail|error|timed[_ -]?out|timeout|cancel+ed|rejected|undeliverable|aborted|crash|declined|exception|lost|action_required)/i;
const STATUS_NAMES = new Set(["status", "state", "conclusion", "outcome", "result", "result_status"]);

/** True for identifiers: id, ids, uuid, number, key, sha, url, html_url, node_id, and *_id(s) / *Id(s) / *_key / *_sha / *_number. */
export function isIdentifierKey(key: string): boolean {
  return IDENTIFIER_NAMES.has(key.toLowerCase()) || IDENTIFIER_SUFFIX.test(key);
}

/** True for keys that name or classify a record: identifiers plus name, title, path, status, state, type, login, … */
export function isIdentityKey(key: string): boolean {
  return isIdentifierKey(key) || IDENTITY_NAMES.has(key.toLowerCase());
}

/**
 * True for qualifications: keys that say how far a value can be trusted
 * (estimated vs confirmed, approximate, confidence, partial, truncated, …),
 * including keys that carry the qualification in their name
 * ("estimated_delivery_date").
 */
export function isQualificationKey(key: string): boolean {
  return QUALIFICATION_WORDS.test(key);
}

/** True for keys that report errors or outcomes: error, errors, is_error, failed, status, conclusion, success, ok, … */
export function isErrorKey(key: string): boolean {
  return ERROR_NAMES.has(key.toLowerCase()) || /(^|_)(error|errors|failure|failed)$/i.test(key);
}

/** True for keys a field view never drops: identifiers, qualifications and error/outcome fields. */
export function isProtectedKey(key: string): boolean {
  return isIdentifierKey(key) || isQualificationKey(key) || isErrorKey(key);
}

/** True when member `key` with `value` says its record failed (is_error true, status "failure", errors non-empty, ok false, …). */
export function isFailureMember(key: string, value: unknown): boolean {
  const lower = key.toLowerCase();
  if (lower === "is_error" || lower === "iserror" || lower === "failed") return value === true;
  if (lower === "success" || lower === "ok") return value === false;
  if (STATUS_NAMES.has(lower)) return typeof value === "string" && FAILURE_VALUE.test(value);
  if (lower === "error" || lower === "exception" || lower === "failure" || lower === "failure_reason" || lower === "error_message") {
    return value !== null && value !== false && value !== "" && !(typeof value === "object" && Object.keys(value).length === 0);
  }
  if (lower === "errors" || lower === "failures")
    return Array.isArray(value) ? value.length > 0 : typeof value === "object" && value !== null && Object.keys(value).length > 0;
  return false;
}

/**
 * True when `value` or something inside it reports a failure (see
 * {@link isFailureMember}). Looks at no more than `maxNodes` values (default
 * 256), breadth first, so the cost is bounded on huge values.
 */
export function hasFailureSignal(value: unknown, maxNodes = 256): boolean {
  const queue: unknown[] = [value];
  for (let visited = 0; visited < queue.length && visited < maxNodes; visited++) {
    const current = queue[visited];
    if (typeof current !== "object" || current === null) continue;
    if (Array.isArray(current)) {
      for (const item of current) if (typeof item === "object" && item !== null && queue.length < maxNodes) queue.push(item);
      continue;
    }
    for (const [key, member] of Object.entries(current)) {
      if (isFailureMember(key, member)) return true;
      if (typeof member === "object" && member !== null && queue.length < maxNodes) queue.push(member);
    }
  }
  return false;
}
