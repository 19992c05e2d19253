import { createHash } from "node:crypto";
import { approvalProblem, type ApproverRules } from "./approval-check.js";
import { verifyEnvelope, type TrustedKey } from "./envelope.js";
import { commitFacts, commitsOf, readReceiptNote, type CommitFacts } from "./notes.js";
import type { ReceiptPredicate } from "./predicate-schema.js";
import { readReceiptStatement } from "./read-statement.js";

type FindingCode =
  | "no_receipt"
  | "bad_signature"
  | "wrong_subject"
  | "bad_predicate"
  | "tree_mismatch"
  | "path_not_receipted"
  | "blob_mismatch"
  | "receipted_path_unchanged"
  | "no_passing_test"
  | "not_approved_by_a_person";

interface Finding {
  code: FindingCode;
  message: string;
}

export interface CommitVerdict {
  commit: string;
  /** The key that signed a valid receipt, when there was one. */
  keyId: string | null;
  findings: Finding[];
  /** What the signed receipt says people raised the operator's ceilings by for the session, when they did. */
  budgetRaises?: ReceiptPredicate["budgetRaises"];
}

export interface VerifyOptions {
  /** A working tree or a bare repository holding the commits and `refs/notes/patchgate`. */
  gitDir: string;
  /** One commit, or a range `a..b` (each commit of it is checked). */
  range: string;
  publicKeys: readonly TrustedKey[];
  botLogins?: readonly string[];
  /** The repository's config asks that the plan / the writes be approved by someone other than the requester. */
  requireNonRequester?: { plan: boolean; writes: boolean };
}

/**
 * Checks each commit against its receipt, offline: git and the public keys are all it reads. Every
 * fact is read from git and compared with what was signed; nothing the receipt says is taken for a fact
 * about the commit.
 */
export async function verifyCommits(opts: VerifyOptions): Promise<CommitVerdict[]> {
  const verdicts: CommitVerdict[] = [];
  for (const commit of await commitsOf(opts.gitDir, opts.range)) verdicts.push(await verifyOne(opts, commit));
  return verdicts;
}

/** The id a follow-up's receipt names its predecessor's by: sha256 of the note's bytes. */
export function receiptDigest(envelopeJson: string): string {
  return `sha256:${createHash("sha256").update(envelopeJson.trim(), "utf8").digest("hex")}`;
}

async function verifyOne(opts: VerifyOptions, commit: string): Promise<CommitVerdict> {
  const facts = await commitFacts(opts.gitDir, commit);
  const fail = (code: FindingCode, message: string): CommitVerdict => ({ commit, keyId: null, findings: [{ code, message: `${short(commit)}: ${message}` }] });
  const note = await readReceiptNote(opts.gitDir, commit);
  if (note === null) return fail("no_receipt", `no receipt (author ${who(facts.author)}, committer ${who(facts.committer)})`);
  let envelope: unknown;
  try {
    envelope = JSON.parse(note);
  } catch {
    return fail("bad_signature", "the receipt note is not JSON");
  }
  const signed = verifyEnvelope(envelope, opts.publicKeys);
  if (!signed.ok) return fail("bad_signature", signed.reason);
  const statement = readReceiptStatement(signed.statement);
  if (typeof statement === "string") return fail("bad_predicate", statement);
  const subject = statement.subject[0].digest.gitCommit;
  if (subject !== facts.commit) return fail("wrong_subject", `the receipt is for commit ${short(subject)}, not this one`);
  const findings = [...treeFindings(statement.predicate, facts), ...testFindings(statement.predicate, facts), ...approvalFindings(statement.predicate, opts)];
  const raises = statement.predicate.budgetRaises;
  return {
    commit,
    keyId: signed.keyId,
    findings: findings.map((f) => ({ ...f, message: `${short(commit)}: ${f.message}` })),
    ...(raises === undefined ? {} : { budgetRaises: raises }),
  };
}

