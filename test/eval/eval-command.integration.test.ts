import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { evalCommand, parseEvalArgs } from "../../src/cli/eval-command.js";
import { builtinCasesDir } from "../../src/eval/builtin-cases.js";
import { loadCaseFile } from "../../src/eval/case-loader.js";
import { expandScript } from "../../src/eval/script-schema.js";
import { scriptAnswerTurns } from "../fakes/chat/script-answers.js";
import { startFakeOpenAI } from "../fakes/chat/server.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "eval-cli-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function sink(): Writable & { text: () => string } {
  const chunks: string[] = [];
  const w = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return Object.assign(w, { text: () => chunks.join("") });
}

/** A team's own case, written as JSON with its repository inline: a greeting bug and its fix. */
function writeUserCase(id: string, scriptLength: number, extra: object = {}): string {
  const script = [
    { tool: "read_file", args: { path: "greet.js" } },
    { tool: "submit_plan", args: { summary: "Add the comma.", steps: ["Edit greet.js", "Run the tests"] } },
    { tool: "edit_file", args: { path: "greet.js", edits: [{ search: "`Hello ${name}`", replace: "`Hello, ${name}`" }] } },
    { tool: "run_tests" },
    { tool: "finish", args: { summary: "Added the comma." } },
  ];
  const c = {
    category: "team",
    task: { title: "Greeting lacks a comma", body: "greet('Ada') should be 'Hello, Ada'." },
    files: {
      "package.json": '{ "type": "commonjs" }\n',
      "greet.js": "exports.greet = (name) => `Hello ${name}`;\n",
      "greet.test.js":
        "const assert = require('node:assert');\nrequire('node:test')('greets', () => assert.equal(require('./greet.js').greet('Ada'), 'Hello, Ada'));\n",
    },
    config: { test: "node --test" },
    auto_approve_writes: true,
    approvals: ["approve_plan"],
    script: script.slice(0, scriptLength),
    expect: { outcome: "done", class: "none", tests: "pass" },
    checks: [{ file_contains: { path: "greet.js", text: "Hello, " } }],
  };
  const file = path.join(dir, "cases", id, "case.json");
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ ...c, ...extra }, null, 2));
  return file;
}

describe("patchgate eval", () => {
  test("runs user-written cases and writes report.json and report.md; exit 0 when all pass", async () => {
    writeUserCase("greeting", 5);
    const out = sink();
    const code = await evalCommand(["--cases", path.join(dir, "cases"), "--out", path.join(dir, "out")], out);
    expect(code).toBe(0);
    const report = JSON.parse(readFileSync(path.join(dir, "out", "report.json"), "utf8"));
    expect(report.cases.map((c: { id: string; status: string }) => [c.id, c.status])).toEqual([["greeting", "passed"]]);
    expect(report.run).toMatchObject({ llm: "scripted", model: "scripted", casesDir: path.join(dir, "cases") });
    expect(readFileSync(path.join(dir, "out", "report.md"), "utf8")).toContain("| greeting | team | done / none | done | none |");
    expect(out.text()).toMatch(/^ok {3}greeting/m);
  }, 60_000);

  test("exit 1 when a case does not get what it expected; --case picks cases", async () => {
    writeUserCase("greeting", 5);
    writeUserCase("short-script", 3);
    const out = sink();
    const code = await evalCommand(["--cases", path.join(dir, "cases"), "--out", path.join(dir, "out"), "--case", "short-script"], out);
    expect(code).toBe(1);
    expect(out.text()).toMatch(/^FAIL short-script +failed\/llm_error/m);
    expect(out.text()).not.toMatch(/greeting/);
  }, 60_000);

  test("--llm openai runs the cases against an OpenAI-compatible server and skips scripted-only ones", async () => {
    const file = writeUserCase("greeting", 5);
    writeUserCase("misbehaving-model", 1, { modes: ["scripted"] });
    // The provider plays the case's script, so the run is deterministic while going through the real client.
    const provider = await startFakeOpenAI(scriptAnswerTurns(expandScript(loadCaseFile(file).script)));
    const saved = { key: process.env.OPENAI_API_KEY, url: process.env.OPENAI_BASE_URL };
    // Long enough to be searched for in the trace (see hostSecrets): it must reach the provider only.
    Object.assign(process.env, { OPENAI_API_KEY: "sk-test-0123456789abcdef", OPENAI_BASE_URL: provider.baseURL });
    try {
      const out = sink();
      const code = await evalCommand(["--cases", path.join(dir, "cases"), "--out", path.join(dir, "out"), "--llm", "openai", "--model", "gpt-4.1-mini"], out);
      expect(code).toBe(0);
      const report = JSON.parse(readFileSync(path.join(dir, "out", "report.json"), "utf8"));
      expect(report.cases.map((c: { id: string; status: string }) => [c.id, c.status])).toEqual([
        ["greeting", "passed"],
        ["misbehaving-model", "skipped"],
      ]);
      // Usage came from the provider and was priced: 5 calls × (1000 prompt + 50 completion) tokens.
      expect(report.cases[0].metrics).toMatchObject({ steps: 5, promptTokens: 5000, completionTokens: 250, tokensEstimated: false });
      expect(report.cases[0].metrics.costUsd).toBeCloseTo((5 * (1000 * 0.4 + 50 * 1.6)) / 1e6, 9);
      expect(provider.requests).toHaveLength(5);
      expect(provider.violations).toEqual([]);
    } finally {
      await provider.close();
      for (const [k, v] of [
        ["OPENAI_API_KEY", saved.key],
        ["OPENAI_BASE_URL", saved.url],
      ] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  }, 60_000);

  test("usage problems are UsageErrors with a clear message", async () => {
    writeUserCase("greeting", 5);
    await expect(evalCommand(["--llm", "claude"])).rejects.toThrow(/--llm must be scripted or openai/);
    await expect(evalCommand(["--cases", dir])).rejects.toThrow(/no case directories/);
    await expect(evalCommand(["--cases", path.join(dir, "cases"), "--case", "nope"])).rejects.toThrow(/unknown case nope/);
    const key = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      await expect(evalCommand(["--cases", path.join(dir, "cases"), "--llm", "openai"])).rejects.toThrow(/OPENAI_API_KEY is not set/);
    } finally {
      if (key !== undefined) process.env.OPENAI_API_KEY = key;
    }
  });

  test("defaults: the built-in cases, a timestamped output directory, the scripted model", () => {
    const args = parseEvalArgs([], new Date("2026-11-29T22:00:00.000Z"))!;
    expect(args).toEqual({
      casesDir: builtinCasesDir(),
      outDir: path.resolve("eval-runs", "2026-11-29T22-00-00-000Z"),
      llm: "scripted",
      model: "scripted",
      only: [],
      keep: false,
      messy: false,
    });
    expect(parseEvalArgs(["--llm", "openai", "--model", "gpt-4.1"])?.model).toBe("gpt-4.1");
    expect(parseEvalArgs(["--messy"])?.messy).toBe(true);
    expect(() => parseEvalArgs(["--messy", "--llm", "openai"])).toThrow(/--messy .* needs --llm scripted/);
  });
});
