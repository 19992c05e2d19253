import { rmSync } from "node:fs";
import type { StoredEvent } from "../../src/session/events.js";
import { sessionHistory } from "../helpers/session-history.js";
import { cliLimits } from "../../src/cli/session-limits.js";
import { parseRepoConfig } from "../../src/config/load-repo-config.js";
import { startFakeOpenAI, type FakeOpenAIServer } from "../fakes/chat/server.js";
import { BUGGY_ADD_REPO, makeRepo, tempDir } from "../helpers/git-fixture.js";
import { cli } from "../helpers/run-cli.js";

const FIX = [
  { toolCalls: [{ name: "read_file", arguments: { path: "src/add.js" } }] },
  { toolCalls: [{ name: "submit_plan", arguments: { summary: "make add add", steps: ["fix the operator"] } }] },
  { toolCalls: [{ name: "edit_file", arguments: { path: "src/add.js", edits: [{ search: "a - b", replace: "a + b" }] } }] },
  { toolCalls: [{ name: "run_tests", arguments: {} }] },
  { toolCalls: [{ name: "finish", arguments: { summary: "add now adds" } }] },
];

const config = (yaml: string) => {
  const r = parseRepoConfig(yaml);
  if (!r.ok) throw r.error;
  return r.config;
};

describe("the CLI's session budget: flags, then .github/patchgate.yml, then defaults", () => {
  test.each([
    ["no limits in the file, no flag", "test: sh test.sh\n", {}, { maxCostUsd: 5 }],
    ["the file's limits", "limits:\n  max_steps: 3\n  max_tokens: 900\n  max_cost_usd: 2\n", {}, { maxSteps: 3, maxTokens: 900, maxCostUsd: 2 }],
    ["the flag over the file", "limits:\n  max_steps: 3\n  max_cost_usd: 2\n", { maxCostUsd: 0.5 }, { maxSteps: 3, maxCostUsd: 0.5 }],
    ["the flag over the default", "", { maxCostUsd: 7 }, { maxCostUsd: 7 }],
  ])("%s", (_name, yaml, flags, want) => expect(cliLimits(config(yaml), flags)).toEqual(want));
});

describe("patchgate run honours the repository's limits", () => {
  let server: FakeOpenAIServer | undefined;
  const cleanups: (() => void)[] = [];
  afterEach(async () => {
    await server?.close();
    for (const c of cleanups.splice(0)) c();
  });

  async function run(yaml: string, ...flags: string[]): Promise<{ code: number; events: StoredEvent[]; requests: number }> {
    const repo = makeRepo({ ...BUGGY_ADD_REPO, ".github/patchgate.yml": yaml });
    const data = tempDir("pg-limits-");
    cleanups.push(repo.cleanup, () => rmSync(data, { recursive: true, force: true }));
    server = await startFakeOpenAI(FIX);
    const env = { OPENAI_API_KEY: "sk-limits-key", OPENAI_BASE_URL: server.baseURL, PATCHGATE_DATA_DIR: data, PATCHGATE_MODEL: "fake-model" };
    const r = await cli(["run", "--repo", repo.dir, "--approve-plan", "--approve-writes", ...flags, "Fix add"], env);
    const requests = server.requests.length;
    await server.close();
    server = undefined;
    return { code: r.code, events: await sessionHistory(data), requests };
  }

  test("max_steps 3 in the file stops the session after 3 model calls; --max-cost-usd still wins for the cost", async () => {
    const { code, events, requests } = await run("test: sh test.sh\nlimits:\n  max_steps: 3\n  max_cost_usd: 2\n", "--max-cost-usd", "0.5");
    expect(code).toBe(1);
    expect(events.find((e) => e.type === "limits_configured")).toMatchObject({
      limits: { maxSteps: 3, maxCostUsd: 0.5 },
      source: ".github/patchgate.yml and --max-cost-usd",
    });
    expect(events.filter((e) => e.type === "llm_called")).toHaveLength(3);
    expect(requests).toBe(3);
    expect(events.at(-1)).toMatchObject({ type: "session_failed", reason: "budget_exceeded" });
  });

  test("without limits in the file the session keeps the defaults and records nothing more", async () => {
    const { code, events } = await run("test: sh test.sh\n");
    expect(code).toBe(0);
    expect(events.some((e) => e.type === "limits_configured")).toBe(false);
    expect(events[0].type === "session_created" && events[0].settings.limits).toEqual({ maxCostUsd: 5 });
  });
});
