import { builtinCasesDir } from "../../src/eval/builtin-cases.js";
import type { CaseResult, EvalReport } from "../../src/eval/report.js";
import { runSuite } from "../../src/eval/suite.js";
import { builtinCases, realSandbox, scriptedModel } from "../eval/run-helpers.js";

/**
 * Every golden case, run as `patchgate eval` runs it, then replayed from its stored events alone in
 * a fresh clone of its fixture (the runner's `replay` option): the replay must make the same
 * decisions and reach the same tree. One suite run, one test per case, each waiting for its own.
 */
const cases = builtinCases();
const settled = new Map(cases.map((c) => [c.id, deferred<CaseResult>()]));
let suite: Promise<EvalReport> | undefined;

function startSuite(): Promise<EvalReport> {
  suite ??= (async () =>
    runSuite(cases, {
      mode: "scripted",
      model: "scripted",
      casesDir: builtinCasesDir(),
      llm: scriptedModel,
      sandbox: await realSandbox(),
      replay: true,
      onCase: (r) => settled.get(r.id)?.resolve(r),
    }))();
  suite.catch((err) => {
    for (const d of settled.values()) d.reject(err);
  });
  return suite;
}

test.each(cases.map((c) => [c.id] as const))(
  "%s replays to the same decisions and tree",
  async (id) => {
    void startSuite();
    const r = await settled.get(id)!.promise;
    expect({ status: r.status, problems: r.problems }).toEqual({ status: "passed", problems: [] });
    expect(r.notes.filter((n) => n.startsWith("replayed: the same decisions and tree"))).toHaveLength(1);
  },
  600_000,
);

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
