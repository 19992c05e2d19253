import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { BubblewrapSession } from "../../src/sandbox/bubblewrap-session.js";
import { selectSandbox } from "../../src/sandbox/select.js";
import type { Sandbox, SandboxResult, SandboxRunRequest } from "../../src/sandbox/types.js";

/** The real bubblewrap backend of this machine; a test fails (never skips) when it is missing. */
export async function bubblewrap(): Promise<Sandbox> {
  const chosen = await selectSandbox("bubblewrap");
  if (chosen.sandbox === null) throw new Error(`bubblewrap unavailable: ${chosen.reason}`);
  return chosen.sandbox;
}

/** A fresh workspace directory per test, removed by the returned cleanup. */
export function tempWorkspace(prefix = "pg-ws-"): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Runs a shell line in the sandbox: the form the run_command tool uses. */
export function sh(sandbox: Sandbox, workspace: string, script: string, extra: Partial<SandboxRunRequest> = {}): Promise<SandboxResult> {
  return sandbox.run({ argv: ["/bin/sh", "-c", script], workspace, timeoutMs: 20_000, ...extra });
}

/** argv that prints "connected" or the socket error code; exits on its own after 2 s so a silent drop is visible too. */
export function connectProbe(host: string, port: number): string[] {
  const script = `
    const s = require("net").connect(${port}, ${JSON.stringify(host)});
    s.on("connect", () => { console.log("connected"); process.exit(0); });
    s.on("error", (e) => { console.log(e.code); process.exit(1); });
    setTimeout(() => { console.log("timeout"); process.exit(2); }, 2000);`;
  return ["node", "-e", script];
}

/**
 * The two forms every bubblewrap test runs against: a sandbox per command (`Sandbox.run`) and the
 * session's long-lived sandbox (`openSession`), kept for all the tests of a describe block.
 */
export const SANDBOX_FORMS = ["one-shot", "long-lived"] as const;

/**
 * The directory of the node running the tests when it lives outside /usr (Node 24 from the npm
 * registry, actions/setup-node), else null. The sandbox binds that node and puts its directory first
 * on PATH (src/sandbox/toolchain-binding.ts); under /usr it is there already.
 */
export const NODE_DIR_OUTSIDE_USR: string | null = ((dir) => (dir.startsWith("/usr/") ? null : dir))(dirname(realpathSync(process.execPath)));

/** The PATH a sandboxed command sees when the session adds no toolchain. */
export const SANDBOX_PATH_SEEN = `${NODE_DIR_OUTSIDE_USR ? `${NODE_DIR_OUTSIDE_USR}:` : ""}/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin`;
export type SandboxForm = (typeof SANDBOX_FORMS)[number];

export interface FormSandbox extends Sandbox {
  /** Ends the session's sandbox; fails the test if the long-lived form was not the one that ran. */
  end(): Promise<void>;
}

export function inForm(sandbox: Sandbox, form: SandboxForm): FormSandbox {
  if (form === "one-shot") return { backend: sandbox.backend, run: (req) => sandbox.run(req), end: async () => undefined };
  const session = sandbox.openSession?.();
  if (!(session instanceof BubblewrapSession)) throw new Error("this sandbox has no long-lived form");
  return {
    backend: session.backend,
    run: (req) => session.run(req),
    end: async () => {
      await session.close();
      // A silent fall-back to one-shot runs would make the long-lived half of the tests a copy of the other.
      if (session.fallbackReason !== null) throw new Error(`the long-lived sandbox did not start: ${session.fallbackReason}`);
      if (session.longLivedRuns === 0 && session.oneShotRuns > 0) throw new Error("no command ran in the long-lived sandbox");
    },
  };
}

/** bubblewrap() in the given form. */
export async function bubblewrapIn(form: SandboxForm): Promise<FormSandbox> {
  return inForm(await bubblewrap(), form);
}
