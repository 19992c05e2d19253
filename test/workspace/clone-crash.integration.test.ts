import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { basename, dirname, join } from "node:path";
import { createSession, prepareWorkspace, reopenWorkspace } from "../../src/agent/session-service.js";
import { Ledger } from "../../src/store/ledger.js";
import { SqliteSessionStore } from "../../src/store/sqlite-store.js";
import { fileAppears } from "../helpers/file-appears.js";
import { BUGGY_ADD_REPO, makeRepo, tempDir } from "../helpers/git-fixture.js";
import { spawnScript } from "../helpers/script-process.js";

/**
 * A worker killed with -9 while it clones a session's workspace, at the awkward point: the clone's
 * objects and `.git` are on disk, its files are not yet checked out. Whoever opens the session next
 * on that disk must get the repository's files, never a `.git` without them (a chaos run once saw a
 * session whose every read in execute mode answered file_not_found), and never a refusal to clone
 * into the dead clone's directory.
 */
describe("a clone cut by kill -9 between fetching and checking out", () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const c of cleanups.splice(0)) c();
  });

  /** A `git` first on PATH that, asked to check out, says so in a file and waits to be killed. */
  function holdingGit(root: string): { path: string; held: string } {
    const real = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
    const bin = join(root, "shim");
    const held = join(root, "held", "checkout");
    mkdirSync(bin);
    mkdirSync(dirname(held));
    writeFileSync(join(bin, "git"), `#!/bin/sh\ncase " $* " in *" checkout "*) : > '${held}'; exec sleep 600;; esac\nexec '${real}' "$@"\n`);
    chmodSync(join(bin, "git"), 0o755);
    return { path: `${bin}:${process.env.PATH}`, held };
  }

  async function world() {
    const repo = makeRepo(BUGGY_ADD_REPO);
    const root = tempDir("pg-clone-crash-");
    cleanups.push(repo.cleanup, () => rmSync(root, { recursive: true, force: true }));
    const file = join(root, "sessions.sqlite");
    const store = SqliteSessionStore.open(file);
    cleanups.push(() => void store.close());
    const ledger = await createSession(store, { task: { title: "t", body: "b", source: { kind: "cli", repo: repo.dir } }, model: "m" });
    return { repo, root, file, store, ledger };
  }

  /** Runs the worker until the held checkout, then kills it with -9 (its spawn helper takes git down with it). */
  async function killedAtCheckout(w: Awaited<ReturnType<typeof world>>, dir: string, ref?: string): Promise<void> {
    const git = holdingGit(w.root);
    const worker = await spawnScript("test/fakes/reopening-worker.ts", {
      REOPEN_STORE: w.file,
      REOPEN_SESSION: w.ledger.sessionId,
      REOPEN_SOURCE: w.repo.dir,
      REOPEN_DIR: dir,
      ...(ref ? { REOPEN_REF: ref } : {}),
      PATH: git.path,
    });
    cleanups.push(() => void worker.kill9());
    await fileAppears(git.held, 60_000);
    await worker.kill9();
    expect(worker.output()).not.toContain("opened");
  }

  function expectCheckedOut(root: string, dir: string): void {
    expect(readFileSync(join(root, "src/add.js"), "utf8")).toBe(BUGGY_ADD_REPO["src/add.js"]);
    // A cut attempt's leftovers do not pile up beside the workspace.
    expect(readdirSync(dirname(dir)).filter((n) => n.startsWith(basename(dir)))).toEqual([basename(dir)]);
  }

  test("before the workspace was recorded: the next open clones afresh", async () => {
    const w = await world();
    const dir = join(w.root, "workspaces", w.ledger.sessionId);
    await killedAtCheckout(w, dir, "main");
    const ledger = await Ledger.open(w.store, w.ledger.sessionId);
    expect(ledger.state.baseCommit).toBeNull();
    const ws = await reopenWorkspace(ledger, { source: w.repo.dir, dir, ref: "main" });
    expect(ledger.state.baseCommit).toBe(ws.baseCommit);
    expectCheckedOut(ws.root, dir);
  });

  test("after it was recorded, on a disk without the clone: the next open has the files", async () => {
    const w = await world();
    const first = await prepareWorkspace(w.ledger, { source: w.repo.dir, dir: join(w.root, "worker-1", w.ledger.sessionId) });
    // Another worker takes the session over: it clones at the recorded base, and dies doing so.
    const dir = join(w.root, "worker-2", w.ledger.sessionId);
    await killedAtCheckout(w, dir);
    const ledger = await Ledger.open(w.store, w.ledger.sessionId);
    const ws = await reopenWorkspace(ledger, { source: w.repo.dir, dir });
    expect(ws.baseCommit).toBe(first.baseCommit);
    expectCheckedOut(ws.root, dir);
    expect(existsSync(join(ws.root, ".git"))).toBe(true);
  });
});
