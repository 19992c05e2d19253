import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { findWalk } from "../../../src/sandbox/credential-walk.js";
import { keepWalk, nowNs, recordFile } from "../../../src/sandbox/credential-walk-store.js";
import { type Harness } from "../../harness/harness.js";
import { ISSUE } from "../../harness/story.js";
import { Ledger } from "../../../src/store/ledger.js";
import { statfsFree } from "../../../src/workspace/disk-guard.js";
import { HangingModel } from "../../fakes/hanging-model.js";
import { created } from "../../helpers/session-events.js";
import { storyHarness } from "../../harness/story-helpers.js";

/**
 * Through the app: housekeeping sweeps every 50 ms with no retention, removes the kept toolchain
 * walks no process would take again, and never touches the
 * workspace of a running session while it removes an ended one's; then, with the free-space
 * threshold set above the disk's real free space, a new session is refused with a comment, and the
 * running session goes on untouched.
 */
describe("housekeeping and the disk-low guard", () => {
  let h: Harness;
  const model = new HangingModel();
  const walks = mkdtempSync(join(tmpdir(), "pg-housekeeping-walks-"));
  beforeAll(async () => {
    h = await storyHarness({ script: [], llm: () => model, housekeeping: { retentionMs: 0, everyMs: 50 }, sandboxExtras: { toolchainWalks: walks } });
  });
  afterAll(async () => {
    await h.close();
    rmSync(walks, { recursive: true, force: true });
  });

  test("a kept toolchain walk of a toolchain since removed is swept; a true one stays", async () => {
    const trees = mkdtempSync(join(tmpdir(), "pg-housekeeping-trees-"));
    try {
      for (const name of ["kept", "removed"]) {
        mkdirSync(join(trees, name, "lib"), { recursive: true });
        await keepWalk(walks, join(trees, name), (await findWalk(join(trees, name)))!, nowNs() + 60_000_000_000n);
      }
      const swept = h.logged((l) => l === "housekeeping: removed 1 kept toolchain walk(s) no longer true");
      rmSync(join(trees, "removed"), { recursive: true });
      await swept;
      expect(readdirSync(walks)).toEqual([recordFile(walks, join(trees, "kept")).slice(walks.length + 1)]);
    } finally {
      rmSync(trees, { recursive: true, force: true });
    }
  });

  test("a running session keeps its workspace while an ended one's goes; a low disk refuses a new session only", async () => {
    await h.send("issue_comment", h.payloads.comment({ number: ISSUE.number, title: ISSUE.title, body: "/agent fix this", by: "maintainer" }));
    await model.called; // running: planning, inside its model call
    const [running] = await h.app.deps.store.list();
    const workspaces = h.app.deps.workspacesDir;
    const cacheRoot = h.app.deps.sandboxExtras!.cacheRoot!;
    expect(existsSync(join(workspaces, running.id, ".git"))).toBe(true);
    expect(existsSync(join(cacheRoot, running.id, "home"))).toBe(true);

    // An ended session's leftovers: a sweep takes them while the running one is mid-call.
    const ended = await Ledger.create(h.app.deps.store, created("ended-1"));
    await ended.append({ type: "session_cancelled", by: "maintainer" });
    mkdirSync(join(workspaces, "ended-1", ".git"), { recursive: true });
    mkdirSync(join(cacheRoot, "ended-1", "home"), { recursive: true });
    await h.logged((l) => l.startsWith("housekeeping: removed the workspaces of 1 session(s)"));
    expect(existsSync(join(workspaces, "ended-1"))).toBe(false);
    expect(existsSync(join(cacheRoot, "ended-1"))).toBe(false);
    expect(existsSync(join(workspaces, running.id, ".git"))).toBe(true);

    // The disk "fills up": the threshold is set a TiB above what is really free there.
    const free = await statfsFree(workspaces);
    h.app.deps.diskGuard = { minFreeBytes: free + 2 ** 40 };
    const comments = h.github.world.comments.length;
    const reactions = h.github.world.reactions.length;
    await h.send("issue_comment", h.payloads.comment({ number: 2, title: "Another bug", body: "/agent fix this", by: "maintainer" }));
    const refusal = await h.logged((l) => l.startsWith("session for #2 refused"));
    expect(refusal).toMatch(/^session for #2 refused: \d+ bytes free, \d+ kept free$/);
    await h.logged((l) => /^delivery \S+ done$/.test(l));
    const posted = h.github.world.comments.slice(comments);
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({ issue_number: 2 });
    expect(posted[0].body).toContain("Patchgate did not start a session");
    expect(posted[0].body).toContain("`PATCHGATE_MIN_FREE_DISK_GB`");
    expect(posted[0].body).not.toContain(dirname(workspaces));
    expect(h.github.world.reactions.slice(reactions)).toEqual([]);
    expect((await h.app.deps.store.list()).map((s) => s.id).sort()).toEqual([running.id, "ended-1"].sort());
    expect(h.github.world.checkRuns).toHaveLength(1);

    // The running session was not touched: still in its model call, its workspace in place.
    expect(model.aborted).toBe(false);
    expect((await Ledger.open(h.app.deps.store, running.id)).state.phase).toBe("planning");
    expect(existsSync(join(workspaces, running.id, ".git"))).toBe(true);
    // Once it has ended (stopped), the next sweep takes its workspace and cache too.
    const swept = h.logged((l) => l.startsWith("housekeeping: removed"));
    await h.send("issue_comment", h.payloads.comment({ number: ISSUE.number, body: "/agent stop", by: "maintainer" }));
    await h.settle();
    expect(model.aborted).toBe(true);
    await swept;
    expect(existsSync(join(workspaces, running.id))).toBe(false);
    expect(existsSync(join(cacheRoot, running.id))).toBe(false);
    expect(h.app.errors).toEqual([]);
  });
});
