import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { redactSecrets } from "./redact-secrets.js";

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const token = (prefix: string, length: number) =>
  fc.string({ unit: fc.constantFrom(...ALNUM), minLength: length, maxLength: length }).map((rest) => `${prefix}${rest}`);

// Pieces that start, end or almost make secrets, so that generated texts put
// matches next to each other, inside each other and next to masks.
const FRAGMENTS = [
  "password=",
  "PASSWORD: ",
  "token = ",
  '"api_key": "',
  "secret_key=",
  "Authorization: Bearer ",
  "authorization: basic ",
  "https://",
  "://user:",
  "@host",
  "-----BEGIN RSA PRIVATE KEY-----\n",
  "\n-----END RSA PRIVATE KEY-----",
  "aws_secret_access_key = ",
  "AKIA",
  "gh" + "p_",
  "sk-",
  "sk-ant-",
  "eyJ",
  ".eyJ",
  "xoxb-",
  "glpat-",
  "npm_",
  "AIza",
  "[REDACTED:",
  "[REDACTED:jwt]",
  "]",
  '"',
  "'",
  " ",
  "\n",
  "\r\n",
  "=",
  ":",
  "$",
  "&",
  ";",
  "-",
  "_",
  "/",
  ".",
];
const piece = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...FRAGMENTS) },
  { weight: 3, arbitrary: fc.string({ unit: fc.constantFrom(...ALNUM, "+", "/", "="), maxLength: 60 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 8 }) },
  { weight: 1, arbitrary: token("gh" + "p_", 36) },
  { weight: 1, arbitrary: token("AKIA", 16).map((value) => value.toUpperCase()) },
  { weight: 1, arbitrary: token("eyJ", 20).map((head) => `${head}.eyJ${head.slice(3)}.${head.slice(5)}`) },
);
const texts = fc.array(piece, { maxLength: 40 }).map((pieces) => pieces.join(""));
const RUNS = { numRuns: 1500 };

describe("redactSecrets() properties", () => {
  it("is deterministic", () => {
    fc.assert(
      fc.property(texts, (text) => assert.deepEqual(redactSecrets(text), redactSecrets(text))),
      RUNS,
    );
  });

  it("is idempotent: redacted text has nothing left to redact", () => {
    fc.assert(
      fc.property(texts, (text) => {
        const once = redactSecrets(text).text;
        assert.deepEqual(redactSecrets(once), { text: once, count: 0, byRule: {} });
      }),
      RUNS,
    );
  });

  it("counts one mask per secret, and byRule adds up to count", () => {
    fc.assert(
      fc.property(texts, (text) => {
        fc.pre(!text.includes("[REDACTED:"));
        const result = redactSecrets(text);
        assert.equal(result.text.split("[REDACTED:").length - 1, result.count);
        assert.equal(
          Object.values(result.byRule).reduce((a, b) => a + b, 0),
          result.count,
        );
      }),
      RUNS,
    );
  });

  it("keeps the text around a secret byte for byte and keeps nothing of the secret", () => {
    const plain = fc.string({ unit: fc.constantFrom(..."xyz0189 ,.\n\t()ü😀"), maxLength: 80 });
    fc.assert(
      fc.property(plain, token("gh" + "p_", 36), plain, (before, secret, after) => {
        const result = redactSecrets(`${before} ${secret} ${after}`);
        assert.equal(result.text, `${before} [REDACTED:github-token] ${after}`);
        assert.ok(!result.text.includes(secret.slice(4)));
      }),
      RUNS,
    );
  });

  it("changes nothing in text without secret keywords", () => {
    const plain = fc.string({ unit: fc.constantFrom(..."bcdfghjlmnqvwxyz0123456789 \n\t,.;:=()[]{}\"'-_/@ü😀\uFFFD"), maxLength: 400 });
    fc.assert(
      fc.property(plain, (text) => assert.deepEqual(redactSecrets(text), { text, count: 0, byRule: {} })),
      RUNS,
    );
  });
});
