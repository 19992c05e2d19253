import { answerInterrupted } from "./interrupted-calls.js";
import { blockWithoutTestCommand, endIfBlockReported } from "./blocked-endings.js";
import { buildCallEnv } from "./build-call-env.js";
import { loadInstructionsOnce } from "./instructions-once.js";
import { restoreAfterInterruption } from "./interrupted.js";
import { offeredTools, stepUntilParkedOrEnded } from "./model-loop.js";
import { runSetupFirst } from "./networked-setup.js";
import { readySandbox } from "./ready-sandbox.js";
import type { ResumeOutcome } from "./outcome.js";
import { cancelOnAbort, openMcp, openSandbox, startBaselineBeside } from "./resume-resources.js";
import { callEnvOf, type ResumeEnv, type ResumeStep } from "./resume-steps.js";
import { outcomeOf } from "./session-endings.js";
import { settlePending } from "./settle-pending.js";
import { settleIntegrity } from "./settle-integrity.js";
import { settleGrant } from "./settle-grant.js";
import { resolveToolchainsOnce } from "./toolchains-once.js";
import { toolVersionsEvent } from "./tool-versions.js";
import { traceOnEnd } from "./trace-on-end.js";
import { answerOpenCalls } from "./turn.js";

const BLOCKED: ResumeOutcome = { kind: "ended", phase: "blocked" };

/** A step that only acts: the resume goes on to the next one. */
function goOnAfter(act: (env: ResumeEnv) => Promise<unknown> | void): ResumeStep["run"] {
  return async (env) => {
    await act(env);
    return null;
  };
}

/**
 * Every resume, in order: the first step that returns an outcome ends it, and what the steps opened
 * is closed on the way out, last opened first (./resume-steps.ts runSteps). Nothing is held in memory
 * between resumes: each step reads the ledger, and a step that must happen once records that it did.
 * ARCHITECTURE.md "The resume" shows this list (test/agent/resume-steps-doc.test.ts keeps it equal).
 */
export const RESUME_STEPS: readonly ResumeStep[] = [
  {
    name: "stayEnded",
    doc: "A session that has ended stays ended: nothing is opened and nothing appended.",
    run: async ({ ledger }) => {
      const settled = outcomeOf(ledger);
      return settled?.kind === "ended" ? settled : null;
    },
  },
  {
    name: "traceOnEnd",
    doc: "Exports the session's spans once it reaches a terminal phase (one listener per ledger).",
    run: goOnAfter(({ ledger, opts }) => traceOnEnd(ledger, opts.secrets)),
  },
  {
    name: "cancelOnAbort",
    doc: "Binds every git call and walk to the signal; from here on, what an abort cuts short ends the session cancelled.",
    run: cancelOnAbort,
  },
  {
    name: "openSandbox",
    doc: "Opens the session's sandbox, kept for all its commands; closed on the way out, or as soon as the signal aborts.",
    run: openSandbox,
  },
  {
    name: "buildCallEnv",
    doc: "Builds what each call runs with: the policy's rules, the tools, the session's cache directory.",
    run: buildCallEnv,
  },
  {
    name: "settleParkedTurn",
    doc: "A session parked or ready to publish: the calls a crash left after the one that parked it are answered, and it stays there.",
    run: async (env) => {
      const settled = outcomeOf(env.ledger);
      if (!settled) return null;
      await answerOpenCalls(callEnvOf(env));
      return outcomeOf(env.ledger) ?? settled;
    },
  },
  {
    name: "recordResumed",
    doc: "Records the resume and its trigger in the timeline.",
    run: goOnAfter(({ ledger, opts }) => ledger.append({ type: "resumed", trigger: opts.trigger ?? "resume" })),
  },
  {
    name: "resolveToolchainsOnce",
    doc: "Resolves and records the toolchains once, before any model call or sandboxed run; one the host lacks blocks the session.",
    run: async ({ ledger, opts }) => ((await resolveToolchainsOnce(ledger, opts)) ? BLOCKED : null),
  },
  {
    name: "blockWithoutTestCommand",
    doc: "A session without a test command ends blocked before its first model call.",
    run: async ({ ledger, opts }) => ((await blockWithoutTestCommand(ledger, opts)) ? BLOCKED : null),
  },
  {
    name: "loadInstructionsOnce",
    doc: "Reads the repository's agent instructions once, from the default branch, before the first model call.",
    run: goOnAfter(({ ledger, opts }) => loadInstructionsOnce(ledger, opts)),
  },
  {
    name: "openMcp",
    doc: "Connects the operator's MCP servers for this resume; closed on the way out, or as soon as the signal aborts.",
    run: openMcp,
  },
  {
    name: "recordToolVersions",
    doc: "Records the version of every tool offered when it differs from the last record.",
    run: goOnAfter(async (env) => {
      const versions = toolVersionsEvent(env.ledger.state, offeredTools(env));
      if (versions) await env.ledger.append(versions);
    }),
  },
  {
    name: "restoreAfterInterruption",
    doc: "Puts the publishable files back to the ledger's record when a crash cut off a call that changes them.",
    run: goOnAfter((env) => restoreAfterInterruption(callEnvOf(env))),
  },
  {
    name: "runSetupFirst",
    doc: "Runs the repository's setup once in execute mode, before any call can change the workspace.",
    run: goOnAfter((env) => runSetupFirst(callEnvOf(env))),
  },
  {
    name: "startBaseline",
    doc: "Starts the baseline test run on the base tree beside the loop; every way out waits for it.",
    run: startBaselineBeside,
  },
  {
    name: "readySandbox",
    doc: "Readies the sandbox beside the loop for the resume's first run: in execute mode the test command's sandbox is started, unless the baseline does it.",
    run: goOnAfter((env) => readySandbox(callEnvOf(env), env.baseline.running())),
  },
  {
    name: "answerInterrupted",
    doc: "Answers `interrupted` every MCP call whose start was recorded but that has no result; none is sent again.",
    run: goOnAfter((env) => answerInterrupted(callEnvOf(env))),
  },
  {
    name: "settlePending",
    doc: "Runs the approved calls of a decided batch and answers the denied ones, then closes the batch.",
    run: goOnAfter((env) => settlePending(callEnvOf(env))),
  },
  {
    name: "settleIntegrity",
    doc: "Answers the finish a decided test_integrity request held: denied, with each finding named; approved, by running finish again on the tree as it is.",
    run: goOnAfter((env) => settleIntegrity(callEnvOf(env))),
  },
  {
    name: "settleGrant",
    doc: "Answers the request_grant call a decided grant request held: approved, with what the session may now use until it ends; denied, with the human's reason.",
    run: goOnAfter((env) => settleGrant(callEnvOf(env))),
  },
  {
    name: "answerOpenCalls",
    doc: "Gives every call of the last model turn an answer: `interrupted` if it had started, else it runs now through every gate.",
    run: goOnAfter((env) => answerOpenCalls(callEnvOf(env))),
  },
  {
    name: "endIfBlockReported",
    doc: "The agent's report_blocked, once its turn is answered, ends the session blocked (or keeps its work first).",
    run: ({ ledger, opts }) => endIfBlockReported(ledger, opts),
  },
  {
    name: "stopIfSettled",
    doc: "A call answered above may have parked or ended the session: the resume stops there.",
    run: async ({ ledger }) => outcomeOf(ledger),
  },
  {
    name: "stepUntilParkedOrEnded",
    doc: "Asks the model and runs its calls, turn after turn, until the session parks, ends or is ready to publish.",
    run: stepUntilParkedOrEnded,
  },
];
