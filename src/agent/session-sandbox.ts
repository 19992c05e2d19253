import type { Sandbox, SessionExtras, SessionSandbox } from "../sandbox/types.js";
import { walkToolchainsAhead } from "../sandbox/session-mounts.js";
import type { ToolchainRecord } from "../session/types.js";
import { resourceLimits } from "./resource-limits.js";

/**
 * What every sandboxed run of a session gets from the ledger: the toolchain directories recorded by
 * `toolchains_resolved`, their bin directories first on PATH, and the session's cache directory (where
 * each tool keeps its state there is the sandbox's to say, per run: src/sandbox/run-state.ts), and
 * where the toolchains' credential walks are kept across sessions.
 * Nothing of a repository's mirror: a workspace holds its own objects (workspace/clone.ts).
 */
export function sessionExtras(toolchains: readonly ToolchainRecord[] | null, cacheDir: string | undefined, walkStore?: string): SessionExtras {
  const records = toolchains ?? [];
  return {
    binds: [...new Set(records.flatMap((t) => t.binds))],
    pathDirs: [...new Set(records.map((t) => t.path))],
    cacheDir,
    ...(walkStore ? { walkStore } : {}),
    env: {
      // Go never fetches another toolchain than the one recorded, and a test run is a real run: a
      // result cached by an earlier run in the session's cache never stands in for one.
      GOTOOLCHAIN: "local",
      GOFLAGS: cacheDir ? "-modcacherw -count=1" : "-count=1",
    },
  };
}

/** Starts the credential walks of `toolchains`' directories now, for the runs to come; nothing waits for them. */
export function walkSessionToolchainsAhead(toolchains: readonly ToolchainRecord[] | null, walkStore?: string): void {
  walkToolchainsAhead(sessionExtras(toolchains, undefined, walkStore));
}

/**
 * The same sandbox with the session's extras on every request, each run taking a slot of the
 * process's sandbox-run limit (./resource-limits.ts) while it runs. Readying one runs nothing, so it
 * takes no slot.
 */
export function withSession(sandbox: Sandbox, extras: SessionExtras): Sandbox {
  const prepare = sandbox.prepare?.bind(sandbox);
  return {
    backend: sandbox.backend,
    writesByReplacing: sandbox.writesByReplacing === true,
    run: (req) => resourceLimits().sandboxRuns.run(() => sandbox.run({ ...req, session: extras }), req.signal),
    ...(prepare ? { prepare: (req) => prepare({ ...req, session: extras }) } : {}),
  };
}

/**
 * The sandbox a resume's commands run in: the backend's long-lived form where it has one (one
 * bubblewrap sandbox kept for the session's commands, src/sandbox/bubblewrap-session.ts), else the
 * backend itself. The resume closes it when it returns, so a session that parks or ends keeps nothing.
 */
export function openSessionSandbox(sandbox: Sandbox): SessionSandbox {
  return (
    sandbox.openSession?.() ?? {
      backend: sandbox.backend,
      writesByReplacing: sandbox.writesByReplacing === true,
      run: (req) => sandbox.run(req),
      close: async () => undefined,
    }
  );
}
