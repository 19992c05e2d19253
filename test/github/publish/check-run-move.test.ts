import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSession } from "../../../src/agent/session-service.js";
import { CheckRunPublisher } from "../../../src/github/outbound/check-run.js";
import type { Octokit } from "../../../src/github/octokit.js";
import { Outbound } from "../../../src/github/outbound/outbound.js";
import { SqliteSessionStore } from "../../../src/store/sqlite-store.js";
import type { Ledger } from "../../../src/store/ledger.js";

/**
 * The check run follows the head, and a process that dies in the middle of a move leaves records a
 * new process adopts: no second run on a sha, no run left in progress behind the current one.
 * GitHub here is a recorder of the two calls the publisher makes (create, PATCH).
 */
const REPO = { id: 9, owner: "o", repo: "r", defaultBranch: "main", installationId: 1 };
const sha = (c: string) => c.repeat(40);

class GitHubRecorder {
  readonly calls: string[] = [];
  failNextPatch = false;
  /** The next create reaches GitHub, and the process dies before it hears the answer. */
  dieAfterNextCreate = false;
  /** The next create never reaches GitHub. */
  failNextCreate = false;
  private next = 100;
  private readonly runs: { id: number; head_sha: string; external_id: string; html_url: string }[] = [];
  readonly octokit = {
    rest: {
      checks: {
        create: async (p: { head_sha: string; external_id: string }) => {
          const id = (this.next += 1);
          this.calls.push(`create ${id} on ${p.head_sha.slice(0, 1)}`);
          this.runs.push({ id, head_sha: p.head_sha, external_id: p.external_id, html_url: `https://gh/runs/${id}` });
          if (this.failNextCreate) {
            this.failNextCreate = false;
            this.next -= 1;
            this.calls.pop();
            this.runs.pop();
            throw new Error("503 (injected)");
          }
          if (this.dieAfterNextCreate) {
            this.dieAfterNextCreate = false;
            throw new Error("killed (injected)");
          }
          return { data: { id, html_url: `https://gh/runs/${id}` } };
        },
        listForRef: async (p: { ref: string }) => {
          this.calls.push(`list ${p.ref.slice(0, 1)}`);
          return { data: { check_runs: this.runs.filter((r) => r.head_sha === p.ref) } };
        },
      },
    },
    request: async (_route: string, p: { check_run_id: number; conclusion?: string; output: { title: string } }) => {
      if (this.failNextPatch) {
        this.failNextPatch = false;
        throw new Error("502 (injected)");
      }
      this.calls.push(`patch ${p.check_run_id}${p.conclusion ? ` ${p.conclusion}: ${p.output.title}` : ""}`);
      return { data: {} };
    },
  } as unknown as Octokit;
}

describe("moving the check run to a new head", () => {
  let dir: string;
  let store: SqliteSessionStore;
  let ledger: Ledger;
  const gh = new GitHubRecorder();
  const linked: number[] = [];
  const publisher = () =>
    new CheckRunPublisher(new Outbound(gh.octokit, REPO, { secrets: [], htmlBase: "https://gh" }), store, ledger, {
      secrets: [],
      throttleMs: 3_600_000,
      onCurrent: async (id) => void linked.push(id),
    });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "pg-move-"));
    store = SqliteSessionStore.open(join(dir, "s.sqlite"));
    ledger = await createSession(store, { task: { title: "t", body: "", source: { kind: "github", repo: "o/r", issueNumber: 1 } }, model: "m" });
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("the first head gets a run; the same head again adopts it and only refreshes it", async () => {
    expect(await publisher().moveTo(sha("a"))).toEqual({ id: 101, created: true });
    expect(await publisher().moveTo(sha("a"))).toEqual({ id: 101, created: false });
    expect(gh.calls).toEqual(["create 101 on a", "patch 101"]);
  });

  test("a new head: a run there, then the old one closed as moved", async () => {
    gh.calls.length = 0;
    expect(await publisher().moveTo(sha("b"))).toEqual({ id: 102, created: true });
    expect(gh.calls).toEqual(["create 102 on b", "patch 101 neutral: Moved to bbbbbbb"]);
  });

  test("dying between creating the new run and closing the old: the next process adopts, then closes", async () => {
    gh.calls.length = 0;
    gh.failNextPatch = true;
    await expect(publisher().moveTo(sha("c"))).rejects.toThrow("502 (injected)");
    expect(await publisher().moveTo(sha("c"))).toEqual({ id: 103, created: false });
    // No second run on c; b is closed; c is brought up to date (it may have missed events).
    expect(gh.calls).toEqual(["create 103 on c", "patch 102 neutral: Moved to ccccccc", "patch 103"]);
  });

  test("a run orphaned by a failed move is closed by the next move, whatever head that is", async () => {
    gh.calls.length = 0;
    gh.failNextPatch = true;
    await expect(publisher().moveTo(sha("d"))).rejects.toThrow("502 (injected)");
    await publisher().moveTo(sha("e"));
    expect(gh.calls).toEqual(["create 104 on d", "create 105 on e", "patch 103 neutral: Moved to eeeeeee", "patch 104 neutral: Moved to eeeeeee"]);
    // Updates and the completion go to the current run only.
    gh.calls.length = 0;
    await publisher().complete();
    expect(gh.calls).toEqual(["patch 105 failure: Patchgate: Queued"]);
    // Each run that became current (or was adopted as such) was linked for its button.
    expect(linked).toEqual([101, 102, 103, 103, 104, 105]);
  });

  test("a run GitHub created for a process that died before recording it is closed by the next move to another head", async () => {
    gh.calls.length = 0;
    gh.dieAfterNextCreate = true;
    await expect(publisher().moveTo(sha("f"))).rejects.toThrow("killed (injected)");
    await publisher().moveTo(sha("0"));
    // f's run is found on GitHub by the session's tag, recorded and closed: none stays in progress.
    expect(gh.calls).toEqual(["create 106 on f", "create 107 on 0", "list f", "patch 105 neutral: Moved to 0000000", "patch 106 neutral: Moved to 0000000"]);
  });

  test("a head whose creation never reached GitHub is asked about at each later move (a create in flight may still land)", async () => {
    gh.calls.length = 0;
    gh.failNextCreate = true;
    await expect(publisher().moveTo(sha("1"))).rejects.toThrow("503 (injected)");
    await publisher().moveTo(sha("2"));
    await publisher().moveTo(sha("3"));
    expect(gh.calls).toEqual([
      "create 108 on 2",
      "list 1",
      "patch 107 neutral: Moved to 2222222",
      "create 109 on 3",
      "list 1",
      "patch 108 neutral: Moved to 3333333",
    ]);
  });

  test("the completion closes a run left open beside the current one", async () => {
    gh.calls.length = 0;
    gh.dieAfterNextCreate = true;
    await expect(publisher().moveTo(sha("4"))).rejects.toThrow("killed (injected)");
    // The session ends without moving again (it failed): its completion still closes the run on 4.
    await publisher().complete();
    expect(gh.calls).toEqual(["create 110 on 4", "list 1", "list 4", "patch 110 neutral: Moved to 3333333", "patch 109 failure: Patchgate: Queued"]);
  });
});