/** The commit's tree is its parent's plus exactly the receipted paths, each with its receipted blob. */
function treeFindings(p: ReceiptPredicate, facts: CommitFacts): Finding[] {
  const findings: Finding[] = [];
  if (p.tree !== facts.tree) findings.push({ code: "tree_mismatch", message: `its tree is ${short(facts.tree)}; the receipt's is ${short(p.tree)}` });
  const receipted = new Map(p.paths.map((x) => [x.path, x.blob]));
  for (const change of facts.changes) {
    if (!receipted.has(change.path)) {
      findings.push({ code: "path_not_receipted", message: `${change.path} is changed by the commit but not in the receipt` });
    } else if (receipted.get(change.path) !== change.blob) {
      findings.push({
        code: "blob_mismatch",
        message: `${change.path} is ${blobWords(change.blob)} in the commit; the receipt has ${blobWords(receipted.get(change.path) ?? null)}`,
      });
    }
  }
  const changed = new Set(facts.changes.map((c) => c.path));
  for (const path of receipted.keys()) {
    if (!changed.has(path)) findings.push({ code: "receipted_path_unchanged", message: `${path} is in the receipt but the commit does not change it` });
  }
  return findings;
}

/**
 * A result needs a passing run receipted on the commit's own tree, or, under `gate: no_new_failures`,
 * the tree finish accepted with exactly the failures that were failing on the base already.
 */
function testFindings(p: ReceiptPredicate, facts: CommitFacts): Finding[] {
  if (p.kind === "plan") return [];
  const here = p.testRuns.filter((r) => r.tree === facts.tree);
  const latest = here.at(-1);
  if (latest?.passed) return [];
  const acceptedFailing =
    latest !== undefined && p.finish?.tree === facts.tree && p.finish.preExistingFailures.length > 0 && latest.failing === p.finish.preExistingFailures.length;
  if (acceptedFailing) return [];
  const elsewhere = p.testRuns.length > 0 ? `; the receipted runs are on ${[...new Set(p.testRuns.map((r) => short(r.tree)))].join(", ")}` : "";
  return [{ code: "no_passing_test", message: `no passing test run is receipted on its tree ${short(facts.tree)}${elsewhere}` }];
}

function approvalFindings(p: ReceiptPredicate, opts: VerifyOptions): Finding[] {
  const botLogins = opts.botLogins ?? [];
  const rules = (notRequester: boolean): ApproverRules => ({ botLogins, notRequester: notRequester ? p.repository.requester : null });
  const problems: (string | null)[] = [];
  if (p.kind === "result") {
    const plan = p.plan;
    problems.push(
      plan === null
        ? "the plan has no record"
        : approvalProblem(`the plan ${short(plan.hash)}`, plan.approvedBy, rules(opts.requireNonRequester?.plan === true)),
    );
  }
  for (const b of p.writeBatches.filter((x) => x.decision === "granted")) {
    problems.push(approvalProblem(`the write batch ${short(b.digest)}`, b.approvedBy, rules(opts.requireNonRequester?.writes === true)));
  }
  if (p.writesAutoApproved !== null)
    problems.push(approvalProblem("every later write (writes approved at once)", p.writesAutoApproved, rules(opts.requireNonRequester?.writes === true)));
  // Weakened tests are published only with a person's approval of exactly those findings.
  const integrity = p.testIntegrity;
  if (integrity && integrity.findings.length > 0)
    problems.push(
      approvalProblem(`the test-integrity findings ${short(integrity.digest)}`, integrity.approvedBy, rules(opts.requireNonRequester?.writes === true)),
    );
  return problems.filter((x): x is string => x !== null).map((message) => ({ code: "not_approved_by_a_person", message }));
}

function short(id: string): string {
  return id.replace(/^sha256:/, "").slice(0, 12);
}

function blobWords(blob: string | null): string {
  return blob === null ? "deleted" : `blob ${short(blob)}`;
}

function who(p: { name: string; email: string }): string {
  return `${p.name} <${p.email}>`;
}
