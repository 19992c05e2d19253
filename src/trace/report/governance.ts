import { TERMINAL_PHASES, type PendingCall } from "../../session/types.js";
import { clip } from "../../safety/markdown.js";
import { bullets, code, heading, joined, para, strong, type Block, type Inline } from "./doc.js";
import type { BatchView, CallView, SessionView } from "./session-view.js";
import { approval, byWhom, plural, shortHash, when } from "./words.js";
import { integrityGovernance } from "./test-integrity.js";
import { automationGovernance } from "./automation-part.js";
import { grantsGovernance, untrustedGovernance } from "./grants.js";
import { budgetGovernance } from "./budget-governance.js";

/**
 * Governance: who allowed what. Each part reads the joined-up ledger and returns its blocks (none
 * when it has nothing to say); parts for facts other issues add (rollbacks, MCP calls, baselines)
 * plug into GOVERNANCE_PARTS.
 */
type Part = (v: SessionView) => Block[];

const MAX_ITEMS = 30;
const MAX_FEEDBACK = 200;
const COMMAND_TOOLS = new Set(["run_command", "run_tests"]);

function capped(items: Inline[][]): Inline[][] {
  return items.length > MAX_ITEMS ? [...items.slice(0, MAX_ITEMS), [`… and ${items.length - MAX_ITEMS} more`]] : items;
}

const section = (label: string, items: Inline[][]): Block[] => (items.length === 0 ? [] : [para(strong(label)), bullets(capped(items))]);

const planPart: Part = (v) => {
  if (v.plans.length === 0) return [];
  const items = v.plans.map((p, i): Inline[] => {
    const head: Inline[] = [
      `${v.plans.length > 1 ? `Revision ${i + 1}: ` : ""}plan `,
      code(shortHash(p.hash)),
      ` (step ${p.step}, ${plural(p.plan.steps.length, "step")})`,
    ];
    if (!p.verdict)
      return [...head, TERMINAL_PHASES.includes(v.state.phase) ? " — never decided: the session ended first" : ` — waiting for approval since ${when(p.at)}`];
    if (p.verdict.approved) {
      const { verb, who } = approval(p.verdict.by);
      return [...head, " — ", strong(verb), ` by ${who} at ${when(p.verdict.at)}`];
    }
    return [...head, ` — changes requested by ${byWhom(p.verdict.by)} at ${when(p.verdict.at)}: “${clip(p.verdict.feedback ?? "", MAX_FEEDBACK)}”`];
  });
  return section("Plan", items);
};

function target(c: PendingCall): Inline[] {
  const input = (c.input ?? {}) as Record<string, unknown>;
  const moved = typeof input.from === "string" && typeof input.to === "string" ? `${input.from} → ${input.to}` : "";
  const subject = typeof input.path === "string" ? input.path : typeof input.command === "string" ? input.command : moved;
  return subject ? [code(c.tool), " ", code(subject)] : [code(c.tool)];
}

function batchItem(b: BatchView, ended: boolean): Inline[] {
  const head: Inline[] = ["Batch ", code(shortHash(b.digest)), ` (step ${b.step}): `, ...joined(b.calls.map(target), ", ")];
  if (!b.verdict) return [...head, ended ? " — never decided: the session ended first" : ` — waiting since ${when(b.at)}`];
  const { verb, who } = b.verdict.granted ? approval(b.verdict.by) : { verb: "denied", who: byWhom(b.verdict.by) };
  const reason = b.verdict.reason ? `: “${clip(b.verdict.reason, MAX_FEEDBACK)}”` : "";
  return [...head, " — ", strong(verb), ` by ${who} at ${when(b.verdict.at)}${reason}`];
}

const writesPart: Part = (v) => {
  const ended = TERMINAL_PHASES.includes(v.state.phase);
  const items = v.batches.map((b) => batchItem(b, ended));
  if (v.autoApproval) {
    const auto = v.calls.filter((c) => c.policy?.rule === "session:writes-approved");
    const what =
      auto.length > 0
        ? joined(
            auto.slice(0, 10).map((c) => [code(c.tool), " ", code(c.policy?.subject ?? "")]),
            ", ",
          )
        : ["no write used it"];
    items.push([`All writes approved by ${byWhom(v.autoApproval.by)} at ${when(v.autoApproval.at)}; ran under it: `, ...what]);
  }
  return section("Writes", items);
};

