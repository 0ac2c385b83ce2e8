import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { redactSecrets } from "./redact-secrets.js";

// Fake secrets are assembled at run time (prefix + deterministic characters) so
// that no secret-shaped literal sits in the repository for scanners to flag.
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
function chars(count: number, seed: number, alphabet = ALNUM): string {
  let state = seed;
  let out = "";
  for (let i = 0; i < count; i++) {
    state = (state * 1103515245 + 12345) % 2147483648;
    out += alphabet[state % alphabet.length];
  }
  return out;
}
const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const S = {
  ghp: `gh${"p"}_${chars(36, 1)}`,
  gho: `gh${"o"}_${chars(36, 2)}`,
  ghs: `gh${"s"}_${chars(36, 3)}`,
  pat: `github${"_pat"}_${chars(22, 4)}_${chars(59, 5)}`,
  glpat: `gl${"pat"}-${chars(20, 6)}`,
  akia: `AK${"IA"}${chars(16, 7, UPPER)}`,
  asia: `AS${"IA"}${chars(16, 8, UPPER)}`,
  awsSecret: chars(40, 9, `${ALNUM}/+`),
  xoxb: `xo${"xb"}-${chars(12, 10, "0123456789")}-${chars(13, 11, "0123456789")}-${chars(24, 12)}`,
  webhookPath: `T${chars(8, 13, UPPER)}/B${chars(10, 14, UPPER)}/${chars(24, 15)}`,
  stripe: `sk${"_live"}_${chars(24, 16)}`,
  stripeTest: `sk${"_test"}_${chars(24, 17)}`,
  openai: `sk${"-"}${chars(20, 18)}T3BlbkFJ${chars(20, 19)}`,
  openaiProj: `sk${"-proj"}-${chars(60, 20, `${ALNUM}_-`)}A1`,
  anthropic: `sk${"-ant"}-api03-${chars(93, 21, `${ALNUM}_-`)}AA`,
  google: `AI${"za"}Sy${chars(33, 22, `${ALNUM}_-`)}`,
  npm: `np${"m"}_${chars(36, 23)}`,
  jwt: `ey${"J"}hbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.${chars(43, 24, `${ALNUM}_-`)}`,
  bearer: chars(40, 25, `${ALNUM}._-`),
  basic: "dXNlcjpwYXNzd29yZA==",
  password: `Tr0ub4dor&3${chars(6, 26)}`,
  pemBody: Array.from({ length: 6 }, (_, i) => chars(64, 30 + i, `${ALNUM}+/`)).join("\n"),
};
const PEM = `-----BEGIN RSA PRIVATE KEY-----\n${S.pemBody}\n-----END RSA PRIVATE KEY-----`;
const PEM_ESCAPED = `-----BEGIN PRIVATE KEY-----\\n${S.pemBody.replaceAll("\n", "\\n")}\\n-----END PRIVATE KEY-----`;

/** `⟦rule:secret⟧` marks a span that must become `[REDACTED:rule]`; the rest must stay as it is. */
function expectCase(marked: string): { input: string; expected: string; byRule: Record<string, number> } {
  const byRule: Record<string, number> = {};
  const input = marked.replace(/⟦[a-z0-9-]+:([^⟧]*)⟧/g, "$1");
  const expected = marked.replace(/⟦([a-z0-9-]+):[^⟧]*⟧/g, (_, rule: string) => {
    byRule[rule] = (byRule[rule] ?? 0) + 1;
    return `[REDACTED:${rule}]`;
  });
  return { input, expected, byRule };
}

