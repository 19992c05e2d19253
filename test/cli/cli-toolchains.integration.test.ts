import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { startFakeOpenAI, type FakeOpenAIServer } from "../fakes/chat/server.js";
import { runCli, spawnCli } from "../helpers/cli-process.js";
import { makeRepo, tempDir } from "../helpers/git-fixture.js";
import { SqliteSessionStore } from "../../src/store/sqlite-store.js";
import { exe, FakeHost } from "../toolchain/layouts.js";

/** The CLI on a repository whose pinned toolchain no host has, and with the operator's settings file. */
describe("patchgate run: toolchains", () => {
  let server: FakeOpenAIServer | undefined;
  const cleanups: (() => void)[] = [];
  afterEach(async () => {
    await server?.close();
    for (const c of cleanups.splice(0)) c();
  });

  function setup(files: Record<string, string>) {
    const repo = makeRepo(files);
    const data = tempDir("pg-cli-tc-");
    cleanups.push(repo.cleanup, () => rmSync(data, { recursive: true, force: true }));
    return { repo, data };
  }

  test("a pin that cannot be satisfied ends blocked before the first model call, naming the version and what to install", async () => {
    const { repo, data } = setup({
      "Cargo.toml": '[package]\nname = "x"\nversion = "0.1.0"\n',
      "src/lib.rs": "\n",
      "rust-toolchain.toml": '[toolchain]\nchannel = "1.2.3"\n',
    });
    server = await startFakeOpenAI([{ content: "never asked" }]);
    const env = { OPENAI_API_KEY: "sk-cli-test-key", OPENAI_BASE_URL: server.baseURL, PATCHGATE_DATA_DIR: data, PATCHGATE_MODEL: "fake-model" };
    const r = await runCli(["run", "--repo", repo.dir, "--approve-plan", "--approve-writes", "Fix the quoting"], env);
    expect(r.code).toBe(1);
    expect(server.requests).toHaveLength(0);
    expect(r.stdout).toContain(
      "blocked: The repository needs toolchains this host does not have: rust 1.2.3 (rust-toolchain.toml): rustup toolchain install 1.2.3",
    );
    const id = /session (\S+)/.exec(r.stdout)![1];
    const shown = await runCli(["show", id], { PATCHGATE_DATA_DIR: data });
    expect(shown.stdout).toMatch(/toolchains resolved: .*missing: rust 1\.2\.3 \(rust-toolchain\.toml\)/);
    expect(shown.stdout).toMatch(/- Missing on the host: rust 1\.2\.3, asked by `rust-toolchain\.toml` — rustup toolchain install 1\.2\.3/);
    expect(shown.stdout.split("\n")[0]).toBe("Patchgate: Blocked: toolchain_missing");
  });

  test("--settings: an operator toolchain is bound and on PATH; a broken or HOME-wide entry is a usage error naming the field", async () => {
    const { repo, data } = setup({ ".github/patchgate.yml": "test: zig version\n", "README.md": "x\n" });
    const zig = join(data, "opt", "zig");
    mkdirSync(join(zig, "bin"), { recursive: true });
    writeFileSync(join(zig, "bin", "zig"), "#!/bin/sh\necho zig 0.13.0\n", { mode: 0o755 });
    const settings = join(data, "settings.yml");
    writeFileSync(settings, `sandbox:\n  toolchains:\n    - bin: ${zig}/bin\n`);
    server = await startFakeOpenAI([
      { toolCalls: [{ name: "submit_plan", arguments: { summary: "run", steps: ["run the tests"] } }] },
      { toolCalls: [{ name: "run_tests", arguments: {} }] },
      { toolCalls: [{ name: "finish", arguments: { summary: "nothing to change" } }] },
    ]);
    const env = { OPENAI_API_KEY: "sk-cli-test-key", OPENAI_BASE_URL: server.baseURL, PATCHGATE_DATA_DIR: data, PATCHGATE_MODEL: "fake-model" };
    const r = await runCli(["run", "--repo", repo.dir, "--approve-plan", "--approve-writes", "--settings", settings, "Run the tests"], env);
    expect(r.stdout).toContain("│ zig 0.13.0");
    expect(r.stdout).toContain(`zig unknown at ${zig}/bin (operator settings (sandbox.toolchains[0]))`);
    expect(server.remaining()).toBe(0);

    writeFileSync(settings, "sandbox:\n  toolchains:\n    - bin: relative/bin\n");
    const bad = await runCli(["run", "--repo", repo.dir, "--settings", settings, "x"], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("`sandbox.toolchains.0.bin` must be an absolute path: relative/bin");
    writeFileSync(settings, `sandbox:\n  toolchains:\n    - bin: ${data}/opt/zig/bin\n    - bin: ${homedir()}\n`);
    const wide = await runCli(["run", "--repo", repo.dir, "--settings", settings, "x"], env);
    expect(wide.code).toBe(2);
    expect(wide.stderr).toContain(`\`sandbox.toolchains.1\`: ${homedir()} cannot be bound: it is ${homedir()}`);
    expect(bad.stderr + wide.stderr).not.toContain("    at ");
  });

  test("kill -9 during a test run: the resume, on a host without that toolchain, runs the recorded one and never resolves again", async () => {
    const { repo, data } = setup({ ".github/patchgate.yml": "test: cargo test\n", "README.md": "x\n" });
    const STABLE = "stable-x86_64-unknown-linux-gnu";
    const host = new FakeHost().rustup([{ name: STABLE, rustc: "1.95.0" }], STABLE);
    const bare = new FakeHost();
    cleanups.push(
      () => host.cleanup(),
      () => bare.cleanup(),
    );
    // The first run hangs (it is killed there); the test marks the toolchain for the next one (a test
    // run itself writes nothing that outlives it outside the workspace).
    const toolchain = join(host.home, ".rustup", "toolchains", STABLE);
    exe(
      join(toolchain, "bin", "cargo"),
      `if [ -e "${toolchain}/resumed" ]; then echo "cargo from ${STABLE}: ok"; exit 0; fi\necho "cargo: first run, hanging"; exec sleep 600`,
    );
    server = await startFakeOpenAI([
      { toolCalls: [{ name: "submit_plan", arguments: { summary: "run", steps: ["run the tests"] } }] },
      { toolCalls: [{ name: "run_tests", arguments: {} }] },
      { toolCalls: [{ name: "run_tests", arguments: {} }] },
      { toolCalls: [{ name: "finish", arguments: { summary: "nothing to change" } }] },
    ]);
    const env = { OPENAI_API_KEY: "sk-cli-test-key", OPENAI_BASE_URL: server.baseURL, PATCHGATE_DATA_DIR: data, PATCHGATE_MODEL: "fake-model" };
    const first = await spawnCli(["run", "--repo", repo.dir, "--approve-plan", "--approve-writes", "--verbose", "Run the tests"], {
      ...env,
      ...(host.facts().env as Record<string, string>),
    });
    await first.printed("cargo: first run, hanging");
    first.child.kill("SIGKILL");
    expect(await first.exited).toBe("SIGKILL");
    writeFileSync(join(toolchain, "resumed"), "");
    const id = /session (\S+)/.exec(first.stdout())![1];

    // Another HOME, no rustup on PATH: resolving again would find no cargo and block.
    const r = await runCli(["resume", id, "--approve-plan", "--approve-writes"], { ...env, ...(bare.facts().env as Record<string, string>) });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`cargo from ${STABLE}: ok`);
    const store = SqliteSessionStore.open(join(data, "patchgate.sqlite"));
    try {
      const events = await store.load(id);
      const resolved = events.filter((e) => e.type === "toolchains_resolved");
      expect(resolved).toEqual([
        expect.objectContaining({ toolchains: [expect.objectContaining({ name: "rust", path: join(host.home, ".rustup", "toolchains", STABLE, "bin") })] }),
      ]);
      expect(events.filter((e) => e.type === "resumed").length).toBeGreaterThanOrEqual(2);
      expect(events.at(-1)!.type).toBe("published");
    } finally {
      await store.close();
    }
  });
});
