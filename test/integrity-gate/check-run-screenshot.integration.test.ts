import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";
import { ScriptedLLM } from "../fakes/scripted-llm.js";
import { approveIntegrity, approvePlan, autoApproveWrites } from "../../src/agent/approvals.js";
import { publishToLocalBranch } from "../../src/publish/local-branch.js";
import { renderCheckRun } from "../../src/trace/check-run.js";
import { SessionHarness } from "../helpers/session-harness.js";
import { JS_ADD_REPO } from "./js-repo.js";

/**
 * A real session with one approved finding (an assertion deleted), its check run rendered as GitHub
 * renders markdown and shot in headless Chromium. The PNG lands in test-output/ (gitignored) to be
 * looked at; docs/images/test-integrity-check-run.png is a copy of it.
 */
const OUT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "test-output", "integrity-screenshot");
const CHROMIUM = ["chromium", "chromium-browser"].find((c) => {
  try {
    execFileSync("which", [c], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
});
const CSS = `body{font:14px/1.5 -apple-system,"Segoe UI",Helvetica,Arial,sans-serif;color:#1f2328;max-width:880px;margin:24px auto;padding:0 16px}
h2,h3{border-bottom:1px solid #d1d9e0;padding-bottom:.3em}code{background:#eff1f3;border-radius:6px;padding:.2em .4em;font-size:85%}
pre{background:#f6f8fa;padding:16px;border-radius:6px}pre code{background:none;padding:0}details{margin:4px 0}`;

const cli = { login: "maintainer", via: "cli" as const };
const WITHOUT_ASSERTION = JS_ADD_REPO["test/add.test.js"].replace("  assert.equal(add(2, 3), 5);\n", "  add(2, 3);\n");

test("the check run of a session with one approved finding, shot in headless Chromium", async () => {
  if (!CHROMIUM) {
    if (process.env.PATCHGATE_CI) throw new Error("chromium is required under CI");
    console.log("skipped: needs chromium");
    return;
  }
  const h = await SessionHarness.create(JS_ADD_REPO);
  try {
    const llm = new ScriptedLLM([
      { toolCalls: [{ name: "read_file", arguments: { path: "test/add.test.js" } }] },
      { toolCalls: [{ name: "submit_plan", arguments: { summary: "make the test pass", steps: ["change the test", "run the tests"] } }] },
      { toolCalls: [{ name: "write_file", arguments: { path: "test/add.test.js", content: WITHOUT_ASSERTION } }] },
      { toolCalls: [{ name: "run_tests", arguments: {} }] },
      { toolCalls: [{ name: "finish", arguments: { summary: "The test no longer asserts the sum." } }] },
    ]);
    await h.resume(llm);
    await approvePlan(h.ledger, cli, h.ledger.state.planHash!);
    await autoApproveWrites(h.ledger, cli);
    expect(await h.resume(llm)).toEqual({ kind: "parked", phase: "awaiting_integrity_approval" });
    await approveIntegrity(h.ledger, cli, h.ledger.state.integrity!.digest);
    expect(await h.resume(llm)).toEqual({ kind: "ready_to_publish" });
    await publishToLocalBranch(h.ledger, h.workspace, { prefix: "patchgate/shot-", author: { name: "T", email: "t@example.invalid" }, trailer: "test" });

    const out = renderCheckRun(h.ledger.state, h.ledger.history, { sessionId: h.ledger.sessionId });
    expect(out.summary).toContain("Test integrity: 1 finding");
    const body = micromark(out.summary, { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml()] });
    mkdirSync(OUT, { recursive: true });
    const html = join(OUT, "test-integrity-check-run.html");
    const png = join(OUT, "test-integrity-check-run.png");
    writeFileSync(html, `<!doctype html><html><head><meta charset="utf-8"><style>${CSS}</style></head><body><h2>${out.title}</h2>${body}</body></html>`);
    rmSync(png, { force: true });
    const profile = mkdtempSync(join(tmpdir(), "pg-chromium-"));
    try {
      const flags = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars", `--user-data-dir=${profile}`];
      execFileSync(CHROMIUM, [...flags, "--window-size=1000,1500", `--screenshot=${png}`, `file://${html}`], { stdio: "ignore", timeout: 60_000 });
    } finally {
      rmSync(profile, { recursive: true, force: true });
    }
    const b = readFileSync(png);
    expect(b.subarray(1, 4).toString()).toBe("PNG");
    expect({ width: b.readUInt32BE(16), height: b.readUInt32BE(20) }).toEqual({ width: 1000, height: 1500 });
  } finally {
    await h.dispose();
  }
}, 300_000);
