import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { GitWorkspace } from "../../src/workspace/git-workspace.js";
import { bubblewrapIn, SANDBOX_FORMS, sh, tempWorkspace, type FormSandbox } from "./sandbox-fixture.js";

/**
 * A run that discards its ignored writes (every run but setup and a command a human approved):
 * whatever it created, changed or deleted where git ignores — an installed package, a build
 * directory, a log — is as before it ran, so nothing it leaves there reaches a later run. Its other
 * changes reach the workspace, where rollback puts them back and names them.
 */
const IGNORES = "node_modules/\nbuild/\n*.log\n";
const DEP = "module.exports = () => true;\n";

/** A committed repository with an installed dependency and an earlier build, both ignored. */
function repository(dir: string): GitWorkspace {
  const git = (...args: string[]) => execFileSync("git", ["-C", dir, ...args], { encoding: "utf8" }).trim();
  git("init", "-q");
  writeFileSync(join(dir, ".gitignore"), IGNORES);
  writeFileSync(join(dir, "src.js"), "base\n");
  git("add", ".");
  git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "base");
  mkdirSync(join(dir, "node_modules", "dep"), { recursive: true });
  writeFileSync(join(dir, "node_modules", "dep", "index.js"), DEP);
  mkdirSync(join(dir, "build"));
  writeFileSync(join(dir, "build", "old.js"), "old build\n");
  return new GitWorkspace(dir, git("rev-parse", "HEAD"));
}

/** Runs `body` on a fresh repository (repository()), removed afterwards. */
async function inRepository(body: (dir: string, workspace: GitWorkspace) => Promise<void>): Promise<void> {
  const ws = tempWorkspace("pg-ignored-");
  try {
    await body(ws.dir, repository(ws.dir));
  } finally {
    ws.cleanup();
  }
}

const PLANT = [
  "echo 'module.exports = () => false;' > node_modules/dep/index.js",
  "mkdir -p node_modules/new && echo x > node_modules/new/index.js",
  "echo new > build/new.js",
  "rm build/old.js",
  "mkdir -p dist && echo d > dist/keep.log",
  "echo changed > src.js",
  "mkdir -p out && echo y > out/y.txt",
  "echo planted",
].join(" && ");

describe.each(SANDBOX_FORMS)("bubblewrap (%s): a run's writes where git ignores", (form) => {
  let sandbox: FormSandbox;
  beforeAll(async () => {
    sandbox = await bubblewrapIn(form);
  });
  afterAll(() => sandbox.end());

  test("are discarded when the run discards them; its other changes reach the workspace", async () =>
    inRepository(async (dir, workspace) => {
      const r = await sh(sandbox, dir, PLANT, { discardIgnored: (rels) => workspace.ignoredAmong(rels) });
      expect([r.exitCode, r.stdout]).toEqual([0, "planted\n"]);
      expect(readFileSync(join(dir, "node_modules", "dep", "index.js"), "utf8")).toBe(DEP);
      expect(existsSync(join(dir, "node_modules", "new"))).toBe(false);
      expect(existsSync(join(dir, "build", "new.js"))).toBe(false);
      expect(readFileSync(join(dir, "build", "old.js"), "utf8")).toBe("old build\n");
      // An ignored file in a directory that is not ignored goes too.
      expect(existsSync(join(dir, "dist", "keep.log"))).toBe(false);
      expect(readFileSync(join(dir, "src.js"), "utf8")).toBe("changed\n");
      expect(readFileSync(join(dir, "out", "y.txt"), "utf8")).toBe("y\n");
    }));

  test("a directory holding ignored entries is not deleted or replaced with them; one holding none is", async () =>
    inRepository(async (dir, workspace) => {
      for (const top of ["pkg", "plain"]) {
        mkdirSync(join(dir, top, "lib"), { recursive: true });
        writeFileSync(join(dir, top, "lib", "a.js"), "a\n");
      }
      mkdirSync(join(dir, "pkg", "lib", "node_modules", "dep"), { recursive: true });
      writeFileSync(join(dir, "pkg", "lib", "node_modules", "dep", "index.js"), DEP);
      const r = await sh(sandbox, dir, "rm -r pkg/lib && echo file > pkg/lib && rm -r plain/lib && echo gone", {
        discardIgnored: (rels) => workspace.ignoredAmong(rels),
      });
      expect([r.exitCode, r.stdout]).toEqual([0, "gone\n"]);
      expect(readFileSync(join(dir, "pkg", "lib", "node_modules", "dep", "index.js"), "utf8")).toBe(DEP);
      expect(existsSync(join(dir, "plain", "lib"))).toBe(false);
    }));

  test("are kept when the run keeps them (setup, a command a human approved)", async () =>
    inRepository(async (dir) => {
      const r = await sh(sandbox, dir, PLANT);
      expect(r.exitCode).toBe(0);
      expect(readFileSync(join(dir, "node_modules", "dep", "index.js"), "utf8")).toBe("module.exports = () => false;\n");
      expect(readFileSync(join(dir, "build", "new.js"), "utf8")).toBe("new\n");
      expect(existsSync(join(dir, "build", "old.js"))).toBe(false);
    }));

  test("a run whose paths cannot be judged keeps nothing", async () =>
    inRepository(async (dir) => {
      const r = await sh(sandbox, dir, PLANT, { discardIgnored: () => Promise.reject(new Error("git is gone")) });
      expect(r.exitCode).toBe(0);
      expect(readFileSync(join(dir, "node_modules", "dep", "index.js"), "utf8")).toBe(DEP);
      expect(readFileSync(join(dir, "src.js"), "utf8")).toBe("base\n");
      expect(existsSync(join(dir, "out"))).toBe(false);
    }));
});
