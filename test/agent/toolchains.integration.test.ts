import { join } from "node:path";
import { existsSync } from "node:fs";
import { ScriptedLLM } from "../../src/agent/llm/scripted.js";
import { approvePlan } from "../../src/agent/approvals.js";
import { SessionHarness } from "../helpers/session-harness.js";
import { FakeHost } from "../toolchain/layouts.js";

const cli = { login: "maintainer", via: "cli" as const };
const STABLE = { name: "stable-x86_64-unknown-linux-gnu", rustc: "1.95.0" };

/**
 * The session resolves its toolchains on its first resume, before the first model call: recorded in
 * the ledger, used by every run after that (run_tests included), and a pin the host cannot satisfy
 * ends the session `blocked` at once, naming what to install.
 */
describe("a session's toolchains", () => {
  let h: SessionHarness;
  let host: FakeHost;
  beforeEach(() => (host = new FakeHost().rustup([STABLE], STABLE.name)));
  afterEach(async () => {
    await h.dispose();
    host.cleanup();
  });

  test("a rust-toolchain.toml asking for a version that is not installed: blocked before the first model call", async () => {
    h = await SessionHarness.create({
      "Cargo.toml": '[package]\nname = "x"\n',
      "rust-toolchain.toml": '[toolchain]\nchannel = "1.80.0"\n',
      ".github/patchgate.yml": "test: cargo test\n",
    });
    const llm = new ScriptedLLM([{ toolCalls: [{ name: "read_file", arguments: { path: "Cargo.toml" } }] }]);
    expect(await h.resume(llm, { host: host.facts() })).toEqual({ kind: "ended", phase: "blocked" });
    expect(llm.remaining).toBe(1);
    expect(h.ledger.history.some((e) => e.type === "llm_called")).toBe(false);
    expect(h.ledger.state.blocked).toEqual({
      reason: "toolchain_missing",
      message:
        "The repository needs toolchains this host does not have: rust 1.80.0 (rust-toolchain.toml): rustup toolchain install 1.80.0; installed: 1.95.0 (rustup). Install them on the host running Patchgate, then start the session again.",
    });
    expect(h.ledger.history.map((e) => e.type).slice(-3)).toEqual(["resumed", "toolchains_resolved", "session_blocked"]);
    // Ended: a resume after a restart does nothing but say so.
    await h.restart();
    expect(await h.resume(llm, { host: host.facts() })).toEqual({ kind: "ended", phase: "blocked" });
    expect(llm.remaining).toBe(1);
  });

  test("resolved once and recorded; run_tests runs the recorded toolchain with what setup left in the session's cache, across resumes", async () => {
    h = await SessionHarness.create({
      "Cargo.toml": '[package]\nname = "x"\n',
      // Setup alone writes the cache; the test command finds it there and cannot write it.
      ".github/patchgate.yml":
        'setup: mkdir -p "$CARGO_HOME" && touch "$CARGO_HOME/seen"\ntest: cargo test && test -e "$CARGO_HOME/seen" && ! touch "$CARGO_HOME/again" 2>/dev/null\n',
    });
    const cacheRoot = join(h.dataDir, "cache");
    const llm = new ScriptedLLM([
      { toolCalls: [{ name: "submit_plan", arguments: { summary: "run the tests", steps: ["run them"] } }] },
      { toolCalls: [{ name: "run_tests", arguments: {} }] },
      { toolCalls: [{ name: "finish", arguments: { summary: "nothing to change" } }] },
    ]);
    expect(await h.resume(llm, { host: host.facts(), cacheRoot })).toEqual({ kind: "parked", phase: "awaiting_plan_approval" });
    const resolved = h.ledger.history.filter((e) => e.type === "toolchains_resolved");
    const dir = join(host.home, ".rustup", "toolchains", STABLE.name);
    expect(resolved).toEqual([
      expect.objectContaining({ toolchains: [expect.objectContaining({ name: "rust", version: "1.95.0", path: join(dir, "bin"), binds: [dir] })], unmet: [] }),
    ]);
    await approvePlan(h.ledger, cli, h.ledger.state.planHash!);
    await h.restart();
    // A later resume with another host view does not resolve again: the ledger decides.
    const elsewhere = new FakeHost();
    try {
      expect(await h.resume(llm, { host: elsewhere.facts(), cacheRoot })).toEqual({ kind: "ready_to_publish" });
    } finally {
      elsewhere.cleanup();
    }
    expect(h.ledger.history.filter((e) => e.type === "toolchains_resolved")).toHaveLength(1);
    const run = h.ledger.state.testRuns.at(-1)!;
    expect(run.exitCode).toBe(0);
    expect(run.summary).toContain(`cargo from ${STABLE.name} (rustc 1.95.0) args: test`);
    expect(existsSync(join(cacheRoot, "s-test", "cargo", "seen"))).toBe(true);
    expect(existsSync(join(cacheRoot, "s-test", "cargo", "again"))).toBe(false);
  });
});
