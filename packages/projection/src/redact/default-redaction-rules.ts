import type { RedactionRule } from "./redaction-rule.js";

// A value that is a reference, not a secret: $VAR, ${VAR}, ${{ secrets.X }}, <your-token>, %s, {token}, ***.
const NOT_PLACEHOLDER = String.raw`(?![$<{%*])`;
// Words that stand for no secret in code and configuration (type names, empty values).
const NOT_WORD = String.raw`(?!(?:none|null|nil|undefined|true|false|str|string|bytes|int|number|bool|boolean|any|optional|required|redacted)(?![A-Za-z0-9_]))`;
// Keys whose value is a secret: password, passwd, passphrase, secret, secret_key, token, api_key, access_key, private_key.
const SECRET_KEY = String.raw`(?:pass(?:word|wd|phrase)|secret(?:[_-]?key)?|token|api[_-]?key|access[_-]?key|private[_-]?key)`;
const SECRET_KEYWORDS = [
  "password",
  "passwd",
  "passphrase",
  "secret",
  "token",
  "api_key",
  "api-key",
  "apikey",
  "access_key",
  "access-key",
  "accesskey",
  "private_key",
  "private-key",
  "privatekey",
];
// In `key = value` (spaces around "="), a bare identifier or dotted name without digits is code: `token = token`, `secret = settings.SECRET`.
const NOT_CODE = String.raw`(?!(?<=[ \t]:?=[ \t]{0,5})[A-Za-z_][A-Za-z_.]{0,256}(?![^\s;]))`;
const PEM_LABEL = String.raw`(?:[A-Z0-9]{1,20} ){0,3}PRIVATE KEY(?: BLOCK)?`;

/**
 * The rules `redactSecrets` uses by default, in order (the first rule wins
 * where matches overlap, so vendor formats come before generic ones):
 *
 * - `private-key`: PEM private key blocks, BEGIN to END line (also with
 *   `\n` escapes inside JSON strings, and cut off without an END line);
 * - `aws-access-key-id` (AKIA/ASIA/ABIA/ACCA + 16), `aws-secret-access-key`
 *   (the 40-character value after `aws_secret_access_key =`/`:`);
 * - `github-token` (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_), `gitlab-token`
 *   (glpat-), `slack-token` (xoxb-/xoxa-/xoxp-/xoxr-/xoxs-, xapp-),
 *   `slack-webhook` (the path after hooks.slack.com/services/),
 *   `stripe-key` (sk_/rk_ live/test), `anthropic-key` (sk-ant-),
 *   `openai-key` (sk-, sk-proj-, … with a digit and a capital letter),
 *   `google-api-key` (AIza + 35), `npm-token` (npm_ + 36), `jwt` (eyJ….eyJ….…);
 * - `authorization`: the credential of an `Authorization:` or
 *   `Proxy-Authorization:` header (any case), keeping the scheme;
 * - `url-password`: the password in `scheme://user:password@host`;
 * - `secret-assignment`: the value of password, passwd, passphrase, secret,
 *   secret_key, token, api_key, access_key, private_key (also as the end of a
 *   longer key: DB_PASSWORD, client_secret, X-Api-Key) after `=`, `:` or
 *   `=>`: quoted values, and bare values that end at a space, `;` or the end
 *   of the text (so the rest of a query string after `token=` is masked too). Not masked: references ($VAR, ${…}, <…>, %s, {…}),
 *   type names and empty words (str, null, true…), and in `key = value`
 *   (spaces around "=") a bare identifier or dotted name without digits, which is code.
 *
 * Every pattern is bounded (no nested unbounded repetition) and has keywords.
 */
