import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { defineTool, parseToolArguments } from "../../src/tools/define-tool.js";
import { capOutput, TOOL_OUTPUT_BYTES } from "../../src/tools/output-cap.js";
import { ALL_TOOLS } from "../../src/tools/registry.js";
import { fail, ok, type ToolContext } from "../../src/tools/tool.js";

/** The one tool shape: a name given once, a declared effect, validation as a result, one cap in bytes. */
const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../src/tools");
const ctx = undefined as unknown as ToolContext;
const bytes = (text: string) => Buffer.byteLength(text, "utf8");

/** A tool that answers with what it is given: its text fields are what the cap sees. */
function echo(output?: { fields: readonly string[]; maxBytes?: number; keptIn?: string }) {
  return defineTool({
    name: "echo",
    version: "1",
    description: "Answers with its input.",
    input: z.strictObject({ out: z.string(), note: z.string(), truncated: z.boolean().optional(), refuse: z.boolean().optional() }),
    effect: { risk: "meta", mutatesWorkspace: false, idempotent: true },
    modes: ["plan"],
    ...(output ? { output } : {}),
    request: () => ({ kind: "meta" }),
    execute: async (args) => ({ result: args.refuse ? fail("refused", args.out) : ok(args) }),
  });
}

describe("the name is given once", () => {
  test("the request the policy judges carries the declaration's name, kind first", () => {
    const r = echo().request({ out: "", note: "" }, ctx);
    expect([r, Object.keys(r)]).toEqual([{ kind: "meta", tool: "echo" }, ["kind", "tool"]]);
  });

  test.each(ALL_TOOLS.map((t) => [t.name]))("%s: its file names it once", (name) => {
    const source = readFileSync(path.join(SRC, `${name.replaceAll("_", "-")}.ts`), "utf8");
    expect(source.split(`"${name}"`).length - 1).toBe(1);
  });

  test("the effect is declared once and read flat by the runtime", () => {
    expect(echo()).toMatchObject({ risk: "meta", mutatesWorkspace: false, idempotent: true, modes: ["plan"] });
    expect(echo()).not.toHaveProperty("effect");
  });
});

describe("one output cap, in bytes", () => {
  test("a declared field longer than the cap keeps its head and tail within the bytes, and the result says it was cut", async () => {
    const long = `HEAD${"é".repeat(TOOL_OUTPUT_BYTES)}TAIL`; // two bytes a character: twice the cap
    const { result } = await echo({ fields: ["out"] }).execute({ out: long, note: long, truncated: false }, ctx);
    const data = (result.ok ? result.data : {}) as { out: string; note: string; truncated: boolean };
    const [head, tail] = data.out.split(/\n… \[\d+ characters omitted\] …\n/);
    expect([head.startsWith("HEAD"), tail.endsWith("TAIL"), bytes(head) + bytes(tail) <= TOOL_OUTPUT_BYTES]).toEqual([true, true, true]);
    expect(bytes(head) + bytes(tail)).toBeGreaterThan(TOOL_OUTPUT_BYTES - 4);
    expect([result.ok && result.truncated, data.truncated, data.note]).toEqual([true, true, long]);
  });

  test("a field within the cap is the same result, not flagged", async () => {
    const tool = echo({ fields: ["out"] });
    const { result } = await tool.execute({ out: "x".repeat(TOOL_OUTPUT_BYTES), note: "n" }, ctx);
    expect(result).toEqual({ ok: true, data: { out: "x".repeat(TOOL_OUTPUT_BYTES), note: "n" } });
  });

  test("a tool's own bound and where the whole text is kept, in the marker", async () => {
    const { result } = await echo({ fields: ["out"], maxBytes: 100, keptIn: "the trace" }).execute({ out: "y".repeat(1000), note: "" }, ctx);
    const out = result.ok ? (result.data as { out: string }).out : "";
    expect(out).toBe(`${"y".repeat(25)}\n… [900 characters omitted; the whole output is kept in the trace] …\n${"y".repeat(75)}`);
  });

  test("a refusal is passed as it is", async () => {
    const { result } = await echo({ fields: ["out"], maxBytes: 10 }).execute({ out: "z".repeat(100), note: "", refuse: true }, ctx);
    expect(result).toEqual({ ok: false, error: { code: "refused", message: "z".repeat(100) } });
  });

  test("a cut never splits a character", () => {
    const c = capOutput("😀".repeat(100), 41);
    expect([c.truncated, c.text.includes("\uFFFD"), /^(😀)+\n… \[\d+ characters omitted\] …\n(😀)+$/u.test(c.text)]).toEqual([true, false, true]);
  });
});

describe("validation is central and answers as a tool result", () => {
  test("arguments that do not fit the schema name the tool and every issue", () => {
    expect(parseToolArguments(echo(), '{"out": 3}')).toEqual({
      ok: false,
      error: {
        code: "invalid_arguments",
        message:
          "invalid arguments for echo: out: Invalid input: expected string, received number; note: Invalid input: expected string, received undefined. Rewrite the input so it satisfies the schema.",
        details: {
          issues: [
            { path: "out", message: "Invalid input: expected string, received number" },
            { path: "note", message: "Invalid input: expected string, received undefined" },
          ],
        },
      },
    });
  });

  test("text that is not JSON is a result too, and null stands for an argument not given", () => {
    expect(parseToolArguments(echo(), "{").ok).toBe(false);
    expect(parseToolArguments(echo(), '{"out": "a", "note": "b", "truncated": null}')).toEqual({ ok: true, input: { out: "a", note: "b" } });
  });
});
