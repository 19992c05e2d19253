import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { runCommand } from "../../src/cli/run-command.js";
import { UsageError } from "../../src/cli/usage-error.js";
import { cliSessions } from "../helpers/cli-sessions.js";

const NOTICE = /^note: the settings' budgets \(monthly ceilings, daily sessions\) .* do not apply to a local run; this session's own cost limit does/m;

/**
 * The operator's budgets are kept per GitHub installation and repository: a local run has neither, so
 * they do not apply to it, and `patchgate run` says so at its start when the settings set any. It runs
 * here without a model key, so it stops, with a usage error, right after what it said at the start.
 */
describe("patchgate run with budgets in the operator's settings", () => {
  const sessions = cliSessions();

  test.each([
    ["a monthly ceiling", "budgets:\n  per_installation: { monthly_usd: 200 }\n", true],
    ["a ceiling for one repository by id", 'budgets:\n  repositories:\n    "67890": { monthly_tokens: 5000 }\n', true],
    ["a daily session count", "budgets:\n  requester_daily_sessions: 3\n", true],
    ["no budgets", "sandbox:\n  dependency_cache_mb: 0\n", false],
  ])("%s: the start says so only when budgets are set", async (_name, yaml, said) => {
    const repo = sessions.repo();
    const data = sessions.tempDir("pg-budget-notice-");
    const settings = join(data, "settings.yml");
    writeFileSync(settings, yaml);
    const out = new PassThrough();
    let screen = "";
    out.on("data", (b: Buffer) => (screen += b.toString()));
    await expect(runCommand(["--repo", repo, "--data-dir", data, "--settings", settings, "task"], out, { PATCHGATE_DATA_DIR: data })).rejects.toThrow(
      new UsageError("OPENAI_API_KEY is not set. Set it (and OPENAI_BASE_URL for any OpenAI-compatible server) to run a session."),
    );
    expect(NOTICE.test(screen)).toBe(said);
  });
});
