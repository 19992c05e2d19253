import { existsSync } from "node:fs";
import { fold } from "../session/reducer.js";
import type { StoredEvent } from "../session/events.js";
import type { SessionState } from "../session/state.js";
import { openStore } from "../store/open-store.js";
import { verifyLedgerChain, type LedgerLink } from "../store/ledger-chain.js";
import { git } from "../workspace/git.js";
import { parseCommandArgs } from "./cli-args.js";
import { help } from "./inspect-commands.js";
import { resolveSessionId } from "./session-id.js";
import { UsageError } from "./usage-error.js";
import { dataDir } from "./data-dir.js";
import { processOperatorEnv, type OperatorEnv } from "../config/operator-env.js";

export const VERIFY_SESSION_USAGE =
  "patchgate verify --session <session|prefix> [--repo <dir>] [--head <hash>] [--json] [--data-dir <d>]  (the ledger's hash chain, and what it published)";

const OPTIONS = {
  session: { type: "string" },
  repo: { type: "string" },
  head: { type: "string" },
  json: { type: "boolean" },
  "data-dir": { type: "string" },
} as const;

/** One check's outcome: `skip` is a check that had nothing to compare with, not a failure. */
export interface Finding {
  check: "chain" | "head" | "state" | "published" | "repository";
  status: "ok" | "fail" | "skip";
  message: string;
}

/**
 * `patchgate verify --session <id>`: reads the session's ledger from the store and checks that its
 * hash chain is intact from the first event to the last (naming the first event that breaks it), that
 * it folds into a state through the reducer, and that what it says was published agrees with itself
 * and with the local repository: the clone the session worked in, or `--repo`. `--head` is a head
 * hash known from elsewhere (a receipt): a ledger cut short after it verifies otherwise. Exit 1 when
 * any check fails; one line per check, or one JSON object with `--json`.
 */
export async function runVerifySession(argv: string[], out: NodeJS.WritableStream = process.stdout, env: OperatorEnv = processOperatorEnv()): Promise<number> {
  const parsed = parseCommandArgs(argv, OPTIONS, VERIFY_SESSION_USAGE);
  if (parsed.help) return help(out, VERIFY_SESSION_USAGE);
  const { values, positionals } = parsed;
  const given = values.session ?? (positionals.length === 1 ? positionals[0] : undefined);
  if (given === undefined || (values.session !== undefined && positionals.length > 0)) {
    throw new UsageError(`one session id (or a prefix of one) is required\nusage: ${VERIFY_SESSION_USAGE}`);
  }
  const dir = dataDir(values["data-dir"], env);
  const store = await openStore({ dataDir: dir, databaseUrl: env.DATABASE_URL || undefined });
  let sessionId: string;
  let links: LedgerLink[];
  try {
    sessionId = await resolveSessionId(store, given, env.DATABASE_URL ? "the database" : dir);
    links = await store.loadChain(sessionId);
  } finally {
    await store.close();
  }
  const findings = await verifySession(sessionId, links, { repo: values.repo, head: values.head });
  const failed = findings.some((f) => f.status === "fail");
  if (values.json) out.write(`${JSON.stringify({ session: sessionId, ok: !failed, findings })}\n`);
  else for (const f of findings) out.write(`${f.status.padEnd(4)} ${f.check}: ${f.message}\n`);
  return failed ? 1 : 0;
}

/** Every check on one session's stored ledger, in the order they build on each other. */
export async function verifySession(sessionId: string, links: LedgerLink[], opts: { repo?: string; head?: string }): Promise<Finding[]> {
  const findings: Finding[] = [];
  const verdict = verifyLedgerChain(sessionId, links);
  if (verdict.ok) findings.push({ check: "chain", status: "ok", message: `${links.length} events, every link holds; head ${verdict.head}` });
  else findings.push({ check: "chain", status: "fail", message: `broken at event ${verdict.brokenAt} (${verdict.type}): ${verdict.reason}` });
  if (opts.head !== undefined) {
    const head = verdict.ok ? verdict.head : null;
    findings.push(
      head === opts.head
        ? { check: "head", status: "ok", message: `the ledger ends at the given head` }
        : { check: "head", status: "fail", message: `the given head ${opts.head} is not the ledger's (${head ?? "the chain is broken"})` },
    );
  }
  let state: SessionState;
  try {
    state = fold(links.map((l): StoredEvent => ({ ...l.event, seq: l.seq, at: l.at })));
  } catch (e) {
    findings.push({ check: "state", status: "fail", message: `the reducer refuses the ledger: ${(e as Error).message}` });
    return findings;
  }
  findings.push({ check: "state", status: "ok", message: `folds to phase ${state.phase}` });
  findings.push(...(await publishedFindings(state, opts.repo)));
  return findings;
}

/** What the ledger says was published, against the tree finish was accepted on and the local repository. */
async function publishedFindings(state: SessionState, repoFlag: string | undefined): Promise<Finding[]> {
  const p = state.published;
  if (!p) return [{ check: "published", status: "skip", message: "the session published nothing" }];
  const findings: Finding[] = [];
  if (p.tree !== undefined && state.finishedTree !== null && p.tree !== state.finishedTree) {
    findings.push({
      check: "published",
      status: "fail",
      message: `commit ${p.commit} has tree ${p.tree}, not the tree finish was accepted on (${state.finishedTree})`,
    });
  } else {
    findings.push({ check: "published", status: "ok", message: `commit ${p.commit} on ${p.branch}, tree ${p.tree ?? state.finishedTree ?? "not recorded"}` });
  }
  const repo = repoFlag ?? (state.workdir !== null && existsSync(state.workdir) ? state.workdir : undefined);
  if (repo === undefined) {
    findings.push({ check: "repository", status: "skip", message: "the session's clone is not on this machine (--repo <dir> compares with another)" });
    return findings;
  }
  findings.push(await repositoryFinding(repo, p.commit, p.branch, state.finishedTree));
  return findings;
}

const OBJECT_ID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

async function repositoryFinding(repo: string, commit: string, branch: string, finishedTree: string | null): Promise<Finding> {
  const fail = (message: string): Finding => ({ check: "repository", status: "fail", message });
  // Ids from the ledger go to git only once they are ids: never read as an option or a revision expression.
  if (!OBJECT_ID.test(commit)) return fail(`the published commit "${commit}" is not an object id`);
  const rev = async (...args: string[]) => {
    const r = await git(["rev-parse", "--verify", "--quiet", ...args], { cwd: repo });
    return r.exitCode === 0 ? r.stdout.trim() : null;
  };
  const tree = await rev(`${commit}^{tree}`);
  if (tree === null) return fail(`commit ${commit} is not in ${repo}`);
  if (finishedTree !== null && tree !== finishedTree)
    return fail(`commit ${commit} in ${repo} has tree ${tree}, not the tree finish was accepted on (${finishedTree})`);
  const head = await rev(`refs/heads/${branch}`);
  if (head === null) return { check: "repository", status: "ok", message: `commit ${commit} is in ${repo} with the accepted tree (no branch ${branch} there)` };
  if (head === commit) return { check: "repository", status: "ok", message: `branch ${branch} in ${repo} is at the published commit, with the accepted tree` };
  const contained = await git(["merge-base", "--is-ancestor", commit, head], { cwd: repo });
  return contained.exitCode === 0
    ? { check: "repository", status: "ok", message: `branch ${branch} in ${repo} has commits after the published one, which it contains` }
    : fail(`branch ${branch} in ${repo} no longer contains the published commit ${commit}`);
}
