import { parseToolArguments } from "../../src/tools/define-tool.js";
import { ALL_TOOLS, findTool, toolSpecs, toolsForMode } from "../../src/tools/registry.js";
import { readFileTool } from "../../src/tools/read-file.js";
import { runTestsTool } from "../../src/tools/run-tests.js";
import { editFileTool } from "../../src/tools/edit-file.js";

/** Every property of every object in a JSON Schema, with its path. */
function properties(schema: Record<string, unknown>, at = ""): [string, Record<string, unknown>][] {
  const out: [string, Record<string, unknown>][] = [];
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  for (const [k, v] of Object.entries(props)) {
    out.push([`${at}${k}`, v], ...properties(v, `${at}${k}.`));
    if (v.items) out.push(...properties(v.items as Record<string, unknown>, `${at}${k}[].`));
  }
  return out;
}

describe("tool registry", () => {
  test("plan mode offers only read, plan, question and todo tools, and report_blocked (a task impossible as asked)", () => {
    expect(toolsForMode("plan").map((t) => t.name)).toEqual([
      "read_file",
      "list_files",
      "search_code",
      "update_plan",
      "submit_plan",
      "ask_human",
      "update_todos",
      "report_blocked",
    ]);
  });

  test("execute mode offers the write, command and finish tools but not the plan tools", () => {
    expect(toolsForMode("execute").map((t) => t.name)).toEqual([
      "read_file",
      "list_files",
      "search_code",
      "write_file",
      "edit_file",
      "move_file",
      "delete_file",
      "run_command",
      "run_tests",
      "request_grant",
      "update_todos",
      "finish",
      "report_blocked",
    ]);
  });

  test("no tool that mutates the workspace is offered in plan mode", () => {
    expect(toolsForMode("plan").filter((t) => t.mutatesWorkspace || t.risk === "write" || t.risk === "command")).toEqual([]);
  });

  test("every tool has a unique name, a version number and a description", () => {
    expect(new Set(ALL_TOOLS.map((t) => t.name)).size).toBe(ALL_TOOLS.length);
    for (const t of ALL_TOOLS) expect([t.name, /^[1-9]\d*$/.test(t.version), t.description.length > 40]).toEqual([t.name, true, true]);
  });

  test("ALL_TOOLS cannot be edited in place", () => {
    expect(Object.isFrozen(ALL_TOOLS)).toBe(true);
  });

  test("findTool finds by name, undefined otherwise", () => {
    expect(findTool("edit_file")).toBe(editFileTool);
    expect(findTool("rm_rf")).toBeUndefined();
  });

  test("toolSpecs are built once per tool definition: the next step gets the same objects", () => {
    const first = toolSpecs(ALL_TOOLS);
    const again = toolSpecs([...ALL_TOOLS].reverse());
    expect(again).toEqual([...first].reverse());
    first.forEach((spec, i) => expect(again[ALL_TOOLS.length - 1 - i]).toBe(spec));
    // A new definition (an MCP server's changed list) gets its own spec.
    const renamed = { ...readFileTool, name: "read_file_2" };
    expect(toolSpecs([renamed])[0]).toMatchObject({ name: "read_file_2" });
  });

  test("toolSpecs produce JSON Schema without $schema, with the model-facing description", () => {
    const [spec] = toolSpecs([readFileTool]);
    expect(spec).toEqual({
      name: "read_file",
      description: readFileTool.description,
      parameters: {
        type: "object",
        properties: {
          path: { type: "string", minLength: 1, description: "File path relative to the repository root, e.g. `src/index.ts`." },
          start_line: { type: "integer", minimum: 1, maximum: 9007199254740991, description: "First line to return (1-based). Default 1." },
          end_line: {
            type: "integer",
            minimum: 1,
            maximum: 9007199254740991,
            description: "Last line to return, inclusive. Default and at most: one page (300 lines) on from start_line.",
          },
        },
        required: ["path"],
        additionalProperties: false,
      },
    });
  });

  test("every argument of every tool, nested ones included, carries a description", () => {
    for (const spec of toolSpecs(ALL_TOOLS)) {
      for (const [path, prop] of properties(spec.parameters)) {
        expect([spec.name, path, typeof prop.description]).toEqual([spec.name, path, "string"]);
      }
    }
  });

  test("a tool without arguments is an empty closed object", () => {
    const [spec] = toolSpecs([runTestsTool]);
    expect(spec.parameters).toEqual({
      type: "object",
      properties: {},
      additionalProperties: false,
      description: "No arguments: the test command comes from the repository configuration.",
    });
  });

  test("parseToolArguments: valid JSON that fits the schema", () => {
    expect(parseToolArguments(readFileTool, '{"path":"a.ts","start_line":2}')).toEqual({ ok: true, input: { path: "a.ts", start_line: 2 } });
  });

  test("parseToolArguments: empty text means no arguments", () => {
    expect(parseToolArguments(runTestsTool, "")).toEqual({ ok: true, input: {} });
  });

  test("parseToolArguments: bad JSON is invalid_arguments", () => {
    const r = parseToolArguments(readFileTool, '{"path": "a.ts"');
    expect(r.ok ? null : r.error.code).toBe("invalid_arguments");
    expect(r.ok ? null : r.error.message).toMatch(/^arguments are not valid JSON: .+\. Send a JSON object\.$/);
  });

  test("parseToolArguments: schema errors list every issue and ask for a rewrite", () => {
    expect(parseToolArguments(readFileTool, '{"path": 3, "startLine": 2}')).toEqual({
      ok: false,
      error: {
        code: "invalid_arguments",
        message:
          'invalid arguments for read_file: path: Invalid input: expected string, received number; (arguments): Unrecognized key: "startLine". Rewrite the input so it satisfies the schema.',
        details: {
          issues: [
            { path: "path", message: "Invalid input: expected string, received number" },
            { path: "", message: 'Unrecognized key: "startLine"' },
          ],
        },
      },
    });
  });

  test("parseToolArguments: nested paths are named", () => {
    const r = parseToolArguments(editFileTool, '{"path":"a","edits":[{"search":"","replace":"x"}]}');
    expect(r.ok ? null : (r.error.details as { issues: { path: string }[] }).issues.map((i) => i.path)).toEqual(["edits.0.search"]);
  });
});
