import type { Sandbox, SandboxRunRequest, SessionSandbox } from "./types.js";

/**
 * The session sandboxes one app has open, so that its shutdown ends them. A resume closes its own
 * when it returns, but a resume left behind — the app stopped while a model call hangs, a crash
 * simulated in-process — may never return, and its long-lived bubblewrap sandbox (and the spawn
 * helper running it) would live as long as the process.
 */
export class OpenSessionSandboxes {
  private readonly open = new Set<SessionSandbox>();
  private ended = false;

  /** `sandboxFor` whose sandboxes' sessions are counted here until they close. */
  tracking<A extends unknown[]>(sandboxFor: (...args: A) => Promise<Sandbox | null>): (...args: A) => Promise<Sandbox | null> {
    return async (...args) => {
      const sandbox = await sandboxFor(...args);
      return sandbox && this.track(sandbox);
    };
  }

  /** Ends every session sandbox open now; one opened later is closed at once (its runs are one-shot). */
  async closeAll(): Promise<void> {
    this.ended = true;
    const all = [...this.open];
    this.open.clear();
    await Promise.all(all.map((s) => s.close()));
  }

  /** `sandbox`, its sessions counted here until they close. */
  track(sandbox: Sandbox): Sandbox {
    if (!sandbox.openSession) return sandbox;
    const openSession = (): SessionSandbox => {
      const session = sandbox.openSession!();
      if (this.ended) void session.close().catch(() => undefined);
      else this.open.add(session);
      return {
        backend: session.backend,
        writesByReplacing: session.writesByReplacing === true,
        run: (req: SandboxRunRequest) => session.run(req),
        close: async () => {
          this.open.delete(session);
          await session.close();
        },
      };
    };
    return { backend: sandbox.backend, writesByReplacing: sandbox.writesByReplacing === true, run: (req) => sandbox.run(req), openSession };
  }
}
