import { AppError } from "@loupe/errors";

/** Characters an encoded token keeps as they are; every other UTF-8 byte becomes `~XX`. */
const PLAIN = /^[A-Za-z0-9_-]$/;
/** The token standing for the empty id (a NATS token cannot be empty). */
const EMPTY_TOKEN = "~";
const LONE_SURROGATE = /\p{Cs}/u;
const NAME = /^[a-z][a-z0-9_-]*$/;
const encoder = new TextEncoder();
const strictDecoder = new TextDecoder("utf-8", { fatal: true });

/**
 * Encodes an id as one NATS subject token: ASCII letters, digits, `_` and `-`
 * stay, every other UTF-8 byte becomes `~` plus two uppercase hex digits, and
 * the empty id becomes `~`. So no `.`, `*`, `>`, whitespace or non-ASCII
 * survives, and the encoding is deterministic and reversible
 * ({@link decodeSubjectToken}).
 *
 * @throws AppError `invalid_argument` when `id` holds a lone surrogate (not valid Unicode)
 */
export function encodeSubjectToken(id: string): string {
  if (id === "") return EMPTY_TOKEN;
  // TextEncoder would turn every lone surrogate into U+FFFD, so two ids would share a token.
  if (LONE_SURROGATE.test(id)) throw new AppError("invalid_argument", "invalid subject id [reason=lone surrogate]");
  let token = "";
  for (const byte of encoder.encode(id)) {
    const char = String.fromCharCode(byte);
    token += byte < 0x80 && PLAIN.test(char) ? char : `~${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return token;
}

/**
 * Reverses {@link encodeSubjectToken}. Only canonical tokens are accepted, so
 * decode∘encode is the identity and encode∘decode too.
 *
 * @throws AppError `invalid_argument` for a token encodeSubjectToken never produces
 */
export function decodeSubjectToken(token: string): string {
  if (token === EMPTY_TOKEN) return "";
  const bytes: number[] = [];
  for (let index = 0; index < token.length; index += 1) {
    const char = token.charAt(index);
    if (char !== "~") {
      if (!PLAIN.test(char)) throw invalidToken(token, `unexpected character at ${index}`);
      bytes.push(char.charCodeAt(0));
      continue;
    }
    const hex = token.slice(index + 1, index + 3);
    if (!/^[0-9A-F]{2}$/.test(hex)) throw invalidToken(token, `bad escape at ${index}`);
    const byte = Number.parseInt(hex, 16);
    if (byte < 0x80 && PLAIN.test(String.fromCharCode(byte))) throw invalidToken(token, `needless escape at ${index}`);
    bytes.push(byte);
    index += 2;
  }
  if (bytes.length === 0) throw invalidToken(token, "empty");
  try {
    return strictDecoder.decode(new Uint8Array(bytes));
  } catch (error) {
    throw new AppError("invalid_argument", `invalid subject token [token=${token}, reason=not utf-8]`, { cause: error });
  }
}

/**
 * Builds a Loupe subject: `loupe.<entity>.<event>[.<token>…]`, one encoded
 * token per id (see {@link encodeSubjectToken}). `entity` and `event` are
 * code constants, lowercase (`subjectFor("turn", "appended", tenant, session)`).
 *
 * @throws AppError `invalid_argument` when entity or event is not `[a-z][a-z0-9_-]*`, or an id holds a lone surrogate
 */
export function subjectFor(entity: string, event: string, ...ids: string[]): string {
  for (const name of [entity, event]) {
    if (!NAME.test(name)) throw new AppError("invalid_argument", `invalid subject name [name=${JSON.stringify(name)}]`);
  }
  return ["loupe", entity, event, ...ids.map(encodeSubjectToken)].join(".");
}

function invalidToken(token: string, reason: string): AppError {
  return new AppError("invalid_argument", `invalid subject token [token=${JSON.stringify(token)}, reason=${reason}]`);
}
