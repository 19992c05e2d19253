import type { Phase } from "../../session/types.js";
import { clip } from "../../safety/markdown.js";
import { code, joined, para, strong, withCode, type Block, type Inline } from "./doc.js";
import type { SessionView } from "./session-view.js";
import { budgetParkWords } from "../budget-words.js";
import { blockedWords, failureWords, plural, pushesToGitHub, shortHash, shortSha, when } from "./words.js";

/**
 * The first line of the summary: how the session stands, with the reason in words. One entry per
 * phase, so a new phase cannot be added without saying how it reads.
 */
const MAX_REASON = 300;
// What to install is the whole point of a blocked outcome: it gets more room than a failure.
const MAX_BLOCKED = 600;

function pendingWork(v: SessionView): Inline[] {
  const calls = v.state.pending?.calls ?? [];
  return joined(
    calls
      .slice(0, 5)
      .map((c) => [
        code(c.tool),
        " ",
        code(
          c.input && typeof c.input === "object"
            ? String((c.input as Record<string, unknown>).path ?? (c.input as Record<string, unknown>).command ?? c.preview)
            : c.preview,
        ),
      ]),
    ", ",
  );
}

const OUTCOME: Record<Phase, (v: SessionView) => Inline[]> = {
  queued: () => [strong("Queued"), " — the workspace is being prepared."],
  planning: (v) => [strong("Planning"), ` — read-only, step ${v.state.step}.`],
  awaiting_plan_approval: (v) => {
    const plan = v.plans.at(-1);
    return [strong("⏸ Waiting for plan approval"), " — plan ", code(shortHash(v.state.planHash ?? "")), ...(plan ? [` submitted ${when(plan.at)}.`] : ["."])];
  },
  executing: (v) => {
    const done = v.state.todos.filter((t) => t.status === "completed").length;
    return [strong("Executing"), ` — step ${v.state.step}${v.state.todos.length > 0 ? `, todos ${done}/${v.state.todos.length} done` : ""}.`];
  },
  awaiting_answer: (v) => [strong("⏸ Waiting for an answer"), " — the agent asked: ", clip(v.state.questions.at(-1)?.question ?? "", MAX_REASON)],
  awaiting_write_approval: (v) => [
    strong("⏸ Waiting for write approval"),
    " — batch ",
    code(shortHash(v.state.pending?.digest ?? "")),
    ": ",
    ...pendingWork(v),
    ".",
  ],
  awaiting_integrity_approval: (v) => [
    strong("⏸ Waiting for test-integrity approval"),
    " — ",
    code(shortHash(v.state.integrity?.digest ?? "")),
    `: ${plural(v.state.integrity?.report.findings.length ?? 0, "finding")} that the change weakens the tests.`,
  ],
  awaiting_grant: (v) => [
    strong("⏸ Waiting for a grant"),
    " — ",
    code(shortHash(v.state.grantRequest?.digest ?? "")),
    `: the agent asks for ${v.state.grantRequest?.request.kind ?? "?"} `,
    code(clip(v.state.grantRequest?.request.target ?? "", MAX_REASON)),
    ", for this session only.",
  ],
  awaiting_budget: (v) => [
    strong("⏸ Waiting for budget"),
    ` — ${v.state.budget.parked ? budgetParkWords(v.state.budget.parked) : "the operator's ceiling is reached"}; `,
    code("/agent budget +<usd>"),
    " by someone with write access raises it for this session.",
  ],
  publishing: (v) => [strong("Publishing"), " — finish accepted on tree ", code(shortHash(v.state.finishedTree ?? "")), "."],
  done: (v) => {
    const p = v.state.published;
    if (!p) return [strong("✅ Done"), "."];
    const tested = v.state.finishedTree;
    const proof =
      p.tree !== undefined && p.tree === tested
        ? "; the tests passed on exactly that commit's tree."
        : "; finish was accepted after the tests passed (see Evidence).";
    const where = pushesToGitHub(v) ? [" — pushed ", code(shortSha(p.commit)), " to "] : [" — committed ", code(shortSha(p.commit)), " on the local branch "];
    return [strong("✅ Done"), ...where, code(p.branch), proof];
  },
  failed: (v) => {
    const f = v.state.failure;
    if (!f) return [strong("❌ Failed"), "."];
    // A dead letter is no verdict on the work: a maintainer's retry runs it on a live worker.
    const retry = f.reason === "worker_died" ? [" ", code("/agent retry"), " runs it again, continuing from the ledger."] : [];
    return [strong("❌ Failed"), ` — ${failureWords(f.reason)} (`, code(f.reason), `): ${clip(f.message, MAX_REASON)}`, ...retry];
  },
  blocked: (v) => {
    const b = v.state.blocked;
    if (!b) return [strong("⛔ Blocked"), "."];
    const w = b.work;
    const failing =
      w?.pushed && w.failing && w.failing.length > 0
        ? [" Failing: ", ...w.failing.slice(0, 10).flatMap((n, i) => [...(i > 0 ? [", "] : []), code(clip(n, 200))]), "."]
        : [];
    const work = w?.pushed
      ? [
          pushesToGitHub(v) ? " The work so far is pushed " : " The work so far is committed ",
          strong("untested"),
          " as ",
          code(shortSha(w.commit)),
          pushesToGitHub(v) ? " to " : " on the local branch ",
          code(w.branch),
          "; it is not a result and is never marked ready.",
          ...failing,
        ]
      : w
        ? [` The work so far was not ${pushesToGitHub(v) ? "pushed" : "kept on a branch"}: ${clip(w.why, MAX_REASON)}.`]
        : [];
    return [
      strong("⛔ Blocked"),
      ` — ${blockedWords(b.reason)} (`,
      code(b.reason),
      `): ${clip(b.message, MAX_BLOCKED)} `,
      code("/agent retry"),
      " starts again once that is done.",
      ...work,
    ];
  },
  cancelled: (v) => {
    const e = [...v.events].reverse().find((x) => x.type === "session_cancelled");
    const by = e?.type === "session_cancelled" ? (e.by === "runtime" ? " by the runtime" : ` by @${e.by}`) : "";
    const why = e?.type === "session_cancelled" && e.reason ? `: ${clip(e.reason, MAX_REASON)}` : ".";
    return [strong("🛑 Cancelled"), by, why];
  },
};

const MAX_SUMMARY = 2000;

/** The outcome line, then the agent's own summary of what it did once finish was accepted. */
export function outcomeBlocks(v: SessionView): Block[] {
  const said = v.state.finishSummary?.trim();
  return [para(...OUTCOME[v.state.phase](v)), ...(said ? [para(strong("The agent's summary:"), " ", ...withCode(clip(said, MAX_SUMMARY)))] : [])];
}
