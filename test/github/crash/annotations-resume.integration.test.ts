import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CheckRunPublisher } from "../../../src/github/outbound/check-run.js";
import type { Octokit } from "../../../src/github/octokit.js";
import { Outbound } from "../../../src/github/outbound/outbound.js";
import type { SessionEvent } from "../../../src/session/events.js";
import { SqliteSessionStore } from "../../../src/store/sqlite-store.js";
import { Ledger } from "../../../src/store/ledger.js";
import { hex, okResult, StoryLedger } from "../../trace/fixtures/story-ledger.js";

/**
 * Annotations are appended by GitHub, so a completion that dies after some batches must not send
 * them again: each batch is recorded once GitHub took it, and the next completion goes on from there.
 */
const REPO = { id: 1, owner: "o", repo: "r", defaultBranch: "main", installationId: 1 };

class Recorder {
  readonly batches: number[] = [];
  failOnBatch: number | null = null;
  readonly octokit = {
    rest: { checks: { create: async () => ({ data: { id: 7, html_url: "https://gh/runs/7" } }) } },
    request: async (_route: string, p: { output: { annotations?: unknown[] } }) => {
      const n = p.output.annotations?.length ?? 0;
      if (n > 0 && this.failOnBatch === this.batches.filter((b) => b > 0).length) {
        this.failOnBatch = null;
        throw new Error("502 (injected)");
      }
      this.batches.push(n);
      return { data: {} };
    },
  } as unknown as Octokit;
}

/** A done session whose one edit added 130 separate lines. */
function doneSession(): SessionEvent[] {
  const lines = Array.from({ length: 130 }, (_, i) => `@@ -${2 * i + 1},0 +${2 * i + 1} @@\n+line ${i}`).join("\n");
  const patch = `diff --git a/f.txt b/f.txt\nindex ${hex("a")}..${hex("b")} 100644\n--- a/f.txt\n+++ b/f.txt\n${lines}\n`;
  const diff: SessionEvent = { type: "diff_updated", diff: { patch, stat: "", filesChanged: 1, insertions: 130, deletions: 0 } };
  const s = new StoryLedger("sess-resume").start().read().plan(hex("p", 64));
  s.approvePlan({ login: "alice", via: "review" }, hex("p", 64));
  s.step(null, [{ tool: "write_file", args: { path: "f.txt" }, decision: "allow", rule: "allow:x", subject: "f.txt", facts: [diff], result: okResult({}) }]);
  s.step(null, [
    {
      tool: "finish",
      args: { summary: "s" },
      decision: "allow",
      facts: [diff, { type: "finish_accepted", summary: "s", treeHash: hex("t") }],
      result: okResult({}),
    },
  ]);
  s.add({ type: "published", branch: "b", commit: hex("c"), tree: hex("t") });
  return s.events.map(({ seq: _s, at: _a, ...e }) => e as SessionEvent);
}

test("a completion that died after the second batch resumes with the third, sending nothing twice", async () => {
  const dir = mkdtempSync(join(tmpdir(), "pg-annotate-"));
  const store = SqliteSessionStore.open(join(dir, "s.sqlite"));
  try {
    const [created, ...rest] = doneSession();
    const ledger = await Ledger.create(store, created as Extract<SessionEvent, { type: "session_created" }>);
    await ledger.append(...rest);
    const gh = new Recorder();
    const publisher = () =>
      new CheckRunPublisher(new Outbound(gh.octokit, REPO, { secrets: [], htmlBase: "https://gh" }), store, ledger, { secrets: [], throttleMs: 3_600_000 });
    await publisher().moveTo(hex("c"));
    gh.batches.length = 0;

    gh.failOnBatch = 2;
    await expect(publisher().complete()).rejects.toThrow("502 (injected)");
    expect(gh.batches).toEqual([50, 50]);
    await publisher().complete();
    // The completing update again (it carries the next batch), then nothing more.
    expect(gh.batches).toEqual([50, 50, 30]);
    await publisher().complete();
    expect(gh.batches).toEqual([50, 50, 30, 0]);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