export const DEFAULT_REDACTION_RULES: readonly RedactionRule[] = Object.freeze([
  {
    name: "private-key",
    pattern: String.raw`-----BEGIN ${PEM_LABEL}-----(?:[A-Za-z0-9+/=\s:,.\\]|-(?!----)){0,65536}(?:-----END ${PEM_LABEL}-----)?`,
    keywords: ["PRIVATE KEY"],
  },
  { name: "aws-access-key-id", pattern: String.raw`\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b`, keywords: ["AKIA", "ASIA", "ABIA", "ACCA"] },
  {
    name: "aws-secret-access-key",
    pattern: String.raw`aws_?secret_?access_?key["']?[ \t]{0,5}[:=][ \t]{0,5}["']?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])`,
    flags: "i",
    group: 1,
    keywords: ["secret_access_key", "secretaccesskey"],
  },
  { name: "github-token", pattern: String.raw`\bgh[pousr]_[A-Za-z0-9]{36,251}\b`, keywords: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"] },
  { name: "github-token", pattern: String.raw`\bgithub_pat_[A-Za-z0-9_]{22,244}`, keywords: ["github_pat_"] },
  { name: "gitlab-token", pattern: String.raw`\bglpat-[A-Za-z0-9_-]{20,255}`, keywords: ["glpat-"] },
  { name: "slack-token", pattern: String.raw`\b(?:xox[baprs]|xapp)-[A-Za-z0-9-]{10,250}`, keywords: ["xoxb-", "xoxa-", "xoxp-", "xoxr-", "xoxs-", "xapp-"] },
  {
    name: "slack-webhook",
    pattern: String.raw`hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9_/+-]{20,300})`,
    group: 1,
    keywords: ["hooks.slack.com"],
  },
  { name: "stripe-key", pattern: String.raw`\b[rs]k_(?:live|test)_[A-Za-z0-9]{10,247}`, keywords: ["k_live_", "k_test_"] },
  { name: "anthropic-key", pattern: String.raw`\bsk-ant-[A-Za-z0-9_-]{20,300}`, keywords: ["sk-ant-"] },
  {
    name: "openai-key",
    pattern: String.raw`\bsk-(?=[A-Za-z0-9_-]{0,64}?[0-9])(?=[A-Za-z0-9_-]{0,64}?[A-Z])[A-Za-z0-9_-]{20,300}`,
    keywords: ["sk-"],
  },
  { name: "google-api-key", pattern: String.raw`\bAIza[0-9A-Za-z_-]{35}`, keywords: ["AIza"] },
  { name: "npm-token", pattern: String.raw`\bnpm_[A-Za-z0-9]{36}\b`, keywords: ["npm_"] },
  { name: "jwt", pattern: String.raw`\beyJ[A-Za-z0-9_-]{5,1024}\.eyJ[A-Za-z0-9_-]{5,8192}\.[A-Za-z0-9_-]{0,4096}`, keywords: ["eyJ"] },
  {
    name: "authorization",
    pattern: String.raw`\b(?:proxy-)?authorization["']?[ \t]{0,5}[:=][ \t]{0,5}["']?(?:(?:bearer|basic|token|bot|digest|negotiate|ntlm|apikey|key|aws4-hmac-sha256)[ \t]{1,5})?${NOT_PLACEHOLDER}(?!(?:bearer|basic|token|bot|digest|negotiate|ntlm|apikey|key)(?![A-Za-z0-9._~+/=-]))([A-Za-z0-9._~+/=-]{8,4096})`,
    flags: "i",
    group: 1,
    keywords: ["authorization"],
  },
  { name: "url-password", pattern: String.raw`://[^\s:/@'"]{0,256}:${NOT_PLACEHOLDER}([^\s/@'"]{1,256})@`, group: 1, keywords: ["://"] },
  {
    name: "secret-assignment",
    // One group, three forms: a double-quoted value, a single-quoted value, a bare value (not after a quote).
    pattern: String.raw`${SECRET_KEY}["']?[ \t]{0,5}(?:=>|:=|=|:)(?!=)[ \t]{0,5}["']?${NOT_PLACEHOLDER}${NOT_WORD}${NOT_CODE}((?<=")(?:[^"\\\r\n]|\\.){1,512}(?=")|(?<=')(?:[^'\\\r\n]|\\.){1,512}(?=')|(?<!["'])[^\s"'\x60,;()[\]{}<>]{3,256}(?=[\s;]|$))`,
    flags: "i",
    group: 1,
    keywords: SECRET_KEYWORDS,
  },
]);
