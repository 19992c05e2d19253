import { strictSchema } from "../../../src/agent/llm/strict-schema.js";
import { parseToolArguments } from "../../../src/tools/define-tool.js";
import { ALL_TOOLS, toolSpecs } from "../../../src/tools/registry.js";
import { checkOpenAIContract } from "../../fakes/chat/wire-contract.js";

describe("strict-compatible tool schemas", () => {
  test("optional properties become required and nullable; objects close; nested objects too", () => {
    const s = strictSchema({
      type: "object",
      properties: {
        path: { type: "string" },
        max: { type: "integer", default: 5 },
        edits: { type: "array", items: { type: "object", properties: { a: { type: "string" } } } },
      },
      required: ["path"],
    });
    expect(s).toEqual({
      type: "object",
      properties: {
        path: { type: "string" },
        max: { type: ["integer", "null"] },
        edits: {
          type: ["array", "null"],
          items: { type: "object", properties: { a: { type: ["string", "null"] } }, required: ["a"], additionalProperties: false },
        },
      },
      required: ["path", "max", "edits"],
      additionalProperties: false,
    });
  });

  test("every real tool's schema passes OpenAI's strict check", () => {
    const tools = toolSpecs(ALL_TOOLS).map((t) => ({
      type: "function",
      function: { name: t.name, description: t.description, parameters: strictSchema(t.parameters), strict: true },
    }));
    expect(checkOpenAIContract({ model: "m", messages: [{ role: "user", content: "x" }], tools })).toBeNull();
  });

  test("without the transform, read_file's optional lines are what strict mode refuses", () => {
    const tools = toolSpecs(ALL_TOOLS).map((t) => ({ type: "function", function: { name: t.name, parameters: t.parameters, strict: true } }));
    expect(checkOpenAIContract({ model: "m", messages: [{ role: "user", content: "x" }], tools })?.message).toMatch(
      /^Invalid schema for function 'read_file': .*Missing 'start_line'\.$/,
    );
  });

  test("the nulls a strict model sends for optional arguments are read as not given", () => {
    const read = ALL_TOOLS.find((t) => t.name === "read_file")!;
    expect(parseToolArguments(read, '{"path":"a.ts","start_line":null,"end_line":null}')).toEqual({ ok: true, input: { path: "a.ts" } });
  });
});
