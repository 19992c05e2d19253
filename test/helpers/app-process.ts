import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { compiledApp } from "./compiled-app.js";

const ROOT = join(import.meta.dirname, "../..");

/** A Patchgate app in its own process (test/fakes/app-process.ts): its log lines, and SIGKILL. */
export class AppProcess {
  readonly lines: string[] = [];
  private waiters: { test: (line: string) => boolean; resolve: () => void }[] = [];
  private constructor(
    private readonly child: ChildProcess,
    readonly webhookUrl: string,
  ) {}

  static async start(settings: Record<string, unknown>): Promise<AppProcess> {
    const child = spawn("node", [join(await compiledApp(), "test/fakes/app-process.js")], {
      cwd: ROOT,
      env: { ...process.env, PATCHGATE_TEST_APP: JSON.stringify(settings) },
      stdio: ["pipe", "pipe", "inherit"],
    });
    const lines = createInterface({ input: child.stdout! });
    let app: AppProcess | null = null;
    const early: string[] = [];
    const url = await new Promise<string>((resolve, reject) => {
      child.once("exit", (code) => reject(new Error(`app process exited (${code}) before listening`)));
      lines.on("line", (line) => {
        if (line.startsWith("listening ")) resolve(line.slice("listening ".length));
        else if (app) app.push(line);
        else early.push(line);
      });
    });
    app = new AppProcess(child, url);
    for (const l of early) app.push(l);
    return app;
  }

  get pid(): number {
    return this.child.pid!;
  }

  private push(line: string): void {
    const text = line.replace(/^log /, "");
    this.lines.push(text);
    this.waiters = this.waiters.filter((w) => (w.test(text) ? (w.resolve(), false) : true));
  }

  /** Resolves when a log line (already printed or still to come) satisfies `test`. */
  logged(test: (line: string) => boolean): Promise<void> {
    if (this.lines.some(test)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ test, resolve }));
  }

  private settles = 0;

  /** Resolves, with `errors=<n>`, once every job the app has queued so far (boot resumes, deliveries) has finished. */
  async settle(): Promise<string> {
    const token = `${++this.settles}`;
    const prefix = `settled ${token} `;
    this.child.stdin!.write(`settle ${token}\n`);
    await this.logged((l) => l.startsWith(prefix));
    return this.lines.find((l) => l.startsWith(prefix))!.slice(prefix.length);
  }

  /** kill -9: nothing in flight finishes, nothing is flushed. */
  async kill9(): Promise<void> {
    const exited = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
    this.child.kill("SIGKILL");
    await exited;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    await this.kill9();
  }
}
