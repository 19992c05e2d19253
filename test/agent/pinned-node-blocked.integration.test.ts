import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ScriptedLLM } from "../../src/agent/llm/scripted.js";
import type { ResumeOptions } from "../../src/agent/runtime-options.js";
import { nodeFetcher } from "../../src/depcache/index.js";
import { closedPort } from "../helpers/closed-port.js";
import { SessionHarness } from "../helpers/session-harness.js";
import { FakeHost } from "../toolchain/layouts.js";

/**
 * When a pinned Node the host lacks cannot be fetched, the session is blocked before its first model
 * call as before, and the message says why it was not fetched: the repository keeps setup offline,
 * the operator has no dependency cache, or the registry does not answer.
 */
describe("a pinned Node the host lacks, not fetched", () => {
  let host: FakeHost;
  let cacheRoot: string;
  let h: SessionHarness;
  beforeEach(() => {
    host = new FakeHost();
    cacheRoot = mkdtempSync(join(tmpdir(), "pg-depcache-"));
  });
  afterEach(async () => {
    await h.dispose();
    host.cleanup();
    rmSync(cacheRoot, { recursive: true, force: true });
  });

  async function blocked(pin: string, config: string, extra: Partial<ResumeOptions>): Promise<string | undefined> {
    h = await SessionHarness.create({ ".nvmrc": `${pin}\n`, ".github/patchgate.yml": `test: node --version\n${config}` });
    const llm = new ScriptedLLM([{ toolCalls: [{ name: "read_file", arguments: { path: ".nvmrc" } }] }]);
    expect(await h.resume(llm, { host: host.facts(), ...extra })).toEqual({ kind: "ended", phase: "blocked" });
    expect(llm.remaining).toBe(1);
    return h.ledger.state.blocked?.message;
  }

  const head = (pin: string) =>
    `The repository needs toolchains this host does not have: node ${pin} (.nvmrc): nvm install ${pin}; installed: ${process.version.slice(1)} (Patchgate's node)`;
  const tail = ". Install them on the host running Patchgate, then start the session again.";

  test("setup kept offline by the repository: blocked, saying that fetching needs networked setup", async () => {
    const refused = `http://127.0.0.1:${await closedPort()}/`;
    const message = await blocked("22.14.0", "sandbox:\n  network_for_setup: false\n", {
      toolchainFetchers: [nodeFetcher({ cacheRoot, registry: refused })],
    });
    expect(message).toBe(
      `${head("22.14.0")}; fetching it from the npm registry (${refused}) needs networked setup (sandbox.network_for_setup is false in .github/patchgate.yml)${tail}`,
    );
  });

  test("no dependency cache in the operator's settings: blocked, saying the fetch needs one", async () => {
    expect(await blocked("22.14.0", "", {})).toBe(
      `${head("22.14.0")}; fetching it needs the dependency cache (operator settings sandbox.dependency_cache_mb above 0)${tail}`,
    );
  });

  test("a registry that does not answer: blocked with the reason", async () => {
    const refused = `http://127.0.0.1:${await closedPort()}/`;
    const fetchers = [nodeFetcher({ cacheRoot, registry: refused })];
    expect(await blocked("22.14.0", "", { toolchainFetchers: fetchers })).toBe(
      `${head("22.14.0")}; fetching it from the npm registry (${refused}) failed: ${refused.slice(0, -1)} did not answer (ECONNREFUSED)${tail}`,
    );
  });
});
