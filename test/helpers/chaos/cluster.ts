import { randomUUID } from "node:crypto";
import { join } from "node:path";
import pg from "pg";
import { sendWebhook } from "../../fakes/github/webhook-sender.js";
import { appSettings, HARNESS_API_KEY, SECRET } from "../../harness/harness.js";
import { PostgresSessionStore } from "../../../src/store/pg-store.js";
import { SqliteSessionStore } from "../../../src/store/sqlite-store.js";
import type { SessionStore } from "../../../src/store/types.js";
import { AppProcess } from "../app-process.js";
import type { ChaosWorld } from "./world.js";
import { issueKey } from "../../../src/github/inbound/intent.js";

/**
 * The processes a chaos driver kills: the app as `npm start` runs it (one process on SQLite), or
 * scale-out (a receiver and workers on PostgreSQL). Each process has a name, and a disk of its own
 * that survives its restarts; each start is a new incarnation with a new lease owner.
 */
export interface Cluster {
  readonly killable: string[];
  readonly logs: { owner: string; lines: string[] }[];
  /** The live process of `name`. */
  process(name: string): AppProcess;
  /** Who drives issue `n` now: a live process's name, `dead:<owner>` (a lease a killed incarnation still holds), or null (parked). */
  holderOf(issue: number): Promise<string | null>;
  /** The issues a killed process was driving (read after the kill: its leases are frozen until they run out). */
  cutWith(name: string): Promise<number[]>;
  kill(name: string): Promise<void>;
  restart(name: string): Promise<void>;
  /** A delivery to the receiver, once it is up (GitHub would redeliver; a human would retry). */
  send(event: string, payload: unknown): Promise<void>;
  settle(): Promise<void>;
  openStore(): Promise<SessionStore>;
  stop(): Promise<void>;
}

const laneOf = (w: ChaosWorld, issue: number) => issueKey({ id: w.github.world.repoId, installationId: w.github.world.installationId }, issue);

abstract class Processes {
  protected readonly live = new Map<string, AppProcess>();
  /** Every incarnation's log, for a failure's report. */
  readonly logs: { owner: string; lines: string[] }[] = [];
  protected readonly incarnation = new Map<string, number>();
  private up: Promise<void> = Promise.resolve();
  private markUp: () => void = () => undefined;
  constructor(protected readonly w: ChaosWorld) {}

  protected abstract settingsFor(name: string, owner: string): Record<string, unknown>;
  protected abstract readonly receiver: string;

  process(name: string): AppProcess {
    return this.live.get(name)!;
  }

  protected ownerOf(name: string): string {
    return `${name}.${this.incarnation.get(name) ?? 0}`;
  }

  async start(name: string): Promise<void> {
    this.incarnation.set(name, (this.incarnation.get(name) ?? 0) + 1);
    const p = await AppProcess.start(this.settingsFor(name, this.ownerOf(name)));
    this.live.set(name, p);
    this.logs.push({ owner: this.ownerOf(name), lines: p.lines });
    if (name === this.receiver) this.markUp();
  }

  async kill(name: string): Promise<void> {
    if (name === this.receiver) this.up = new Promise((resolve) => (this.markUp = resolve));
    await this.live.get(name)!.kill9();
  }

  restart(name: string): Promise<void> {
    return this.start(name);
  }

  async send(event: string, payload: unknown): Promise<void> {
    // A delivery cut by a kill of the receiver is sent again under its id, as GitHub redelivers it.
    const id = randomUUID();
    for (let attempt = 1; ; attempt++) {
      await this.up;
      try {
        const r = await sendWebhook(this.live.get(this.receiver)!.webhookUrl, SECRET, event, payload, id);
        if (r.status >= 300) throw new Error(`delivery ${r.id} (${event}) answered ${r.status}`);
        return;
      } catch (e) {
        // fetch's "fetch failed": the connection broke, the receiver being killed (`up` waits for its restart).
        if ((e as Error).message !== "fetch failed" || attempt >= 5) throw e;
      }
    }
  }

