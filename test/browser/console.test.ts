// The console in a real browser: Debian's chromium driven by playwright-core against embedded Loupe.
// Screenshots of each page are kept under the test's temporary folder (its path is printed).
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { chromium, type Browser, type Page } from "playwright-core";
import { startEmbeddedLoupe, type EmbeddedLoupe } from "../support/embedded-loupe.js";
import { numberedLines } from "../support/fixtures.js";

const CHROMIUM = "/usr/bin/chromium";
const skip = existsSync(CHROMIUM) ? false : "chromium is not installed (apt-get install -y --no-install-recommends chromium)";

describe("console (chromium)", { skip }, () => {
  let loupe: EmbeddedLoupe;
  let browser: Browser;
  let page: Page;
  let shots = "";
  const foreign: string[] = [];
  const origin = () => `http://127.0.0.1:${String(loupe.httpPort)}`;
  const shot = async (name: string) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });

  before(async () => {
    shots = await mkdtemp(join(tmpdir(), "loupe-console-"));
    loupe = await startEmbeddedLoupe();
    await loupe.client.project({
      sessionId: "console-session",
      source: "console-app",
      result: { toolName: "bash", argsJson: '{"command":"make"}', parts: [{ content: { case: "text", value: numberedLines(3000) } }] },
    });
    await loupe.client.project({
      sessionId: "console-session",
      source: "console-app",
      result: { toolName: "bash", parts: [{ content: { case: "text", value: "ok\n" } }] },
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
    page = await browser.newPage({ viewport: { width: 1366, height: 900 }, colorScheme: "light" });
    // Everything the page loads must come from Loupe itself.
    page.on("request", (request) => {
      if (!request.url().startsWith(origin()) && !request.url().startsWith("data:")) foreign.push(request.url());
    });
  });
  after(async () => {
    await browser?.close();
    await loupe.stop();
  });

  it("shows the Overview: saved tokens, what Loupe did, the apps and the sessions — all from Loupe itself", async (t) => {
    t.diagnostic(`screenshots: ${shots}`);
    await page.goto(`${origin()}/`);
    await page.getByRole("heading", { name: "Overview — team local" }).waitFor();
    await page.getByRole("heading", { name: /^Tokens kept out of context: [\d,]+$/ }).waitFor();
    assert.ok(await page.getByRole("cell", { name: "projections: command" }).isVisible());
    assert.ok(await page.getByRole("heading", { name: "console-app" }).isVisible(), "an app the ledger has seen is listed");
    assert.ok(await page.getByRole("link", { name: "console-session" }).isVisible());
    await page.getByText(" — no turns streamed, no note").waitFor();
    await shot("overview");
    assert.deepEqual(foreign, []);
  });

  it("changes an app's limit and stores it (the REST GET says so), and shows a refusal inline", async () => {
    const form = page.locator('form[data-source="console-app"]');
    await form.getByLabel("Cut results over (characters, 0 = off)").fill("9000");
    await form.getByRole("button", { name: "Save console-app" }).click();
    await page.getByText(/^Stored \(rule version 1\)/).waitFor();
    const stored = (await (await fetch(`${origin()}/api/teams/local/source-limits?source=console-app`)).json()) as { limit: { keep_limit_chars: number } };
    assert.equal(stored.limit.keep_limit_chars, 9000);
    await form.getByLabel("Cut results over (characters, 0 = off)").fill("500");
    await form.getByRole("button", { name: "Save console-app" }).click();
    await page.getByText(/^Refused: keep_limit_chars must exceed keep_head_chars \+ keep_tail_chars \+ 200/).waitFor();
    await shot("refusal");
    const unchanged = (await (await fetch(`${origin()}/api/teams/local/source-limits?source=console-app`)).json()) as { limit: { keep_limit_chars: number } };
    assert.equal(unchanged.limit.keep_limit_chars, 9000, "a refused rule changes nothing");
  });

  it("opens a session's ledger and, from it, a saved original, by keyboard as well", async () => {
    await page.getByRole("link", { name: "console-session" }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Session console-session" }).waitFor();
    assert.equal(await page.getByRole("row").filter({ hasText: "projection" }).count(), 2);
    await page
      .getByRole("row")
      .filter({ hasText: "omission" })
      .getByText(/^bash \(command\): \d+ omissions?$/)
      .waitFor();
    await shot("session");
    await page.getByRole("link", { name: "open original" }).click();
    await page.getByRole("heading", { name: /^Saved original r_/ }).waitFor();
    await page
      .locator("#original")
      .getByText(/^row 00001: /)
      .waitFor();
    const text = await page.locator("#original").textContent();
    assert.match(text ?? "", /^row 00001: [^\n]*\nrow 00002: /, "the saved original, from its first line");
    await shot("original");
    assert.deepEqual(foreign, [], "no request left Loupe");
  });

  it("asks for a token when Loupe has authentication on, and shows only that team", async () => {
    const secured = await startEmbeddedLoupe({ LOUPE_AUTH: "tokens", LOUPE_ADMIN_TOKEN: "console-operator-token-0123456789abcdef" });
    try {
      const other = await browser.newPage({ colorScheme: "dark" });
      await other.goto(`http://127.0.0.1:${String(secured.httpPort)}/`);
      await other.getByRole("heading", { name: "Sign in" }).waitFor();
      await other.getByLabel("Token (from loupe token create)").fill("wrong");
      await other.getByRole("button", { name: "Sign in" }).click();
      await other.getByText("That token was refused.").waitFor();
      await other.getByLabel("Token (from loupe token create)").fill("console-operator-token-0123456789abcdef");
      await other.getByRole("button", { name: "Sign in" }).click();
      await other.getByRole("heading", { name: "Overview — team local" }).waitFor();
      await other.screenshot({ path: join(shots, "signed-in-dark.png"), fullPage: true });
      await other.close();
    } finally {
      await secured.stop();
    }
  });
});