const POSITIVES: ReadonlyArray<readonly [string, string]> = [
  [".env file", `NODE_ENV=production\nGITHUB_TOKEN=⟦github-token:${S.ghp}⟧\nDB_PASSWORD=⟦secret-assignment:${S.password}⟧\nPORT=3000\n`],
  [
    "aws credentials file",
    `[default]\naws_access_key_id = ⟦aws-access-key-id:${S.akia}⟧\naws_secret_access_key = ⟦aws-secret-access-key:${S.awsSecret}⟧\nregion = us-east-1\n`,
  ],
  ["aws env exports", `export AWS_ACCESS_KEY_ID=⟦aws-access-key-id:${S.asia}⟧\nexport AWS_SECRET_ACCESS_KEY="⟦aws-secret-access-key:${S.awsSecret}⟧"\n`],
  ["curl bearer header", `curl -sS -H 'Authorization: Bearer ⟦authorization:${S.bearer}⟧' https://api.example.com/v1/items\n`],
  ["curl basic header, lower case", `> authorization: basic ⟦authorization:${S.basic}⟧\r\n> accept: */*\r\n`],
  ["bearer jwt (jwt wins, scheme kept)", `Authorization: Bearer ⟦jwt:${S.jwt}⟧\n`],
  ["github token header", `-H "Authorization: token ⟦github-token:${S.gho}⟧"`],
  ["git remote with token", `origin\thttps://x-access-token:⟦github-token:${S.ghs}⟧@github.com/acme/app.git (fetch)\n`],
  ["git remote with password", `origin  https://alice:⟦url-password:s3cr3t-P4ss⟧@git.example.com/acme/app.git (push)\n`],
  ["database url", `DATABASE_URL=postgres://app:⟦url-password:${S.password}⟧@db.internal:5432/app\n`],
  ["redis url without user", `connecting to redis://:⟦url-password:hunter2pass⟧@127.0.0.1:6379/0`],
  ["fine-grained github pat", `token: ⟦github-token:${S.pat}⟧\n`],
  ["gitlab token in a remote", `https://oauth2:⟦gitlab-token:${S.glpat}⟧@gitlab.com/group/project.git`],
  ["slack token in json", `{"ok":true,"token":"⟦slack-token:${S.xoxb}⟧","channel":"C024BE91L"}`],
  ["slack webhook", `SLACK_WEBHOOK=https://hooks.slack.com/services/⟦slack-webhook:${S.webhookPath}⟧\n`],
  ["stripe keys", `Stripe.api_key = "⟦stripe-key:${S.stripe}⟧"\nSTRIPE_TEST=⟦stripe-key:${S.stripeTest}⟧\n`],
  ["openai legacy and project keys", `OPENAI_API_KEY=⟦openai-key:${S.openai}⟧\nclient = OpenAI(api_key="⟦openai-key:${S.openaiProj}⟧")\n`],
  ["anthropic key", `ANTHROPIC_API_KEY=⟦anthropic-key:${S.anthropic}⟧`],
  ["google api key in a url", `GET https://maps.googleapis.com/maps/api/geocode/json?address=x&key=⟦google-api-key:${S.google}⟧ 200`],
  ["npmrc", `//registry.npmjs.org/:_authToken=⟦npm-token:${S.npm}⟧\n`],
  ["jwt in a log line", `2024-05-01 INFO issued session=⟦jwt:${S.jwt}⟧ for user 42\n`],
  ["pem block in the middle of a log", `step 3/7: writing key\n${"⟦private-key:" + PEM + "⟧"}\nstep 4/7: done\n`],
  [
    "pem escaped in a json service account",
    `{"type":"service_account","private_key":"⟦private-key:${PEM_ESCAPED}⟧\\n","client_email":"x@y.iam.gserviceaccount.com"}`,
  ],
  ["json config pairs", `{\n  "password": "⟦secret-assignment:${S.password}⟧",\n  "api_key": "⟦secret-assignment:k-${chars(24, 40)}⟧",\n  "timeout": 30\n}\n`],
  ["yaml pairs", `database:\n  user: app\n  password: ⟦secret-assignment:${S.password}⟧\n  client_secret: '⟦secret-assignment:${chars(32, 41)}⟧'\n`],
  [
    "cli flags and query strings",
    `mysql --user=root --password=⟦secret-assignment:${S.password}⟧ -h db\nGET /callback?code=abc&access_token=⟦secret-assignment:${chars(30, 42)}&state=xyz⟧ HTTP/1.1\n`,
  ],
  ["ini with spaces and passwd", `[smtp]\npasswd = ⟦secret-assignment:p4ss-${chars(10, 43)}⟧\nsecret_key = ⟦secret-assignment:${chars(50, 44)}⟧\n`],
  ["header-style api key", `X-Api-Key: ⟦secret-assignment:${chars(32, 45)}⟧\n`],
  ["python kwargs with literal", `connect(host="db", password="⟦secret-assignment:${S.password}⟧")`],
  ["two secrets on one line", `GH=⟦github-token:${S.ghp}⟧ NPM=⟦npm-token:${S.npm}⟧`],
];

