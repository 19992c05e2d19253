import { rmSync } from "node:fs";
import { join } from "node:path";
import { buildCallEnv } from "../../src/agent/build-call-env.js";
import type { ResumeOutcome } from "../../src/agent/outcome.js";
import { newResumeEnv, runSteps, type ResumeEnv } from "../../src/agent/resume-steps.js";
import type { ResumeOptions } from "../../src/agent/runtime-options.js";
import { DEFAULT_REPO_CONFIG } from "../../src/config/repo-config.js";
import { besideCommitsSettled } from "../../src/depcache/beside-commits.js";
import type { EntryMeta } from "../../src/depcache/dependency-store.js";
import { Ledger } from "../../src/store/ledger.js";
import { SqliteSessionStore } from "../../src/store/sqlite-store.js";
import { tempDir } from "../helpers/git-fixture.js";
import { created } from "../helpers/session-events.js";

/**
 * A dependency-cache entry stored by a resume's setup is committed beside the session. A resume that
 * parks returns without waiting for it (writes approved in advance resume at once); one that ends
 * the session or hands it to publication waits; the process waits for every one before it ends; and
 * a later resume whose sandbox may write into the workspace's files in place starts after it.
 */
const PARKED: ResumeOutcome = { kind: "parked", phase: "awaiting_write_approval" };
const still = <T>(p: Promise<T>) => Promise.race([p.then(() => "settled"), new Promise((r) => setTimeout(() => r("pending"), 300))]);

let dir: string;
let store: SqliteSessionStore;
beforeEach(() => {
  dir = tempDir("pg-park-beside-");
  store = SqliteSessionStore.open(join(dir, "patchgate.sqlite"));
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The options of a resume on workspace `ws`, in a sandbox whose runs write by replacing files or in place. */
function options(ws: string, writesByReplacing: boolean): ResumeOptions {
  return {
    repoConfig: DEFAULT_REPO_CONFIG,
    dependencyCache: { root: join(dir, "dependency-cache"), maxBytes: 1e9 },
    workspace: { root: join(dir, ws) },
    sandbox: { writesByReplacing },
  } as unknown as ResumeOptions;
}

/** A resume of `sessionId` on `ws` whose steps after building the call env are `then`. */
async function resume(sessionId: string, opts: ResumeOptions, then: (env: ResumeEnv) => Promise<ResumeOutcome>): Promise<ResumeOutcome> {
  const ledger = (await store.list()).some((s) => s.id === sessionId) ? await Ledger.open(store, sessionId) : await Ledger.create(store, created(sessionId));
  const steps = [
    { name: "buildCallEnv", doc: "", run: buildCallEnv },
    { name: "then", doc: "", run: then },
  ];
  return runSteps(steps, newResumeEnv(ledger, opts));
}

/** A resume whose setup left a commit of workspace "ws" beside it, held until `release`, and that ends with `outcome`. */
async function resumeWithHeldCommit(outcome: ResumeOutcome): Promise<{ resume: Promise<ResumeOutcome>; release: () => void }> {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const setupStored = async (env: ResumeEnv) => {
    env.call!.context().dependencyCache!.store.commitBeside({ workspace: join(dir, "ws"), commit: () => gate.then(() => ({}) as EntryMeta) });
    return outcome;
  };
  return { resume: resume("s1", options("ws", true), setupStored), release };
}

test("a resume that parks returns while the commit is held; the process's wait does not", async () => {
  const { resume, release } = await resumeWithHeldCommit(PARKED);
  await expect(resume).resolves.toEqual(PARKED);
  const processEnd = besideCommitsSettled();
  expect(await still(processEnd)).toBe("pending");
  release();
  await processEnd;
});

test.each<ResumeOutcome>([{ kind: "ended", phase: "done" }, { kind: "ready_to_publish" }, { kind: "ended", phase: "failed" }])(
  "a resume that ends %j waits for the commit",
  async (outcome) => {
    const { resume, release } = await resumeWithHeldCommit(outcome);
    expect(await still(resume)).toBe("pending");
    release();
    await expect(resume).resolves.toEqual(outcome);
    await besideCommitsSettled();
  },
);

test("the next resume starts at once in a sandbox that writes by replacing, and after the commit in one that may write in place", async () => {
  const first = await resumeWithHeldCommit(PARKED);
  await first.resume;
  const ran: string[] = [];
  const next = (label: string) => async () => (ran.push(label), PARKED);
  await resume("s1", options("ws", true), next("replacing"));
  // Another session's workspace is not the one the commit may read.
  await resume("s2", options("other-ws", false), next("in place, another workspace"));
  const inPlace = resume("s1", options("ws", false), next("in place"));
  expect(await still(inPlace)).toBe("pending");
  expect(ran).toEqual(["replacing", "in place, another workspace"]);
  first.release();
  await inPlace;
  expect(ran).toEqual(["replacing", "in place, another workspace", "in place"]);
});
