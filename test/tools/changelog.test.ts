import { readFileSync } from "node:fs";
import { join } from "node:path";
import { OWN_SERVER_VERSION } from "../../src/mcp/server/own-server.js";
import { ALL_TOOLS } from "../../src/tools/registry.js";

/** src/tools/CHANGELOG.md is the tool contract a replay checks against: it must name every current version. */
const rows = readFileSync(join(import.meta.dirname, "../../src/tools/CHANGELOG.md"), "utf8")
  .split("\n")
  .flatMap((line) => {
    const m = /^\| ([a-z_ -]+) \| (\S+) \| /.exec(line);
    return m && m[1] !== "tool" ? [{ tool: m[1], version: m[2] }] : [];
  });
const latest = (tool: string) => rows.filter((r) => r.tool === tool).at(-1)?.version;

test.each(ALL_TOOLS.map((t) => [t.name, t.version]))("%s: version %s is the last one in the changelog", (name, version) => {
  expect(latest(name)).toBe(version);
});

test("Patchgate's own MCP server: its version is the last one in the changelog", () => {
  expect(latest("patchgate mcp-server")).toBe(OWN_SERVER_VERSION);
});

test("no built-in tool is named like an MCP tool", () => {
  expect(ALL_TOOLS.filter((t) => t.name.startsWith("mcp__"))).toEqual([]);
});