/** `allow:test-command` ×3, `ask:…` ×1 → approved ×1, `deny:git-push` ×1 — with the first command of each. */
const commandsPart: Part = (v) => {
  const groups = new Map<string, CallView[]>();
  for (const c of v.calls) {
    if (!c.policy || !COMMAND_TOOLS.has(c.tool)) continue;
    groups.set(c.policy.rule, [...(groups.get(c.policy.rule) ?? []), c]);
  }
  const items = [...groups].map(([rule, calls]): Inline[] => {
    const decided = calls.filter((c) => c.batch?.verdict);
    const approved = decided.filter((c) => c.batch?.verdict?.granted).length;
    const humans = decided.length > 0 ? ` → approved ×${approved}${decided.length > approved ? `, denied ×${decided.length - approved}` : ""}` : "";
    const waiting = calls.some((c) => c.batch && !c.batch.verdict) ? ", waiting ×1" : "";
    return [code(rule), ` ×${calls.length}${humans}${waiting} — e.g. `, code(calls[0].policy?.subject ?? "")];
  });
  return section("Commands", items);
};

/** Every refusal the model got back, by code: the gates at work. */
const refusalsPart: Part = (v) => {
  const groups = new Map<string, CallView[]>();
  for (const c of v.calls) {
    const r = c.result?.result;
    if (r && !r.ok) groups.set(r.error.code, [...(groups.get(r.error.code) ?? []), c]);
  }
  const items = [...groups].map(([errorCode, calls]): Inline[] => {
    const where = joined(
      calls.slice(0, 8).map((c) => [code(c.tool), ` at step ${c.step}`]),
      ", ",
    );
    return [code(errorCode), ` ×${calls.length} — `, ...where, ...(calls.length > 8 ? [", …"] : [])];
  });
  return section("Refused", items);
};

/** MCP calls by server tool: how many ran (and who approved them), were refused, denied or cut short. */
const mcpPart: Part = (v) => {
  const groups = new Map<string, { ran: number; approvedBy: Set<string>; refused: number; denied: number; interrupted: number; rules: Set<string> }>();
  for (const e of v.events) {
    if (e.type !== "mcp_call" || e.stage === "started" || e.stage === "awaiting_approval") continue;
    const key = `${e.server}/${e.tool}`;
    const g = groups.get(key) ?? { ran: 0, approvedBy: new Set<string>(), refused: 0, denied: 0, interrupted: 0, rules: new Set<string>() };
    g.rules.add(e.rule);
    if (e.stage === "completed") {
      g.ran += 1;
      if (e.by !== "policy") g.approvedBy.add(`@${e.by}`);
    } else if (e.stage === "denied") g.refused += 1;
    else if (e.stage === "denied_by_human") g.denied += 1;
    else g.interrupted += 1;
    groups.set(key, g);
  }
  const items = [...groups].map(([tool, g]): Inline[] => {
    const parts = [
      g.ran > 0 ? `ran ×${g.ran}${g.approvedBy.size > 0 ? ` (approved by ${[...g.approvedBy].join(", ")})` : ""}` : "",
      g.refused > 0 ? `refused by policy ×${g.refused}` : "",
      g.denied > 0 ? `denied by a human ×${g.denied}` : "",
      g.interrupted > 0 ? `interrupted ×${g.interrupted}` : "",
    ].filter(Boolean);
    return [
      code(tool),
      ` — ${parts.join(", ")} · `,
      ...joined(
        [...g.rules].map((r) => [code(r)]),
        ", ",
      ),
    ];
  });
  return section("MCP calls", items);
};

/** Files a command changed, per step: `fate` says what became of them. */
function commandChanges(v: SessionView, type: "changes_rolled_back" | "command_changed", fate: string): Inline[][] {
  return v.steps.flatMap((step) =>
    step.events.flatMap((e): Inline[][] =>
      e.type === type
        ? [
            [
              `Step ${step.index}: `,
              code(e.tool),
              " changed ",
              ...joined(
                e.paths.slice(0, 10).map((p) => [code(p)]),
                ", ",
              ),
              e.paths.length > 10 ? ` and ${e.paths.length - 10} more` : "",
              fate,
            ],
          ]
        : [],
    ),
  );
}

/** Changes a command or test run made that nobody approved, put back before anything else ran. */
const rollbacksPart: Part = (v) => section("Rolled back", commandChanges(v, "changes_rolled_back", " — put back"));

/** Changes of a command a human approved: kept, and published with the file tools' writes. */
const keptPart: Part = (v) => section("Kept from approved commands", commandChanges(v, "command_changed", " — kept, published"));

const GOVERNANCE_PARTS: Part[] = [
  automationGovernance,
  planPart,
  writesPart,
  integrityGovernance,
  grantsGovernance,
  commandsPart,
  refusalsPart,
  rollbacksPart,
  keptPart,
  mcpPart,
  untrustedGovernance,
  budgetGovernance,
];

export function governanceBlocks(v: SessionView): Block[] {
  const parts = GOVERNANCE_PARTS.flatMap((p) => p(v));
  return [heading(3, "Governance"), ...(parts.length > 0 ? parts : [para("Nothing needed a decision yet.")])];
}
