import { rmSync } from "node:fs";
import { depsFromEnv } from "../../src/github/env-deps.js";
import { tempDir } from "../helpers/git-fixture.js";

describe("production wiring", () => {
  test("log lines are redacted before they leave the process", async () => {
    const dir = tempDir("pg-env-");
    const lines: string[] = [];
    const deps = depsFromEnv((l) => lines.push(l), { PATCHGATE_DATA_DIR: dir, OPENAI_API_KEY: "sk-live-abcdefghijklmnopqrstuvwx", WEBHOOK_SECRET: "hunter2-webhook-secret" });
    try {
      deps.log("push failed for ghs_abcdefghijklmnopqrstuvwxyz0123456789 with key sk-live-abcdefghijklmnopqrstuvwx and hunter2-webhook-secret");
      expect(lines).toHaveLength(1);
      expect(lines[0]).not.toMatch(/ghs_abc|sk-live|hunter2/);
      expect(lines[0]).toContain("[REDACTED:");
    } finally {
      await deps.store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
