import type { ResumeOutcome } from "../../src/agent/outcome.js";
import { newResumeEnv, runSteps, type ResumeEnv, type ResumeStep } from "../../src/agent/resume-steps.js";
import type { ResumeOptions } from "../../src/agent/runtime-options.js";
import type { Ledger } from "../../src/store/ledger.js";

/**
 * How the list of a resume runs: in order, up to the first outcome; what a step opened is closed on the
 * way out, last opened first, and each exit may replace how the resume ends, as nested `finally` would.
 */
const PARKED: ResumeOutcome = { kind: "parked", phase: "awaiting_plan_approval" };
const DONE: ResumeOutcome = { kind: "ended", phase: "done" };

/** runSteps reads neither the ledger nor the options: the steps below are all it touches. */
function env(): ResumeEnv {
  return newResumeEnv({} as Ledger, {} as ResumeOptions);
}

function step(name: string, run: ResumeStep["run"]): ResumeStep {
  return { name, doc: name, run };
}

test("the steps run in order, and the first outcome ends the list", async () => {
  const ran: string[] = [];
  const steps = [step("a", async () => (ran.push("a"), null)), step("b", async () => (ran.push("b"), PARKED)), step("c", async () => (ran.push("c"), DONE))];
  await expect(runSteps(steps, env())).resolves.toEqual(PARKED);
  expect(ran).toEqual(["a", "b"]);
});

test("what the steps opened is closed on the way out, last opened first, each told the outcome", async () => {
  const closed: string[] = [];
  const opens = (name: string) =>
    step(name, async (e) => {
      e.exits.push(async (ending) => (closed.push(`${name} ${JSON.stringify(ending)}`), ending));
      return null;
    });
  await expect(runSteps([opens("sandbox"), opens("mcp"), step("end", async () => DONE)], env())).resolves.toEqual(DONE);
  expect(closed).toEqual([`mcp ${JSON.stringify({ outcome: DONE })}`, `sandbox ${JSON.stringify({ outcome: DONE })}`]);
});

test("a step's error passes every exit, and one exit may turn it into an outcome", async () => {
  const seen: unknown[] = [];
  const boom = new Error("cut short");
  const steps = [
    step("cancel", async (e) => (e.exits.push(async (ending) => ("error" in ending ? { outcome: DONE } : ending)), null)),
    step("watch", async (e) => (e.exits.push(async (ending) => (seen.push(ending), ending)), null)),
    step("fails", async () => {
      throw boom;
    }),
  ];
  await expect(runSteps(steps, env())).resolves.toEqual(DONE);
  expect(seen).toEqual([{ error: boom }]);
});

test("an exit that throws ends the resume with its error, and the exits opened before it still run", async () => {
  const closeFailed = new Error("close failed");
  const seen: unknown[] = [];
  const steps = [
    step("outer", async (e) => (e.exits.push(async (ending) => (seen.push(ending), ending)), null)),
    step("inner", async (e) => (e.exits.push(() => Promise.reject(closeFailed)), null)),
    step("end", async () => PARKED),
  ];
  await expect(runSteps(steps, env())).rejects.toBe(closeFailed);
  expect(seen).toEqual([{ error: closeFailed }]);
});

test("a list whose last step returns no outcome is refused, naming that step", async () => {
  await expect(runSteps([step("only", async () => null)], env())).rejects.toThrow("the last one, only, must return one");
});
