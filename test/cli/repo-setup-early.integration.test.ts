import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repoSetup } from "../../src/cli/repo-setup.js";
import type { SandboxSelection } from "../../src/sandbox/select.js";

/** The sandbox choice asked before the clone stands only for a repository that leaves the choice to Patchgate. */
const early: Promise<SandboxSelection> = Promise.resolve({ sandbox: null, reason: "the early answer" });

function clone(config: string | null): { root: string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), "pg-repo-setup-"));
  if (config !== null) {
    mkdirSync(join(root, ".github"), { recursive: true });
    writeFileSync(join(root, ".github", "patchgate.yml"), config);
  }
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

test("a repository that names no backend takes the choice asked before its clone", async () => {
  const c = clone(null);
  try {
    const setup = await repoSetup(c.root, {}, early);
    expect(setup.sandbox).toBeNull();
    expect(setup.sandboxNote).toBe("no sandbox: the early answer (commands will be refused)");
  } finally {
    c.cleanup();
  }
});

test("a repository that names its backend is asked for it, whatever was asked before", async () => {
  const c = clone("sandbox:\n  backend: bubblewrap\n");
  try {
    const setup = await repoSetup(c.root, {}, early);
    expect(setup.sandboxNote).toBe("sandbox: bubblewrap");
    expect(setup.sandbox?.backend).toBe("bubblewrap");
  } finally {
    c.cleanup();
  }
});
