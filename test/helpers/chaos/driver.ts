import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Cluster } from "./cluster.js";
import type { Point, Points } from "./points.js";
import { processOfClientPort } from "./socket-owner.js";
import type { ChaosWorld } from "./world.js";

/** What happened at one point: who was killed, and which sessions were cut with it. */
export interface Strike {
  point: Point;
  /** The issue aimed at (for a clone: the sessions without a clone yet on the killed process). */
  issues: number[];
  killed: string;
  cut: number[];
}

const tick = () => new Promise((r) => setTimeout(r, 100));

/**
 * Drives the sessions as the humans would (approves each plan and each batch of writes once it is
 * posted, from what GitHub shows) and, whenever a point is reached, kills -9 the process that
 * drives that session, lets the held thing go, and starts the process again. Strikes run one at a
 * time, in the order the points were reached. Resolves when every issue's session has ended.
 */
export class ChaosDriver {
  readonly strikes: Strike[] = [];
  /** Set when `run` gave up waiting: what was still open. */
  timedOut: string | null = null;
  private chain: Promise<void> = Promise.resolve();
  private failure: unknown = null;
  private readonly answered = new Set<string>();
  private seed = 7;

  constructor(
    private readonly w: ChaosWorld,
    private readonly cluster: Cluster,
    private readonly points: Points,
    private readonly parkedIssue: number,
  ) {}

  /** Queued by Points when a point is reached. */
  reached(p: Point): void {
    this.chain = this.chain.then(() => this.strike(p)).catch((e: unknown) => void (this.failure ??= e));
  }

  private pick(): string {
    this.seed = (this.seed * 1103515245 + 12345) % 2 ** 31;
    return this.cluster.killable[this.seed % this.cluster.killable.length];
  }

  private async victimOf(p: Point): Promise<string | null> {
    if (p.name === "while parked") return this.pick(); // parked: no process holds the session
    if (p.reachedAt?.callerPort !== undefined) {
      const pids = this.cluster.killable.map((n) => this.cluster.process(n).pid);
      const pid = processOfClientPort(p.reachedAt.callerPort, pids);
      return this.cluster.killable.find((n) => this.cluster.process(n).pid === pid) ?? "dead:the caller";
    }
    return this.cluster.holderOf(p.issue!);
  }

  private async strike(p: Point): Promise<void> {
    const victim = await this.victimOf(p);
    if (victim === null || victim.startsWith("dead:")) {
      // Its process died in an earlier strike, at this point: that kill was this point's too.
      p.release();
      const killed = victim ? `${victim.slice(5)} (killed above)` : "(no holder)";
      this.strikes.push({ point: p, issues: p.issue ? [p.issue] : [], killed, cut: [] });
      return;
    }
    await this.cluster.kill(victim);
    const cut = await this.cluster.cutWith(victim);
    const issues = p.issue ? [p.issue] : await this.withoutClone(cut);
    p.release();
    await this.cluster.restart(victim);
    this.strikes.push({ point: p, issues, killed: victim, cut });
    if (process.env.CHAOS_LOG) console.log(`${p.name}: killed ${victim}, cut ${cut.join(",")}`);
  }

  /** Of `issues`, those whose session has no clone yet (phase `queued`). */
  private async withoutClone(issues: number[]): Promise<number[]> {
    const store = await this.cluster.openStore();
    try {
      const queued = (await store.list()).filter((s) => s.phase === "queued").map((s) => Number(/#(\d+)$/.exec(s.key ?? "")?.[1]));
      return issues.filter((n) => queued.includes(n));
    } finally {
      await store.close();
    }
  }

  private async approveWhatIsPosted(): Promise<void> {
    for (const n of this.w.issues) {
      const pr = this.w.pull(n);
      if (!pr) continue;
      for (const c of this.w.botComments(n)) {
        const m = /<!-- patchgate:[0-9a-f-]{36}:((plan|batch)-[0-9a-f]+) -->/.exec(c.body);
        if (!m || this.answered.has(`${n}:${m[1]}`)) continue;
        this.answered.add(`${n}:${m[1]}`);
        if (m[2] === "plan") {
          await this.cluster.send("pull_request_review", this.w.payloads.review({ pr: pr.number, state: "approved", body: "ok", by: "reviewer" }));
          continue;
        }
        if (n === this.parkedIssue && !this.points.all.some((p) => p.name === "while parked")) {
          const p = this.points.parked(n);
          this.reached(p);
          await this.chain;
        }
        await this.cluster.send(
          "issue_comment",
          this.w.payloads.comment({ number: pr.number, pr: true, title: pr.title, body: "/agent approve", by: "maintainer" }),
        );
      }
    }
  }

  private ended(n: number): boolean {
    return this.w.botComments(n).some((c) => /<!-- patchgate:[0-9a-f-]{36}:(done|ended) -->/.test(c.body));
  }

  /** Where each session is, as GitHub shows it, the strikes so far and each process's last lines. */
  status(): string {
    const issues = this.w.issues.map((n) => {
      const effects = this.w.botComments(n).map((c) => /<!-- patchgate:[^:]+:([a-z]+)[\w-]* -->/.exec(c.body)?.[1] ?? "?");
      return `#${n}: ${effects.join(",") || "nothing posted"}`;
    });
    const errors = this.errorComments();
    return [...issues, ...this.strikeLines(), ...errors.map((e) => e.slice(0, 300)), `(logs in ${this.writeLog()})`].join("\n");
  }

  private strikeLines(): string[] {
    return this.strikes.map((s) => `${s.point.name} → ${s.killed} (cut ${s.cut.join(",")})`);
  }

  private errorComments(): string[] {
    return this.w.issues.flatMap((n) =>
      this.w
        .botComments(n)
        .filter((c) => /:(error|ended)/.test(c.body))
        .map((c) => `#${n} ${c.body.slice(0, 400)}`),
    );
  }

  /** The strikes, the error comments and every incarnation's log, into a file (on a failure of any kind); returns its path. */
  writeLog(): string {
    const file = join(tmpdir(), "patchgate-chaos.log");
    const logs = this.cluster.logs.map((l) => `${l.owner}:\n  ${l.lines.join("\n  ")}`);
    writeFileSync(file, [...this.strikeLines(), ...this.errorComments(), ...logs].join("\n"));
    return file;
  }

  /** `deadlineMs`: give up with the status instead of a bare test timeout. */
  async run(deadlineMs: number): Promise<void> {
    const deadline = Date.now() + deadlineMs;
    await Promise.all(this.w.issues.map((n) => this.cluster.send("issue_comment", this.w.askFor(n))));
    while (!this.w.issues.every((n) => this.ended(n))) {
      if (this.failure) throw this.failure;
      if (Date.now() > deadline) {
        this.timedOut = `the sessions did not all end in ${deadlineMs} ms:\n${this.status()}`;
        return;
      }
      this.points.poll();
      await this.approveWhatIsPosted();
      await tick();
    }
    await this.chain;
    if (this.failure) throw this.failure;
    await this.cluster.settle();
  }
}
