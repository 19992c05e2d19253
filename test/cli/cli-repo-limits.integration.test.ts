import type { StoredEvent } from "../../src/session/events.js";
import { sessionHistory } from "../helpers/session-history.js";
import { cliLimits } from "../../src/cli/session-limits.js";
import { parseRepoConfig } from "../../src/config/load-repo-config.js";
import { cliSessions } from "../helpers/cli-sessions.js";
import { BUGGY_ADD_REPO } from "../helpers/git-fixture.js";
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
  const sessions = cliSessions();

  async function run(yaml: string, ...flags: string[]): Promise<{ code: number; events: StoredEvent[]; requests: number }> {
    const { repo, data, server, env } = await sessions.start(FIX, {
      files: { ...BUGGY_ADD_REPO, ".github/patchgate.yml": yaml },
      prefix: "pg-limits-",
      key: "sk-limits-key",
    });
    const r = await cli(["run", "--repo", repo, "--approve-plan", "--approve-writes", ...flags, "Fix add"], env);
    return { code: r.code, events: await sessionHistory(data), requests: server.requests.length };
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
