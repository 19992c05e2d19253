import { existsSync } from "node:fs";
import { join } from "node:path";
import { sessionExtras, withSession } from "../../src/agent/session-sandbox.js";
import { sessionCacheDir } from "../../src/sandbox/session-cache.js";
import { hostFacts } from "../../src/toolchain/host-facts.js";
import { resolveToolchains } from "../../src/toolchain/resolve.js";
import { bubblewrap, tempWorkspace } from "../sandbox/sandbox-fixture.js";
import { file } from "./layouts.js";

/**
 * The machine's own rustup (this kind of machine, CI's included, has it under /root/.cargo and
 * /root/.rustup): a zero-dependency crate's `cargo test` passes in the sandbox, with no network and
 * no crates.io. Where cargo is absent it skips with one line; under CI (PATCHGATE_CI) it fails instead.
 */
const facts = hostFacts();
const home = facts.env.HOME ?? "";
const hasRustup = home !== "" && existsSync(join(facts.env.RUSTUP_HOME ?? join(home, ".rustup"), "toolchains"));

test("with the machine's own rustup cargo, a small crate's cargo test passes in the sandbox", async () => {
  if (!hasRustup) {
    if (process.env.PATCHGATE_CI) throw new Error(`rustup's cargo is required under CI and was not found under ${home}/.rustup`);
    console.log(`skipped: the real-cargo test needs rustup's cargo (${home || "$HOME"}/.rustup/toolchains), not found`);
    return;
  }
  const ws = tempWorkspace("pg-crate-");
  const cacheRoot = tempWorkspace("pg-crate-cache-");
  try {
    file(join(ws.dir, "Cargo.toml"), '[package]\nname = "tiny"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n');
    file(
      join(ws.dir, "src", "lib.rs"),
      "pub fn quote(s: &str) -> String {\n    format!(\"'{}'\", s.replace('\\'', \"'\\\\''\"))\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn quotes() {\n        assert_eq!(super::quote(\"it's\"), \"'it'\\\\''s'\");\n    }\n}\n",
    );
    const { toolchains, unmet } = await resolveToolchains({ root: ws.dir, commands: [{ text: "cargo test", source: "test command" }], host: facts });
    expect(unmet).toEqual([]);
    expect(toolchains).toHaveLength(1);
    const rust = toolchains[0];
    expect(rust.name).toBe("rust");
    expect(rust.binds).toHaveLength(1);
    expect(rust.binds[0].startsWith(join(home, ".rustup", "toolchains"))).toBe(true);
    expect(rust.binds[0]).not.toBe(home);
    const cache = await sessionCacheDir(cacheRoot.dir, "s-cargo");
    const run = (extras: ReturnType<typeof sessionExtras>) =>
      withSession(base, extras).run({
        argv: ["/bin/sh", "-c", "cargo test --offline 2>&1; echo exit=$?"],
        workspace: ws.dir,
        timeoutMs: 300_000,
        env: { CARGO_TERM_COLOR: "never" },
      });
    const base = await bubblewrap();
    // The issue as it was: without the resolved toolchain the sandbox has no cargo at all.
    if (!existsSync("/usr/bin/cargo")) {
      const before = await run(sessionExtras([], cache));
      expect(before.stdout).toMatch(/cargo: not found\nexit=127\n$/);
    }
    const r = await run(sessionExtras(toolchains, cache));
    expect(r.stdout).toContain("test tests::quotes ... ok");
    expect(r.stdout).toContain("test result: ok. 1 passed");
    expect(r.stdout).toContain("exit=0");
    // A test run writes nothing to the session cache: only setup does.
    expect(existsSync(join(cache, "cargo"))).toBe(false);
  } finally {
    ws.cleanup();
    cacheRoot.cleanup();
  }
}, 320_000);

// A route the issue did not list: cargo reads `$CARGO_HOME/config.toml`, and `build.rustc-wrapper`
// there runs a program around every rustc call of a later `cargo test`. CARGO_HOME is the session's
// cache, outside HOME.
test("a cargo config planted in CARGO_HOME by one command does not wrap rustc in the next test run", async () => {
  if (!hasRustup) {
    if (process.env.PATCHGATE_CI) throw new Error(`rustup's cargo is required under CI and was not found under ${home}/.rustup`);
    console.log("skipped: the planted cargo config test needs rustup's cargo");
    return;
  }
  const ws = tempWorkspace("pg-crate-plant-");
  const cacheRoot = tempWorkspace("pg-crate-plant-cache-");
  try {
    file(join(ws.dir, "Cargo.toml"), '[package]\nname = "tiny"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n');
    file(join(ws.dir, "src", "lib.rs"), "#[cfg(test)]\nmod tests {\n    #[test]\n    fn runs() {}\n}\n");
    file(join(ws.dir, "wrap.sh"), '#!/bin/sh\necho wrapped >> /workspace/target/wrapped\nexec "$@"\n');
    const { toolchains } = await resolveToolchains({ root: ws.dir, commands: [{ text: "cargo test", source: "test command" }], host: facts });
    const sandbox = withSession(await bubblewrap(), sessionExtras(toolchains, await sessionCacheDir(cacheRoot.dir, "s-plant")));
    const run = (script: string) => sandbox.run({ argv: ["/bin/sh", "-c", script], workspace: ws.dir, timeoutMs: 300_000, env: { CARGO_TERM_COLOR: "never" } });
    await run(`chmod +x wrap.sh; mkdir -p "$CARGO_HOME"; printf '[build]\\nrustc-wrapper = "/workspace/wrap.sh"\\n' > "$CARGO_HOME/config.toml"`);
    const r = await run("cargo test --offline 2>&1; echo exit=$?");
    expect(r.stdout).toContain("exit=0");
    expect(existsSync(join(ws.dir, "target", "wrapped"))).toBe(false);
  } finally {
    ws.cleanup();
    cacheRoot.cleanup();
  }
}, 320_000);
