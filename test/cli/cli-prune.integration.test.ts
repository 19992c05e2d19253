import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { findWalk } from "../../src/sandbox/credential-walk.js";
import { keepWalk, nowNs } from "../../src/sandbox/credential-walk-store.js";
import type { Phase } from "../../src/session/types.js";
import type { SessionEvent } from "../../src/session/events.js";
import { SqliteSessionStore } from "../../src/store/sqlite-store.js";
import { tempDir } from "../helpers/git-fixture.js";
import { cli } from "../helpers/run-cli.js";

const created = (sessionId: string): SessionEvent => ({
  type: "session_created",
  sessionId,
  task: { title: "t", body: "t", source: { kind: "cli", repo: "/src/project" } },
  model: "fake",
  settings: { maxStepsPerResume: 5, limits: {} },
});

const SESSIONS: Record<string, Phase> = {
  "0000000a-0000-4000-8000-000000000001": "done",
  "0000000b-0000-4000-8000-000000000002": "failed",
  "0000000c-0000-4000-8000-000000000003": "awaiting_plan_approval",
  "0000000d-0000-4000-8000-000000000004": "executing",
};

async function storedIds(data: string): Promise<string[]> {
  const store = SqliteSessionStore.open(join(data, "patchgate.sqlite"));
  try {
    return (await store.list()).map((s) => s.id).sort();
  } finally {
    await store.close();
  }
}

describe("patchgate prune", () => {
  let data: string;
  beforeEach(async () => {
    data = tempDir("pg-prune-");
    const store = SqliteSessionStore.open(join(data, "patchgate.sqlite"));
    for (const [id, phase] of Object.entries(SESSIONS)) {
      await store.append(id, [created(id)], { phase });
      for (const root of ["workspaces", "cache"]) {
        mkdirSync(join(data, root, id), { recursive: true });
        writeFileSync(join(data, root, id, "f"), "x");
      }
    }
    await store.close();
  });
  afterEach(() => rmSync(data, { recursive: true, force: true }));

  const [done, failed, parked, live] = Object.keys(SESSIONS);

  test("removes ended sessions' ledger, workspace and cache; a parked or live session keeps all of it", async () => {
    const r = await cli(["prune"], { PATCHGATE_DATA_DIR: data });
    expect(r).toEqual({ code: 0, stdout: `pruned 2 ended session(s) from ${data}; 2 kept\n`, stderr: "" });
    expect(await storedIds(data)).toEqual([parked, live]);
    for (const root of ["workspaces", "cache"]) {
      expect([done, failed, parked, live].map((id) => existsSync(join(data, root, id)))).toEqual([false, false, true, true]);
    }
  });

  test("removes the kept toolchain walks no process would take again, and says so", async () => {
    const tree = join(data, "gone-toolchain");
    mkdirSync(join(tree, "lib"), { recursive: true });
    const walks = join(data, "toolchain-walks");
    await keepWalk(walks, tree, (await findWalk(tree))!, nowNs() + 60_000_000_000n);
    rmSync(tree, { recursive: true });
    const r = await cli(["prune"], { PATCHGATE_DATA_DIR: data });
    expect(r.stdout).toBe(`pruned 2 ended session(s) from ${data}; 2 kept\nremoved 1 kept toolchain walk(s) no longer true; 0 kept\n`);
    expect(readdirSync(walks)).toEqual([]);
  });

  test("--older-than keeps sessions that ended more recently; a bad age is one usage line", async () => {
    const r = await cli(["prune", "--older-than", "1d"], { PATCHGATE_DATA_DIR: data });
    expect(r).toEqual({ code: 0, stdout: `pruned 0 ended session(s) from ${data}; 4 kept\n`, stderr: "" });
    expect(existsSync(join(data, "workspaces", done))).toBe(true);
    const bad = await cli(["prune", "--older-than", "soon"], { PATCHGATE_DATA_DIR: data });
    expect(bad).toEqual({ code: 2, stdout: "", stderr: `patchgate: --older-than must be a number with a unit (30m, 12h, 7d), got "soon"\n` });
  });
});
