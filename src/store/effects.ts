import { tenantKey, type Tenant } from "../session/tenant.js";
import { count, flag, jsonObject, objectName, stringList, text, type Codec, type Effect } from "./effect-codec.js";

/**
 * Every effect record the app keeps, each declared once: its key and the codec of its value. An
 * effect is what the ledger does not hold because it happened outside it — an id GitHub gave, a
 * commit made before a push — remembered so that a resume or a redelivery adopts instead of doing
 * it twice. Keys and values are byte-for-byte what earlier versions wrote (test/store/effects.slow.test.ts
 * reads those records), so a database keeps working across an upgrade.
 */
const at =
  <T>(codec: Codec<T>) =>
  (owner: string, key: string): Effect<T> => ({ owner, key, codec });

/** Records that belong to no one session: the index from a PR or a check run to its issue, claims, redelivery counts. */
const INDEX = "@github-index";

/** The repositories whose default branch declares schedules, one record each (listed with `effectsOf`). */
export const SCHEDULED = "@schedules";

/** What the first half of a start leaves for the second (src/github/session-work/start-workspace.ts). */
export interface RecordedStart {
  branch: string;
  /** A follow-up continues on the branch; the lease then starts at the branch's head. */
  followUp: boolean;
  /** Where the issue's last session left the branch (another session's lease carried over). */
  head: string | null;
  ours: string[];
}

export interface PullRef {
  number: number;
  nodeId: string;
  url: string;
}

export interface CheckRunRecord {
  sha: string;
  id: number;
  url: string;
  /** Set when this run was completed `neutral` because the session moved on to `movedTo`. */
  movedTo?: string;
}

/** Where a repository is reached now. */
export interface RepoLocation {
  owner: string;
  repo: string;
  installationId: number;
}

/** A redelivery asked of GitHub: from which attempt, and when (ms since the epoch). */
export interface RedeliveryAsk {
  attempt: number;
  askedAt: number;
}

const startRequest = at(jsonObject<RecordedStart>("a start request", { branch: "string", followUp: "boolean", head: "string|null", ours: "string[]" }));
const pullRef = at(jsonObject<PullRef>("a pull request", { number: "number", nodeId: "string", url: "string" }));
const checkRun = at(jsonObject<CheckRunRecord>("a check run", { sha: "string", id: "number", url: "string", movedTo: "string?" }));
const redeliveryAsk = at(jsonObject<RedeliveryAsk>("a redelivery request", { attempt: "number", askedAt: "number" }));
const location = at(jsonObject<RepoLocation>("a repository location", { owner: "string", repo: "string", installationId: "number" }));

export const effect = {
  /** The start's branch and lease, recorded before the clone. */
  startRequest: (session: string) => startRequest(session, "start_request"),
  /** The session's pull request. */
  pullRequest: (session: string) => pullRef(session, "pull_request"),
  /** The session's check run on head `sha`. */
  checkRun: (session: string, sha: string) => checkRun(session, `check_run:${sha}`),
  /** Written before a run is created on `sha`. */
  checkRunCreating: (session: string, sha: string) => at(flag)(session, `check_run:${sha}:creating`),
  /** How many annotation batches the run on `sha` has received. */
  checkRunAnnotated: (session: string, sha: string) => at(count)(session, `check_run:${sha}:annotated`),
  /** The shas with a run, in creation order. */
  checkRunShas: (session: string) => at(stringList)(session, "check_run:shas"),
  /** The sha whose run is current. */
  checkRunHead: (session: string) => at(objectName)(session, "check_run:head"),
  /** The commit GitHub's API made (signed) for local commit `sha`; a signed commit maps to itself. */
  apiCommit: (session: string, sha: string) => at(objectName)(session, `api-commit:${sha}`),
  /** The plan hash a pushed plan commit `sha` carries: a review on that commit approves this plan. */
  planOfCommit: (session: string, sha: string) => at(text)(session, `plan-commit:${sha}`),
  /** The commit made for plan `hash`, the result, or the blocked work: adopted when a publication runs again. */
  planCommit: (session: string, hash: string) => at(objectName)(session, `plan_commit:${hash}`),
  resultCommit: (session: string) => at(objectName)(session, "result_commit"),
  blockedCommit: (session: string) => at(objectName)(session, "blocked_commit"),
  /** The id of the comment session `session` posted on its issue or PR `n` for `what`. */
  comment: (session: string, n: number, what: string) => at(count)(session, `comment:${n}:${what}`),
  /** The id of the reply posted in the thread of review comment `id`. */
  reviewReply: (session: string, id: number) => at(count)(session, `review-reply:${id}`),
  /** The issue whose session opened PR `pull` of tenant `t`. */
  issueOfPull: (t: Tenant, pull: number) => at(count)(INDEX, `pull:${tenantKey(t)}!${pull}`),
  /** The issue whose session owns check run `id` of tenant `t`. */
  issueOfCheckRun: (t: Tenant, id: number) => at(count)(INDEX, `check:${tenantKey(t)}:${id}`),
  /** The same links as older stores wrote them, by repository id alone: read, never written. */
  olderIssueOfPull: (repoId: number, pull: number) => at(count)(INDEX, `pull:${repoId}!${pull}`),
  olderIssueOfCheckRun: (repoId: number, id: number) => at(count)(INDEX, `check:${repoId}:${id}`),
  /** Where repository `repoId` is now, recorded when GitHub said it moved. */
  repoLocation: (repoId: number) => location(INDEX, `where:${repoId}`),
  /** The delivery that acted on a GitHub object (a comment, a review, a label event): one ever does. */
  claim: (repoId: number, source: string) => at(text)(INDEX, `claim:${repoId}:${source}`),
  /** How many follow-ups a `ci_failed` automation started on PR `pull` of tenant `t`. */
  ciAttempts: (t: Tenant, pull: number) => at(count)(INDEX, `ci-attempts:${tenantKey(t)}!${pull}`),
  /** The repositories with schedules as one list, as the first version kept them: read, never written. */
  schedules: () => at(text)(INDEX, "schedules"),
  /** Tenant `t`'s schedules with their crons (session-work/schedule-registry.ts): one record per repository, under SCHEDULED. */
  scheduledRepo: (t: Tenant) => at(text)(SCHEDULED, tenantKey(t)),
  /** When schedule `name` of tenant `t` was last due and fired (or first seen), as an ISO time: only a later due time fires. */
  scheduleFired: (t: Tenant, name: string) => at(text)(INDEX, `schedule-fired:${tenantKey(t)}:${name}`),
  /** The due time (ISO) schedule `name` of tenant `t` last fired for, followed by ` done` once its run started or was turned down. */
  scheduleRun: (t: Tenant, name: string) => at(text)(INDEX, `schedule-run:${tenantKey(t)}:${name}`),
  /** How many redeliveries of delivery `guid` were asked of GitHub. */
  redeliveries: (guid: string) => at(count)(INDEX, `redelivery:${guid}`),
  /** The last of them: until GitHub records an attempt after it, it is still in flight. */
  lastRedelivery: (guid: string) => redeliveryAsk(INDEX, `redelivery:${guid}:last`),
};
