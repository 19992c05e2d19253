import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadMcpConfig, mcpConfigSecrets, parseMcpConfig, serversFor } from "../../src/mcp/config.js";
import { serverEnvironment } from "../../src/mcp/transport.js";
import { offeredName } from "../../src/mcp/tool-names.js";
import { tempDir } from "../helpers/git-fixture.js";

const parse = (raw: unknown) => parseMcpConfig(raw, "/etc/patchgate/mcp.json");
const error = (raw: unknown) => {
  try {
    parse(raw);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error("parsed");
};

describe("the operator's MCP config", () => {
  test("the usual mcpServers shape, with Patchgate's fields and their defaults", () => {
    const c = parse({
      mcpServers: {
        fs: { command: "npx", args: ["-y", "x"], env: { A: "1" } },
        remote: { type: "http", url: "https://h/mcp", headers: { Authorization: "Bearer t" }, trust: "trusted", allow_tools: ["get_*"] },
      },
    });
    expect(c).toEqual({
      dir: "/etc/patchgate",
      nonInteractive: "ask",
      servers: [
        { name: "fs", command: "npx", args: ["-y", "x"], env: { A: "1" }, trust: "untrusted", allow_tools: [], deny_tools: [], timeout_seconds: 60 },
        {
          name: "remote",
          type: "http",
          url: "https://h/mcp",
          headers: { Authorization: "Bearer t" },
          trust: "trusted",
          allow_tools: ["get_*"],
          deny_tools: [],
          timeout_seconds: 60,
        },
      ],
    });
  });

  test.each([
    [{ mcpServers: { x: { command: "a", trust: "yes" } } }, "`mcpServers.x.trust`"],
    [{ mcpServers: { a__b: { command: "a" } } }, "`mcpServers.a__b`"],
    [{ mcpServers: { "a-very-long-server-name": { command: "a" } } }, "`mcpServers.a-very-long-server-name`"],
    [{ mcpServers: { x: { command: "a", url: "https://h" } } }, "`mcpServers.x`: a server needs either `command` (stdio) or `url` (streamable HTTP), not both"],
    [{ mcpServers: { x: { command: "a", headers: {} } } }, "`mcpServers.x`: unknown field `headers`"],
    [{ mcpServers: { x: {} } }, "`mcpServers.x`: a server needs either"],
    [{ mcpServers: { x: { url: "file:///etc/passwd" } } }, "`mcpServers.x.url`"],
    [{ mcpServers: {}, extra: 1 }, "`(top level)`: unknown field `extra`"],
    [{ mcpServers: {}, mcp_non_interactive: "sometimes" }, "`mcp_non_interactive`"],
    [{}, "`mcpServers`"],
  ])("%j is refused naming %s", (raw, field) => {
    expect(error(raw)).toContain(`MCP config /etc/patchgate/mcp.json: ${field}`);
  });

  test("a file that is not JSON, or not there, is a typed error naming it", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "bad.json"), "{ nope");
    expect(() => loadMcpConfig(join(dir, "bad.json"))).toThrow(/^MCP config .*bad\.json is not valid JSON/);
    expect(() => loadMcpConfig(join(dir, "missing.json"))).toThrow(/^MCP config .*missing\.json cannot be read/);
  });

  test("repositories: globs on owner/name, case-insensitive; absent = every repository", () => {
    const c = parse({
      mcpServers: { all: { command: "a" }, org: { command: "a", repositories: ["octo-org/*"] }, one: { command: "a", repositories: ["other/one"] } },
    });
    expect(serversFor(c, "Octo-Org/calculator").map((s) => s.name)).toEqual(["all", "org"]);
  });

  test("secrets: secret-looking env values and every header token, never plain words", () => {
    const c = parse({
      mcpServers: {
        a: { command: "a", env: { API_TOKEN: "tok-123456789", MODE: "production" } },
        b: { url: "https://h/mcp", headers: { Authorization: "Bearer hdr-abcdef123" } },
      },
    });
    expect(mcpConfigSecrets(c).sort()).toEqual(["Bearer hdr-abcdef123", "hdr-abcdef123", "tok-123456789"]);
  });

  test("a stdio server's environment: PATH and what the operator wrote, nothing else (none of the SDK's defaults)", () => {
    const env = serverEnvironment({ env: { TOKEN: "t", ROOT: "${workspace}/sub" } }, { workspaceRoot: "/ws", configDir: "/etc" }, "/usr/bin");
    expect(env).toEqual({ PATH: "/usr/bin", TOKEN: "t", ROOT: "/ws/sub" });
  });
});

describe("offered names", () => {
  test.each([
    ["fs", "read_file", "mcp__fs__read_file"],
    ["everything", "get-sum", "mcp__everything__get-sum"],
    ["fs", "files/read.all", "mcp__fs__files_read_all_3d46cde9"],
    ["fs", "x".repeat(80), `mcp__fs__${"x".repeat(46)}_2f3ca8a4`],
  ])("%s / %s → %s", (server, tool, name) => {
    const got = offeredName(server, tool);
    expect(got.length).toBeLessThanOrEqual(64);
    expect(got.replace(/_[0-9a-f]{8}$/, "")).toBe(name.replace(/_[0-9a-f]{8}$/, ""));
  });

  test("two names that fold to the same safe form stay apart", () => {
    expect(offeredName("fs", "get.env")).not.toBe(offeredName("fs", "get/env"));
    expect(offeredName("fs", "get.env")).not.toBe(offeredName("fs", "get_env"));
  });
});

describe("trust_annotations", () => {
  test("a trusted server may say its annotations are trusted; absent means not", () => {
    const c = parse({ mcpServers: { a: { command: "a", trust: "trusted", trust_annotations: true }, b: { command: "b", trust: "trusted" } } });
    expect(c.servers.map((s) => [s.name, s.trust_annotations])).toEqual([
      ["a", true],
      ["b", undefined],
    ]);
  });
  test.each([
    [
      { mcpServers: { x: { command: "a", trust_annotations: true } } },
      "`mcpServers.x.trust_annotations`: only a `trusted` server's annotations can be trusted",
    ],
    [{ mcpServers: { x: { url: "https://h/mcp", trust: "reviewed", trust_annotations: true } } }, "`mcpServers.x.trust_annotations`"],
    [{ mcpServers: { x: { command: "a", trust: "trusted", trust_annotations: "yes" } } }, "`mcpServers.x.trust_annotations`"],
  ])("%j is refused naming %s", (raw, field) => {
    expect(error(raw)).toContain(`MCP config /etc/patchgate/mcp.json: ${field}`);
  });
});
