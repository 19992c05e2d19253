import type { SandboxRunRequest, Sandbox } from "../../src/sandbox/types.js";
import { DEFAULT_REPO_CONFIG } from "../../src/config/repo-config.js";
import { runTestsTool } from "../../src/tools/run-tests.js";
import type { StoredEvent } from "../../src/session/events.js";
import { timelineRows } from "../../src/trace/timeline.js";
import { harnessFactory } from "./helpers/harness-factory.js";
import { bubblewrap } from "./helpers/sandbox.js";
import { config, REPO } from "./helpers/run-tests-repo.js";

/**
 * A first run without `.github/patchgate.yml` must be able to install dependencies: setup reaches the
 * package registries (through the egress proxy) unless the repository opts out. With the opt-out, a
 * package manager fails at once instead of retrying an unreachable registry for minutes, and the
 * failure names the setting to change.
 */
describe("setup network by default", () => {
  const make = harnessFactory();
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await bubblewrap();
  });
  const recording = (seen: SandboxRunRequest[]): Sandbox => ({
    backend: sandbox.backend,
    run: (req) => {
      seen.push(req);
      return sandbox.run(req);
    },
  });
  const offline = (setup: string) => config({ setup, sandbox: { ...DEFAULT_REPO_CONFIG.sandbox, network_for_setup: false } });

  test("a repository that says nothing about it gets the network for its setup, and only for it", async () => {
    const seen: SandboxRunRequest[] = [];
    const h = await make(REPO, { sandbox: recording(seen), repoConfig: config({ setup: "true" }) });
    const { events } = await h.call(runTestsTool, {});
    expect(events.map((e) => e.type)).toEqual(["setup_run", "test_run"]);
    expect(events[0]).toMatchObject({ type: "setup_run", exitCode: 0, network: true });
    expect(seen.map((r) => r.network === true)).toEqual([true, false]);
  });

  test("npm with network_for_setup: false fails without retrying, and the failure names the setting", async () => {
    const pkg = JSON.stringify({ name: "fixture", version: "1.0.0", private: true, dependencies: { "is-number": "7.0.0" } });
    const h = await make({ ...REPO, "package.json": pkg }, { sandbox, repoConfig: offline("npm install --no-audit --no-fund") });
    const { result, events } = await h.call(runTestsTool, {});
    const setup = events[0];
    expect(setup).toMatchObject({ type: "setup_run", network: false });
    // npm's offline mode: the registry is not asked at all (ENOTCACHED), so nothing is retried (EAI_AGAIN).
    expect(setup.type === "setup_run" && setup.summary).toMatch(/ENOTCACHED/);
    expect(result.ok ? "" : result.error.message).toContain("sandbox.network_for_setup is false");
  }, 60_000);

  test("pip with network_for_setup: false fails without retrying", async () => {
    const h = await make(
      { ...REPO, ".gitignore": "runs.log\n.deps/\n", "requirements.txt": "six==1.16.0\n" },
      { sandbox, repoConfig: offline("/usr/bin/python3 -m pip install --target .deps -r requirements.txt") },
    );
    const { events } = await h.call(runTestsTool, {});
    const setup = events[0];
    expect(setup).toMatchObject({ type: "setup_run", network: false });
    // PIP_NO_INDEX: pip looks at no index, so it has nothing to retry.
    expect(setup.type === "setup_run" && setup.summary).toMatch(/No matching distribution found for six==1\.16\.0/);
    expect(setup.type === "setup_run" && setup.summary).not.toMatch(/Retrying/);
  }, 60_000);
});

describe("a networked setup that needs a host outside the allowlist", () => {
  const make = harnessFactory();
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await bubblewrap();
  });

  test("says which host the egress proxy refused and which setting lets it through", async () => {
    const pkg = JSON.stringify({ name: "fixture", version: "1.0.0", private: true, dependencies: { x: "https://example.com/x-1.0.0.tgz" } });
    const h = await make({ ...REPO, "package.json": pkg }, { sandbox, repoConfig: config({ setup: "npm install --no-audit --no-fund" }) });
    const { result, events } = await h.call(runTestsTool, {});
    expect(events[0]).toMatchObject({ type: "setup_run", network: true, refusedHosts: ["example.com:443"] });
    expect(result.ok ? "" : result.error.message).toContain("The egress proxy refused example.com:443: add it to sandbox.allow_hosts");
    const row = timelineRows([{ ...events[0], seq: 1, at: "2026-12-05T00:00:00.000Z" } as StoredEvent])[0].detail;
    expect(row).toContain("the egress proxy refused example.com:443 (sandbox.allow_hosts)");
  }, 120_000);
});
