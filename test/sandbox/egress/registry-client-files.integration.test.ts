import { BubblewrapSession } from "../../../src/sandbox/bubblewrap-session.js";
import type { PrivateRegistry } from "../../../src/sandbox/egress/private-registry.js";
import { selectSandbox } from "../../../src/sandbox/select.js";
import type { Sandbox } from "../../../src/sandbox/types.js";
import { sh, tempWorkspace } from "../sandbox-fixture.js";

/**
 * cargo's config for the operator's registries is in every run, not only the networked setup: an
 * offline test run finds what setup fetched only through it. Checked without network and in both
 * sandbox forms; the long-lived one keeps a single sandbox for its commands.
 */
const refuse = () => Promise.reject(new Error("no request is made in these tests"));
const CARGO: PrivateRegistry = { name: "corp-cargo", kind: "cargo", url: "https://cargo.corp.example/index/", authorization: refuse };
const NPM: PrivateRegistry = { name: "corp-npm", kind: "npm", url: "https://npm.corp.example/", authorization: refuse };

async function sandboxWith(registries: PrivateRegistry[]): Promise<Sandbox> {
  const chosen = await selectSandbox("bubblewrap", { registries });
  if (chosen.sandbox === null) throw new Error(`bubblewrap unavailable: ${chosen.reason}`);
  return chosen.sandbox;
}

const READ = "cat /.cargo/config.toml";
const INDEX = 'index = "sparse+http://127.0.0.1:3129/corp-cargo/index/"';

test("an offline run, one-shot or in the session's long-lived sandbox, reads the cargo registry's config: its loopback index and nothing else", async () => {
  const ws = tempWorkspace();
  const sandbox = await sandboxWith([CARGO, NPM]);
  const session = sandbox.openSession?.();
  if (!(session instanceof BubblewrapSession)) throw new Error("this sandbox has no long-lived form");
  try {
    const oneShot = await sh(sandbox, ws.dir, READ);
    const first = await sh(session, ws.dir, READ);
    const second = await sh(session, ws.dir, READ);
    for (const r of [oneShot, first, second])
      expect({ exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr }).toEqual({
        exitCode: 0,
        stdout: `[registries.corp-cargo]\n${INDEX}\n`,
        stderr: "",
      });
    // One layout for both commands: the config's file is the same for every run of the sandbox.
    expect({ longLived: session.longLivedRuns, oneShot: session.oneShotRuns, fallback: session.fallbackReason }).toEqual({
      longLived: 2,
      oneShot: 0,
      fallback: null,
    });
  } finally {
    await session.close();
    ws.cleanup();
  }
}, 60_000);

test("the same sandbox's copy for a session's installation token binds the same file; without a cargo registry there is none", async () => {
  const ws = tempWorkspace();
  try {
    const sandbox = await sandboxWith([CARGO]);
    const withToken = sandbox.withInstallationToken?.("ghs_not-used-here");
    if (!withToken) throw new Error("this sandbox takes no installation token");
    const source = "grep /.cargo/config.toml /proc/self/mountinfo | cut -d' ' -f4";
    const [a, b] = [await sh(sandbox, ws.dir, source), await sh(withToken, ws.dir, source)];
    expect(a.stdout).not.toBe("");
    expect(b.stdout).toBe(a.stdout);
    const none = await sh(await sandboxWith([NPM]), ws.dir, READ);
    expect({ exitCode: none.exitCode, stderr: none.stderr }).toEqual({ exitCode: 1, stderr: "cat: /.cargo/config.toml: No such file or directory\n" });
  } finally {
    ws.cleanup();
  }
}, 60_000);
