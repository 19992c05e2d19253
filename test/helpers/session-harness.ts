import { join } from "node:path";
import { rmSync } from "node:fs";
import { createSession, prepareWorkspace, reopenWorkspace } from "../../src/agent/session-service.js";
import { resumeSession } from "../../src/agent/run-session.js";
import type { ResumeOptions } from "../../src/agent/runtime-options.js";
import type { LLMClient } from "../../src/agent/llm/types.js";
import { parseRepoConfig } from "../../src/config/load-repo-config.js";
import { OpenSessionSandboxes } from "../../src/sandbox/open-sessions.js";
import { selectSandbox } from "../../src/sandbox/select.js";
import { writeCaBundle } from "../../src/sandbox/ca-bundle.js";
import type { Sandbox } from "../../src/sandbox/types.js";
import { SqliteSessionStore } from "../../src/store/sqlite-store.js";
import { Ledger } from "../../src/store/ledger.js";
import type { SessionSettings } from "../../src/session/events.js";
import type { Workspace } from "../../src/workspace/types.js";
import { makeRepo, tempDir } from "./git-fixture.js";
import { readFileSync } from "node:fs";

/** One real session: a git repo, a SQLite file, a clone, the bubblewrap sandbox. Everything on disk. */
export class SessionHarness {
  store: SqliteSessionStore;
  ledger!: Ledger;
  workspace!: Workspace;
  /** The session sandboxes of this "process": a restart ends those of a resume it left behind (a call that never returns). */
  private sandboxes = new OpenSessionSandboxes();
  private constructor(
    readonly source: string,
    readonly dataDir: string,
    readonly sandbox: Sandbox | null,
    private readonly cleanups: (() => void)[],
  ) {
    this.store = SqliteSessionStore.open(join(dataDir, "patchgate.sqlite"));
  }

  static async create(files: Record<string, string>, settings: Partial<SessionSettings> = {}, sessionId = "s-test"): Promise<SessionHarness> {
    const repo = makeRepo(files);
    const dataDir = tempDir("pg-data-");
    // As the app and the CLI do by default: networked setup trusts the host's certificates (a
    // TLS-intercepting proxy's CA among them), which a Node from the registry does not by itself.
    const caBundle = writeCaBundle(dataDir, { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS });
    const chosen = await selectSandbox("bubblewrap", { caBundle });
    const h = new SessionHarness(repo.dir, dataDir, chosen.sandbox, [repo.cleanup, () => rmSync(dataDir, { recursive: true, force: true })]);
    h.ledger = await createSession(h.store, {
      task: { title: "Fix add", body: "add(2, 3) should be 5", source: { kind: "cli", repo: repo.dir } },
      model: "scripted",
      settings,
      sessionId,
    });
    h.workspace = await prepareWorkspace(h.ledger, { source: repo.dir, dir: h.workdir });
    return h;
  }

  get workdir(): string {
    return join(this.dataDir, "ws", "session");
  }

  resume(llm: LLMClient, extra: Partial<ResumeOptions> = {}) {
    const cfg = parseRepoConfig(readFileSync(join(this.workspace.root, ".github/patchgate.yml"), "utf8"));
    if (!cfg.ok) throw new Error(cfg.error.message);
    const sandbox = this.sandbox && this.sandboxes.track(this.sandbox);
    return resumeSession(this.ledger, { llm, sandbox, workspace: this.workspace, repoConfig: cfg.config, ...extra });
  }

  /** Drops every in-memory object and opens the same SQLite file again, as a restarted process would. */
  async restart(): Promise<void> {
    const id = this.ledger.sessionId;
    await this.store.close();
    await this.sandboxes.closeAll();
    this.sandboxes = new OpenSessionSandboxes();
    this.store = SqliteSessionStore.open(join(this.dataDir, "patchgate.sqlite"));
    this.ledger = await Ledger.open(this.store, id);
    this.workspace = await reopenWorkspace(this.ledger, { source: this.source, dir: this.workdir });
  }

  results(): { tool: string; ok: boolean; code?: string }[] {
    return this.ledger.history.flatMap((e) =>
      e.type === "tool_result" ? [{ tool: e.tool, ok: e.result.ok, ...(e.result.ok ? {} : { code: e.result.error.code }) }] : [],
    );
  }

  async dispose(): Promise<void> {
    await this.store.close();
    await this.sandboxes.closeAll();
    for (const c of this.cleanups) c();
  }
}
