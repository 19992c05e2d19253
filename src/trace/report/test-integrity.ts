import type { SessionState } from "../../session/state.js";
import type { IntegrityFindingRecord } from "../../session/test-integrity.js";
import { clip } from "../../safety/markdown.js";
import { bullets, code, para, strong, type Block, type Inline } from "./doc.js";
import type { SessionView } from "./session-view.js";
import { approvedBy, byWhom, plural, shortHash, when } from "./words.js";

const MAX_FINDINGS = 20;
const MAX_MESSAGE = 300;

function findingItem(f: IntegrityFindingRecord): Inline[] {
  return [code(f.detector), " ", clip(f.message, MAX_MESSAGE)];
}

function findingItems(findings: readonly IntegrityFindingRecord[], suffix: string): Inline[][] {
  const shown = findings.slice(0, MAX_FINDINGS).map((f) => [...findingItem(f), suffix]);
  return findings.length > MAX_FINDINGS ? [...shown, [`… and ${findings.length - MAX_FINDINGS} more`]] : shown;
}

function decidedAt(v: SessionView, digest: string): string {
  const e = [...v.events].reverse().find((x) => (x.type === "integrity_approved" || x.type === "integrity_denied") && x.digest === digest);
  return e ? ` at ${when(e.at)}` : "";
}

/**
 * Evidence items: what the test-integrity check found on the tree finish accepted (nothing, or each
 * finding and who approved it), or, before that, the request waiting or the last one denied.
 */
export function integrityEvidenceItems(v: SessionView): Inline[][] {
  const s = v.state;
  const checked = s.integrityChecked;
  if (checked) {
    const r = checked.report;
    if (r.findings.length === 0)
      return [[`Test integrity: no weakening found (${plural(r.detectorsRun, "detector")} on ${plural(r.testFilesExamined, "test file")}).`]];
    const by = checked.approvedBy ? ` — ${approvedBy(checked.approvedBy)}${decidedAt(v, checked.digest)}` : "";
    return [
      [strong(`Test integrity: ${plural(r.findings.length, "finding")}`), ", each approved as a test_integrity request:"],
      ...findingItems(r.findings, by),
    ];
  }
  const req = s.integrity;
  if (!req) return [];
  const head = `Test integrity (request ${shortHash(req.digest)}): ${plural(req.report.findings.length, "finding")}`;
  if (req.status === "pending") return [[strong(head), " waiting for a maintainer's decision:"], ...findingItems(req.report.findings, "")];
  const verdict = req.status === "denied" ? `denied by ${req.decidedBy ? byWhom(req.decidedBy) : "a maintainer"}` : "approved; finish not accepted yet";
  return [[head, ` ${verdict}${decidedAt(v, req.digest)}.`]];
}

/** The repository's `tests.allow`: changes to the tests published without asking, because the repository said to expect them. */
function allowances(s: SessionState): string[] {
  const tests = s.repoConfig?.tests;
  const allow = tests && typeof tests === "object" ? (tests as { allow?: unknown }).allow : undefined;
  return Array.isArray(allow) ? allow.filter((a): a is string => typeof a === "string") : [];
}

/** Governance: what the repository lets through without a test_integrity approval, and each request's decision. */
export function integrityGovernance(v: SessionView): Block[] {
  const items: Inline[][] = [];
  const allow = allowances(v.state);
  if (allow.length > 0)
    items.push([
      "Expected by the repository (",
      code("tests.allow"),
      "), published without asking: ",
      ...allow.flatMap((a, i) => [i > 0 ? ", " : "", code(a)]),
    ]);
  for (const e of v.events) {
    if (e.type === "integrity_requested")
      items.push(["Request ", code(shortHash(e.digest)), `: ${plural(e.report.findings.length, "finding")} at ${when(e.at)}`]);
    if (e.type === "integrity_approved") items.push(["Request ", code(shortHash(e.digest)), " — ", strong(approvedBy(e.by)), ` at ${when(e.at)}`]);
    if (e.type === "integrity_denied")
      items.push(["Request ", code(shortHash(e.digest)), " — ", strong("denied"), ` by ${byWhom(e.by)} at ${when(e.at)}: “${clip(e.reason, 200)}”`]);
  }
  return items.length === 0 ? [] : [para(strong("Test integrity")), bullets(items)];
}
