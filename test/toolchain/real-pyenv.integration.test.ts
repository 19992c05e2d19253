import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { sessionExtras, withSession } from "../../src/agent/session-sandbox.js";
import { sessionCacheDir } from "../../src/sandbox/session-cache.js";
import { hostFacts } from "../../src/toolchain/host-facts.js";
import { resolveToolchains } from "../../src/toolchain/resolve.js";
import { bubblewrap, tempWorkspace } from "../sandbox/sandbox-fixture.js";
import { file } from "./layouts.js";

/**
 * The machine's own pyenv (this kind of machine has several Pythons under /root/.pyenv): a
 * `.python-version` chooses one of them, and that interpreter — not Debian's /usr/bin/python3 —
 * runs the repository's unittest suite in the sandbox. Without pyenv it skips with one line; under
 * CI (PATCHGATE_CI) it fails instead.
 */
const facts = hostFacts();
const home = facts.env.HOME ?? "";
const root = facts.env.PYENV_ROOT ?? join(home, ".pyenv");
const versions = existsSync(join(root, "versions")) ? readdirSync(join(root, "versions")).filter((v) => /^3\.\d+\.\d+$/.test(v)) : [];

test("with the machine's own pyenv, .python-version picks the interpreter that runs the tests in the sandbox", async () => {
  if (versions.length === 0) {
    if (process.env.PATCHGATE_CI) throw new Error(`pyenv's Pythons are required under CI and none was found under ${root}/versions`);
    console.log(`skipped: the real-pyenv test needs pyenv's Pythons (${root}/versions/3.x.y), none found`);
    return;
  }
  // A minor version the host has, named the way developers pin it (`3.12`, not `3.12.1`).
  const wanted = versions[0].split(".").slice(0, 2).join(".");
  const ws = tempWorkspace("pg-pyenv-");
  const cacheRoot = tempWorkspace("pg-pyenv-cache-");
  try {
    file(join(ws.dir, ".python-version"), `${wanted}\n`);
    file(
      join(ws.dir, "test_version.py"),
      `import sys, unittest\n\nclass T(unittest.TestCase):\n    def test_pinned(self):\n        self.assertEqual("%d.%d" % sys.version_info[:2], "${wanted}")\n`,
    );
    const { toolchains, unmet } = await resolveToolchains({ root: ws.dir, commands: [{ text: "python -m unittest -v", source: "test command" }], host: facts });
    expect(unmet).toEqual([]);
    expect(toolchains).toHaveLength(1);
    const py = toolchains[0];
    expect(py).toMatchObject({ name: "python", how: expect.stringContaining(`pinned by .python-version (${wanted})`) });
    expect(py.version.startsWith(`${wanted}.`)).toBe(true);
    expect(py.binds).toEqual([join(root, "versions", py.version)]);
    const sandbox = withSession(await bubblewrap(), sessionExtras(toolchains, await sessionCacheDir(cacheRoot.dir, "s-py")));
    const script = `python -m unittest -v 2>&1; echo exit=$?; command -v python; ls -A ${home}`;
    const r = await sandbox.run({ argv: ["/bin/sh", "-c", script], workspace: ws.dir, timeoutMs: 120_000 });
    expect(r.stdout).toContain("test_pinned (test_version.T");
    expect(r.stdout).toContain("OK\nexit=0\n");
    expect(r.stdout).toContain(`${py.path}/python\n`);
    // Of HOME, only the directory that leads to the bound version exists inside.
    expect(r.stdout.trimEnd().split("\n").at(-1)).toBe(".pyenv");
  } finally {
    ws.cleanup();
    cacheRoot.cleanup();
  }
}, 150_000);
