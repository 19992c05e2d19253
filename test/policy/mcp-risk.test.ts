import { classifyMcpTool, nameWords } from "../../src/policy/mcp-risk.js";
import type { McpToolFacts } from "../../src/policy/types.js";

const obj = (properties: Record<string, unknown>) => ({ type: "object", properties });
const risk = (t: Partial<McpToolFacts> & { name: string }) => classifyMcpTool({ trust: "untrusted", inputSchema: obj({}), ...t }).risk;

describe("MCP risk classes come from local evidence", () => {
  test.each([
    ["get_status", "read"],
    ["list", "read"],
    ["search-find", "read"],
    ["get_weather", "write"], // a word in no list: nothing shows the tool only reads
    ["listIssues", "write"],
    ["delete_all", "destructive"],
    ["removeUser", "destructive"],
    ["drop.table", "destructive"],
    ["run_query", "destructive"],
    ["exec", "destructive"],
    ["create_ticket", "write"],
    ["updateRecord", "write"],
    ["write", "write"],
    ["send_message", "network"],
    ["post_comment", "network"],
    ["weather", "write"],
    ["___", "write"],
    ["get_or_create", "write"],
    ["list_deleted", "destructive"],
  ])("name %s → %s", (name, expected) => {
    expect(risk({ name })).toBe(expected);
  });

  test("name words split camelCase, snake_case, kebab-case, dots and slashes", () => {
    expect(nameWords("deleteAllFiles")).toEqual(["delete", "all", "files"]);
    expect(nameWords("fs/read.file-now_x")).toEqual(["fs", "read", "file", "now", "x"]);
  });

  test("a description is never evidence: 'safe, read only' on delete_all with a path is destructive", () => {
    const facts = { trust: "untrusted", name: "delete_all", inputSchema: obj({ path: { type: "string" } }), description: "safe, read only" } as McpToolFacts;
    expect(classifyMcpTool(facts)).toEqual({ risk: "destructive", reasons: ['name word "delete": destructive'] });
  });

  test("a path field keeps a read a read, but makes a verb-less tool a write", () => {
    expect(risk({ name: "read", inputSchema: obj({ path: { type: "string" } }) })).toBe("read");
    expect(risk({ name: "project_file", inputSchema: obj({ path: { type: "string" } }) })).toBe("write");
  });

  test("url fields and uri formats make a tool network; command and sql fields make it destructive", () => {
    expect(risk({ name: "get", inputSchema: obj({ url: { type: "string" } }) })).toBe("network");
    expect(risk({ name: "get", inputSchema: obj({ data: { type: "string", format: "uri" } }) })).toBe("network");
    expect(risk({ name: "get_rows", inputSchema: obj({ sql: { type: "string" } }) })).toBe("destructive");
    expect(risk({ name: "helper", inputSchema: obj({ opts: { type: "object", properties: { shellCommand: { type: "string" } } } }) })).toBe("destructive");
    expect(risk({ name: "get", inputSchema: obj({ list: { type: "array", items: obj({ targetPath: { type: "string" } }) } }) })).toBe("read");
  });

  test("readOnlyHint from an untrusted or reviewed server never loosens", () => {
    for (const trust of ["untrusted", "reviewed"] as const) {
      const r = classifyMcpTool({ trust, name: "delete_all", inputSchema: obj({}), annotations: { readOnlyHint: true } });
      expect(r.risk).toBe("destructive");
      expect(r.reasons).toContain(`readOnlyHint ignored: the server is ${trust}, so its hints can only make a tool stricter`);
    }
  });

  test("hints make any server's tool stricter", () => {
    expect(risk({ name: "get", annotations: { destructiveHint: true } })).toBe("destructive");
    expect(risk({ name: "get", annotations: { openWorldHint: true } })).toBe("network");
    expect(risk({ name: "get", annotations: { readOnlyHint: false } })).toBe("write");
    expect(risk({ name: "delete_x", annotations: { readOnlyHint: false, destructiveHint: false } })).toBe("destructive");
  });

  test("a trusted server's hints may loosen when the operator trusts its annotations", () => {
    const trusted = { trust: "trusted", trustAnnotations: true } as const;
    expect(risk({ ...trusted, name: "delete_cache", annotations: { readOnlyHint: true } })).toBe("read");
    expect(risk({ ...trusted, name: "delete_cache", annotations: { destructiveHint: false } })).toBe("write");
    expect(risk({ ...trusted, name: "get_x", annotations: { readOnlyHint: true, destructiveHint: true } })).toBe("destructive");
    expect(risk({ trust: "trusted", name: "delete_cache", annotations: { readOnlyHint: true } })).toBe("destructive");
  });

  test("a hostile schema (cycles aside, absurd nesting) is walked with a bound, not followed forever", () => {
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 5000; i++) deep = obj({ [`f${i}`]: deep });
    expect(risk({ name: "get", inputSchema: deep })).toBe("read");
    expect(risk({ name: "get", inputSchema: "not a schema" })).toBe("read");
  });
});
