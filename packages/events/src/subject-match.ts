/**
 * NATS subject grammar, shared by both adapters so that embedded mode refuses
 * exactly what a NATS server would.
 */

const FORBIDDEN = /[\s\p{Cc}]/u;

/** True for a publishable subject: non-empty dot-separated tokens, no whitespace, no wildcards. */
export function isValidSubject(subject: string): boolean {
  if (subject === "" || FORBIDDEN.test(subject)) return false;
  return subject.split(".").every((token) => token !== "" && token !== "*" && token !== ">" && !/[*>]/.test(token));
}

/** True for a filter: like a subject, plus `*` (one token) and a trailing `>` (one or more tokens). */
export function isValidFilter(filter: string): boolean {
  if (filter === "" || FORBIDDEN.test(filter)) return false;
  const tokens = filter.split(".");
  return tokens.every((token, index) => {
    if (token === "*") return true;
    if (token === ">") return index === tokens.length - 1;
    return token !== "" && !/[*>]/.test(token);
  });
}

/** True when `subject` (no wildcards) matches `filter`. */
export function subjectMatches(filter: string, subject: string): boolean {
  const filterTokens = filter.split(".");
  const subjectTokens = subject.split(".");
  for (let index = 0; index < filterTokens.length; index += 1) {
    const token = filterTokens[index];
    if (token === ">") return subjectTokens.length > index;
    if (index >= subjectTokens.length) return false;
    if (token !== "*" && token !== subjectTokens[index]) return false;
  }
  return filterTokens.length === subjectTokens.length;
}

/** True when some subject matches both filters (streams may not overlap). */
export function filtersOverlap(first: string, second: string): boolean {
  const a = first.split(".");
  const b = second.split(".");
  for (let index = 0; index < a.length && index < b.length; index += 1) {
    const left = a[index];
    const right = b[index];
    if (left === ">" || right === ">") return true;
    if (left !== "*" && right !== "*" && left !== right) return false;
  }
  return a.length === b.length;
}

/** True for stream and durable names: letters, digits, `_` and `-`, 1 to 64 characters. */
export function isValidName(name: string): boolean {
  return /^[A-Za-z0-9_-]{1,64}$/.test(name);
}
