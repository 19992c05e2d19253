import { cancelSession } from "../../agent/approvals.js";
import { runInLane } from "../../queue/in-lane.js";
import { TERMINAL_PHASES, type TaskInput } from "../../session/types.js";
import { Ledger } from "../../store/ledger.js";
import { checkRunFor, finishEnded } from "./drive.js";
import type { Lifecycle } from "../inbound/lifecycle-events.js";
import type { AppContext } from "../deps.js";
import { sessionWork } from "./session-work.js";

/**
 * An uninstall, or repositories taken out of an installation, cancels that scope's live sessions —
 * visibly, in each ledger (`session_cancelled` by `github`, with why), and on GitHub where GitHub
 * still lets the app in (after an uninstall it does not: the cancellation then lives in the ledger,
 * `patchgate show` and the trace). A rename or transfer keeps sessions reachable: they are keyed by
 * the repository's id, and the index learns where the repository is now.
 *
 * Like a command, the payload's claim is checked against GitHub first — a replayed or forged
 * "uninstalled" would otherwise cancel every session of an installation.
 */
type Source = TaskInput["source"];

export async function applyLifecycle(a: AppContext, e: Lifecycle, deliveryId: string): Promise<void> {
  const app = await a.appOctokit();
  if (e.kind === "uninstalled") {
    if (await exists(() => app.request("GET /app/installations/{installation_id}", { installation_id: e.installationId }))) {
      return a.deps.log(`installation ${e.installationId} still exists on GitHub: delivery ${deliveryId} ignored`);
    }
    const n = await cancelWhere(
      a,
      (s) => s.installationId === e.installationId,
      `Patchgate was uninstalled from ${e.account} by @${e.by}`,
      `installation:${e.installationId}:deleted`,
    );
    return a.deps.log(`installation ${e.installationId} deleted: ${n} live session(s) cancelled`);
  }
  if (e.kind === "repositories_removed") {
    const octokit = await a.installation(e.installationId).catch(() => null);
    const gone: { id: number; fullName: string }[] = [];
    for (const r of e.repos) {
      const [owner, repo] = r.fullName.split("/");
      if (!octokit || !(await exists(() => octokit.rest.repos.get({ owner, repo })))) gone.push(r);
      else a.deps.log(`${r.fullName} is still reachable through installation ${e.installationId}: not cancelled`);
    }
    const ids = new Set(gone.map((r) => r.id));
    const names = new Set(gone.map((r) => r.fullName));
    const matches = (s: Source) => s.installationId === e.installationId && (s.repoId !== undefined ? ids.has(s.repoId) : names.has(s.repo));
    const n = await cancelWhere(
      a,
      matches,
      `${gone.map((r) => r.fullName).join(", ")} removed from Patchgate's installation by @${e.by}`,
      `installation:${e.installationId}:removed:${deliveryId}`,
    );
    return a.deps.log(`${gone.length} repositor(y/ies) removed from installation ${e.installationId}: ${n} live session(s) cancelled`);
  }
  const octokit = await a.installation(e.repo.installationId);
  const { data } = await octokit.rest.repos.get({ owner: e.repo.owner, repo: e.repo.repo });
  if (data.id !== e.repo.id)
    return a.deps.log(`${e.repo.owner}/${e.repo.repo} is repository ${data.id} on GitHub, not ${e.repo.id}: delivery ${deliveryId} ignored`);
  const adopted = await a.index.moved(e.repo, e.from);
  a.deps.log(
    `repository ${e.repo.id} ${e.how}: ${e.from} → ${e.repo.owner}/${e.repo.repo}${adopted > 0 ? ` (${adopted} older session(s) re-keyed by id)` : ""}`,
  );
}

/** Whether GitHub answers the read (404: it does not exist, or the app may no longer see it). */
async function exists(read: () => Promise<unknown>): Promise<boolean> {
  try {
    await read();
    return true;
  } catch (e) {
    if ((e as { status?: number }).status === 404) return false;
    throw e;
  }
}

async function cancelWhere(a: AppContext, matches: (s: Source) => boolean, reason: string, source: string): Promise<number> {
  const live = (await a.deps.store.list()).filter((s) => s.key !== null && !TERMINAL_PHASES.includes(s.phase));
  const hits: { id: string; key: string }[] = [];
  for (const s of live) {
    const src = (await Ledger.open(a.deps.store, s.id)).state.task.source;
    if (src.kind === "github" && matches(src)) hits.push({ id: s.id, key: s.key! });
  }
  await Promise.all(hits.map((s) => cancelOne(a, s, reason, source)));
  return hits.length;
}

/**
 * Work running for the session is aborted with the reason (the loop records it as it stops); the
 * cancellation itself runs in the session's lane, behind that work, so the two never write at once.
 */
async function cancelOne(a: AppContext, s: { id: string; key: string }, reason: string, source: string): Promise<void> {
  a.deps.aborts.abort(s.key, reason);
  // Under a durable queue the session's job may run in another worker; asked before the cancellation is queued.
  if (a.deps.queue.interrupt) await a.deps.queue.interrupt(s.key, reason);
  const spec = { kind: "lifecycle-cancel", sessionId: s.id, reason, source };
  await runInLane(a.deps.queue, s.key, `cancel ${s.id}`, () => cancelInLane(a, s.id, reason, source), spec);
}

/** The cancellation itself, in the session's lane (and, under a durable queue, on whichever worker runs it). */
export async function cancelInLane(a: AppContext, sessionId: string, reason: string, source: string): Promise<void> {
  const ledger = await Ledger.open(a.deps.store, sessionId);
  if (!TERMINAL_PHASES.includes(ledger.state.phase)) await cancelSession(ledger, "github", reason, source);
  a.deps.log(`session ${sessionId} cancelled: ${reason}`);
  await tellGitHub(a, ledger).catch((err: unknown) => {
    a.deps.log(
      `session ${sessionId}: GitHub refused the app (${err instanceof Error ? err.message.split("\n")[0] : String(err)}); the cancellation is in the ledger`,
      "warn",
      { session: sessionId },
    );
  });
}

async function tellGitHub(a: AppContext, ledger: Ledger): Promise<void> {
  const work = await sessionWork(a, ledger, `lifecycle-${ledger.sessionId}`, "lifecycle");
  await finishEnded(work, ledger, checkRunFor(work, ledger));
}