const NEGATIVES: ReadonlyArray<readonly [string, string]> = [
  ["password_hint and token_count", `password_hint = "your pet's name"\ntoken_count = 3\nmax_tokens: 4096\n`],
  ["sk- in prose", "A risk-based approach; the task-runner and desk-booking tool use scikit-learn-compatible estimators.\n"],
  ["uuids and git shas", "id=550e8400-e29b-41d4-a716-446655440000 commit 9fceb02d0ae598e95dc970b74767f19372d61af8\n"],
  ["base64 image data", `<img src="data:image/png;base64,${chars(400, 50, `${ALNUM}+/`)}=">\n`],
  [
    "code reading secrets from elsewhere",
    `password = os.environ["DB_PASSWORD"]\ntoken = get_token()\nself.token = token\nsecret = settings.SECRET\nconnect(password=password, token=token)\n`,
  ],
  [
    "comparisons and placeholders",
    `if password == "":\nexport TOKEN=$GITHUB_TOKEN\npassword: \${{ secrets.DB_PASSWORD }}\napi_key=<your-api-key>\ncurl -H "Authorization: Bearer $TOKEN"\nheaders = {"Authorization": "Bearer " + token}\n`,
  ],
  [
    "types and empty values",
    `interface Login { password: string; token?: string }\ndef f(password: str, token: Optional[str] = None):\npassword: null\ntoken = None\n`,
  ],
  ["urls without credentials", "see http://localhost:8080/health and https://example.com:443/a@b and git@github.com:acme/app.git\n"],
  ["aws example-shaped words that are not keys", "AKIAshort and ASIAN markets; npm_config_cache=/tmp/npm\n"],
  [
    "pem public key and certificate",
    "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----\n-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n",
  ],
  ["jwt-like prose", "eyJ is how base64 of '{\"' begins; see eyJhbGci.notjwt\n"],
  ["masks already present", "GITHUB_TOKEN=[REDACTED:github-token]\npassword: [REDACTED:secret-assignment]\nAuthorization: Bearer [REDACTED:authorization]\n"],
];

describe("redactSecrets()", () => {
  for (const [title, marked] of POSITIVES) {
    it(`masks exactly the secret: ${title}`, () => {
      const { input, expected, byRule } = expectCase(marked);
      const result = redactSecrets(input);
      assert.equal(result.text, expected);
      assert.deepEqual(result.byRule, byRule);
      assert.equal(
        result.count,
        Object.values(byRule).reduce((a, b) => a + b, 0),
      );
      assert.deepEqual(redactSecrets(result.text), { text: result.text, count: 0, byRule: {} }, "idempotent");
    });
  }
  for (const [title, text] of NEGATIVES) {
    it(`leaves ordinary text alone: ${title}`, () => {
      assert.deepEqual(redactSecrets(text), { text, count: 0, byRule: {} });
    });
  }
  it("returns empty text unchanged", () => {
    assert.deepEqual(redactSecrets(""), { text: "", count: 0, byRule: {} });
  });
  it("masks a private key cut off before its END line up to the end of its base64", () => {
    const result = redactSecrets(`-----BEGIN OPENSSH PRIVATE KEY-----\n${S.pemBody}\n(truncated)`);
    assert.equal(result.text, "[REDACTED:private-key](truncated)");
  });
});
