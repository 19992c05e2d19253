import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readBranch } from "../../fakes/git/bare-repo.js";
import type { ChaosModelHooks } from "./model.js";
import { HOLD, OWNER, REPO, RUNNING, type ChaosWorld } from "./world.js";
import { sandboxFilesNamed } from "../sandbox-file-appears.js";

/**
 * The ten points of a session where the chaos driver kills the process that drives it. Each is
 * reached through a boundary, never a hook in the app: the fake GitHub holds a request (matched to
 * the session by its path or body), the fake model holds an answer, or the repository's test script
 * waits on a file in the clone. `reached` tells the driver (with the caller's port when the request
 * names no session); `release` lets the held thing go once its process is dead.
 */
export type PointName =
  | "during clone"
  | "during a model call"
  | "between a tool call and its result"
  | "during a test run"
  | "after the commit, before the push"
  | "after the push, before the PR"
  | "after the PR, before the check-run update"
  | "during a comment post"
  | "while parked"
  | "during publish";

export interface Point {
  name: PointName;
  /** The issue whose session it aims at; null: whichever session clones first. */
  issue: number | null;
  reachedAt?: { callerPort?: number };
  release: () => void;
}

/** The fields of a request body the points look at. */
type Body = { conclusion?: string; message?: string } | null;

export type OnReached = (p: Point) => void;
const API = `/repos/${OWNER}/${REPO}`;

export class Points {
  readonly all: Point[] = [];
  /** Clones where the test script is held, by issue, until released. */
  private readonly fileHolds = new Map<number, { point: Point; clones: Set<string>; reached: boolean }>();
  private readonly modelHeld = new Set<number>();

  readonly model: ChaosModelHooks;

  constructor(
    private readonly w: ChaosWorld,
    private readonly reached: OnReached,
    command: number,
  ) {
    this.model = this.modelHooks(command);
  }

  private add(name: PointName, issue: number | null, release: () => void = () => undefined): Point {
    const p: Point = { name, issue, release };
    this.all.push(p);
    return p;
  }

  /** A held GitHub request: GIT for git's smart HTTP, else the REST method. */
  holdRequest(name: PointName, issue: number | null, method: string, pathPrefix: string, match?: (path: string, body: Body) => boolean): void {
    let release!: () => void;
    const until = new Promise<void>((r) => (release = r));
    const p = this.add(name, issue, () => release());
    const caller = (c: { remotePort: number }) => (p.reachedAt = { callerPort: c.remotePort });
    this.w.github.world.holdNext.push({
      method,
      pathPrefix,
      match: match && ((path, body) => match(path, body as Body)),
      caller,
      reached: () => this.reached(p),
      until,
    });
  }

  /** Every point but "while parked" (the driver meets that one itself), one issue each. */
  armAll(issues: { model: number; command: number; tests: number; push: number; pr: number; checkRun: number; comment: number; publish: number }): void {
    const w = this.w;
    const fixed = (issue: number) => readBranch(w.bare, w.branch(issue))?.files["src/add.js"]?.includes("a + b") === true;
    this.holdRequest("during clone", null, "GIT", `/${OWNER}/${REPO}.git/info/refs`);
    this.add("during a model call", issues.model);
    this.add("between a tool call and its result", issues.command);
    this.add("during a test run", issues.tests);
    // The ref is one path parameter: `heads/patchgate/issue-5` arrives as `heads%2Fpatchgate%2Fissue-5`.
    const ref = `${API}/git/refs/heads/${w.branch(issues.push)}`;
    this.holdRequest("after the commit, before the push", issues.push, "PATCH", `${API}/git/refs/`, (path) => decodeURIComponent(path) === ref);
    this.holdRequest(
      "after the push, before the PR",
      issues.pr,
      "PATCH",
      `${API}/pulls/`,
      (path) => path === `${API}/pulls/${w.pull(issues.pr)?.number}` && fixed(issues.pr),
    );
    this.holdRequest("after the PR, before the check-run update", issues.checkRun, "PATCH", `${API}/check-runs/`, (path, body) => {
      const run = w.github.world.checkRuns.find((r) => path === `${API}/check-runs/${r.id}`);
      return body?.conclusion === "success" && run?.external_id === w.sessionOf(issues.checkRun);
    });
    this.holdRequest("during a comment post", issues.comment, "POST", `${API}/issues/${issues.comment}/comments`);
    this.holdRequest("during publish", issues.publish, "POST", `${API}/git/commits`, (_p, body) =>
      String(body?.message ?? "").includes(`Resolves #${issues.publish}.`),
    );
  }

  parked(issue: number): Point {
    return this.add("while parked", issue);
  }

  find(name: PointName): Point {
    return this.all.find((p) => p.name === name)!;
  }

  /** The model's side: holds the first execute-mode request of the model point's issue; arms the script holds. */
  private modelHooks(command: number): ChaosModelHooks {
    return {
      command: new Set([command]),
      hold: (issue, executing) => {
        const p = this.find("during a model call");
        if (issue !== p.issue || !executing || this.modelHeld.has(issue)) return false;
        this.modelHeld.add(issue);
        queueMicrotask(() => this.reached(p));
        return true;
      },
      answering: (issue, tool) => {
        const name = tool === "run_command" ? "between a tool call and its result" : tool === "run_tests" ? "during a test run" : null;
        const p = name && this.find(name);
        if (!p || p.issue !== issue) return;
        // A call made again (after `interrupted`) may run in a clone taken over since the last tick:
        // the hold goes there before the answer leaves, not a tick later.
        if (this.fileHolds.has(issue)) return this.arm(issue);
        const clones = new Set<string>();
        p.release = () => {
          for (const c of clones) for (const f of [join(c, ".git", HOLD), join(c, RUNNING)]) rmSync(f, { force: true });
        };
        this.fileHolds.set(issue, { point: p, clones, reached: false });
        this.arm(issue);
      },
    };
  }

  /**
   * The hold file goes into every clone the session has, on every tick until the script is met: a
   * worker that takes the session over clones it again on its own disk and runs the call there.
   */
  private arm(issue: number): void {
    const h = this.fileHolds.get(issue);
    const sid = this.w.sessionOf(issue);
    if (!h || h.reached || !sid) return;
    for (const c of this.w.clonesOf(sid)) {
      // The hold names its issue: the script copies it to RUNNING, which tells whose run holds.
      if (!h.clones.has(c)) writeFileSync(join(c, ".git", HOLD), String(issue));
      h.clones.add(c);
    }
  }

  /**
   * Whether issue's held script runs: its RUNNING file is seen in a clone (a backend whose runs
   * write straight into it) or through a sandboxed process's root (a run's writes stay in its own
   * layer until it ends).
   */
  private running(issue: number, clones: Set<string>): boolean {
    return [...clones].some((c) => existsSync(join(c, RUNNING))) || sandboxFilesNamed(RUNNING).includes(String(issue));
  }

  /** Called on each tick: a held test script shows itself by the file it leaves. */
  poll(): void {
    for (const [issue, h] of this.fileHolds) {
      this.arm(issue);
      if (!h.reached && this.running(issue, h.clones)) {
        h.reached = true; // reported once; release clears every clone it was put in
        this.reached(h.point);
      }
    }
  }
}
