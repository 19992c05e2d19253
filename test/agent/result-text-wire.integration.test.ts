import { clientOptions, llmConfigFromEnv } from "../../src/agent/llm/llm-config.js";
import { createOpenAIClient } from "../../src/agent/llm/openai-client.js";
import { vaultFromEnv } from "../../src/agent/llm/reasoning-vault.js";
import { startFakeOpenAI, type FakeOpenAIServer } from "../fakes/chat/server.js";
import { SessionHarness } from "../helpers/session-harness.js";

/**
 * Must show (issue 11): a file with tabs, quotes, backslashes and non-ASCII reaches the provider as
 * text, byte for byte after the line-number mark, not escaped inside JSON; the ledger keeps the
 * structured result; an older result is still capped in later requests.
 */
const LINES = ['\tconst s = "a\\tb";', "  path = 'C:\\\\dir\\\\file' // \"quoted\"", "non-ASCII: é ü ß 漢字 🚀 — “curly”", "\t\tend\t"];
const FILE = `${LINES.join("\n")}\n`;
const BIG = `${Array.from({ length: 250 }, (_, i) => `line ${i + 1} ${"z".repeat(60)}`).join("\n")}\n`;

describe("tool results as text on the wire", () => {
  let server: FakeOpenAIServer | undefined;
  let h: SessionHarness | undefined;
  afterEach(async () => {
    await server?.close();
    await h?.dispose();
  });

  test("the recorded request holds the file's lines unescaped; the ledger the structured result; an older result is capped later", async () => {
    const steps = [
      { toolCalls: [{ name: "read_file", arguments: { path: "src/odd.js" } }] },
      { toolCalls: [{ name: "read_file", arguments: { path: "src/big.txt" } }] },
      { toolCalls: [{ name: "read_file", arguments: { path: "src/missing.js" } }] },
      { toolCalls: [{ name: "submit_plan", arguments: { summary: "look", steps: ["read"] } }] },
    ];
    server = await startFakeOpenAI(steps, { provider: "strict" });
    h = await SessionHarness.create({ "src/odd.js": FILE, "src/big.txt": BIG, ".github/patchgate.yml": "test: node --test\n" });
    const vars = { OPENAI_API_KEY: "sk-test", PATCHGATE_MODEL: "m", OPENAI_BASE_URL: server.baseURL };
    const llm = createOpenAIClient({ ...clientOptions(llmConfigFromEnv(vars), vaultFromEnv(vars, h.dataDir)), sleep: async () => {} });
    expect(await h.resume(llm)).toEqual({ kind: "parked", phase: "awaiting_plan_approval" });
    expect(server.violations).toEqual([]);

    const toolMessages = (n: number) =>
      (server!.requests[n]!.body.messages as { role: string; content: string }[]).filter((m) => m.role === "tool").map((m) => m.content);
    const [odd] = toolMessages(1);
    expect(odd).toBe(
      [
        "ok",
        "path: src/odd.js",
        "note: lines 1–4 of 4 (end of file)",
        "start_line: 1",
        "end_line: 4",
        "total_lines: 4",
        "--- content (4 lines) ---",
        ...LINES.map((l, i) => `${i + 1}│${l}`),
        "--- end of content ---",
      ].join("\n") + odd!.slice(odd!.indexOf("\n\n<runtime-context>")),
    );
    for (const line of LINES) expect(odd).toContain(line);

    // The ledger keeps the result as data, not as the text the model read.
    const recorded = h.ledger.history.find((e) => e.type === "tool_result" && e.tool === "read_file");
    expect(recorded?.type === "tool_result" && recorded.result).toEqual({
      ok: true,
      data: {
        path: "src/odd.js",
        note: "lines 1–4 of 4 (end of file)",
        start_line: 1,
        end_line: 4,
        total_lines: 4,
        content: LINES.map((l, i) => `${i + 1}│${l}`).join("\n"),
      },
    });

    // An error reads as one; the big page, fresh in request 2, is capped as history in request 3.
    const later = toolMessages(3);
    expect(later[2]).toMatch(/^error file_not_found: src\/missing\.js does not exist/);
    expect(toolMessages(2)[1]).toContain("250│line 250");
    expect(later[1]).toMatch(/^ok\npath: src\/big\.txt\n[\s\S]*…\[truncated: \d+ of \d+ bytes omitted\]…[\s\S]*250│line 250 z+\n--- end of content ---$/);
    expect(later[0]).toBe(odd!.slice(0, odd!.indexOf("\n\n<runtime-context>")));
  });
});