  async settle(): Promise<void> {
    await this.up;
    const errors = await this.live.get(this.receiver)!.settle();
    if (errors !== "errors=0") throw new Error(`the receiver settled with ${errors}`);
  }

  async stop(): Promise<void> {
    for (const p of this.live.values()) await p.stop();
  }

  protected base(name: string): Record<string, unknown> {
    return {
      ...appSettings(this.w.github, this.w.disk(name)),
      workspacesDir: join(this.w.disk(name), "workspaces"),
      openaiBaseURL: this.w.openai.baseURL,
      apiKey: HARNESS_API_KEY,
    };
  }
}

/** `npm start`: one process, the SQLite default, receiver and worker in one. */
export class SqliteCluster extends Processes implements Cluster {
  readonly killable = ["app"];
  protected readonly receiver = "app";
  private readonly settings: Record<string, unknown>;
  constructor(w: ChaosWorld) {
    super(w);
    this.settings = this.base("app");
  }
  protected settingsFor(): Record<string, unknown> {
    return this.settings; // the same SQLite file and disk on every start
  }
  async holderOf(): Promise<string> {
    return "app";
  }
  async cutWith(): Promise<number[]> {
    const store = await this.openStore();
    try {
      const open = (await store.list()).filter((s) => !["done", "failed", "cancelled", "blocked"].includes(s.phase) && !s.phase.startsWith("awaiting"));
      return open.map((s) => Number(/#(\d+)$/.exec(s.key ?? "")?.[1] ?? 0)).sort((a, b) => a - b);
    } finally {
      await store.close();
    }
  }
  async openStore(): Promise<SessionStore> {
    return SqliteSessionStore.open(this.settings.dbFile as string);
  }
}

/** Scale-out: one receiver and `workers` workers on one PostgreSQL; only workers are killed. */
export class PostgresCluster extends Processes implements Cluster {
  readonly killable: string[];
  protected readonly receiver = "receiver";
  private readonly db: pg.Pool;
  constructor(
    w: ChaosWorld,
    private readonly url: string,
    workers: number,
    private readonly knobs: { slots: number; leaseMs: number; maxAttempts: number; wallClockSchedules?: boolean },
  ) {
    super(w);
    this.killable = Array.from({ length: workers }, (_, i) => `worker-${String.fromCharCode(97 + i)}`);
    this.db = new pg.Pool({ connectionString: url, max: 2 });
  }
  protected settingsFor(name: string, owner: string): Record<string, unknown> {
    const role = name === this.receiver ? "serve" : "worker";
    const { slots, leaseMs, maxAttempts, wallClockSchedules } = this.knobs;
    return {
      ...this.base(name),
      ...(wallClockSchedules && { wallClockSchedules }),
      scaleOut: { databaseUrl: this.url, role, owner, slots, leaseMs, maxAttempts, heartbeatMs: Math.floor(leaseMs / 6), sweepMs: 100 },
    };
  }
  /**
   * The worker driving the issue's session: the lane's owner, whether or not its lease has run out. A
   * loaded worker can be late renewing while it still runs the session (its next fenced write would
   * notice); it is the process to kill, and skipping it left a point with "no holder" and no kill.
   */
  async holderOf(issue: number): Promise<string | null> {
    const { rows } = await this.db.query<{ owner: string }>("SELECT owner FROM queue_lanes WHERE lane = $1 AND owner IS NOT NULL", [laneOf(this.w, issue)]);
    if (!rows[0]) return null;
    const name = this.killable.find((n) => this.ownerOf(n) === rows[0].owner);
    return name ?? `dead:${rows[0].owner}`;
  }
  async cutWith(name: string): Promise<number[]> {
    const { rows } = await this.db.query<{ lane: string }>("SELECT lane FROM queue_lanes WHERE owner = $1", [this.ownerOf(name)]);
    return rows
      .map((r) => Number(/#(\d+)$/.exec(r.lane)?.[1] ?? 0))
      .filter((n) => n > 0)
      .sort((a, b) => a - b);
  }
  async openStore(): Promise<SessionStore> {
    return new PostgresSessionStore(this.url);
  }
  override async stop(): Promise<void> {
    await super.stop();
    await this.db.end();
  }
}
