import { rmSync } from "node:fs";
import { startFakeOpenAI, type FakeOpenAIServer } from "../fakes/chat/server.js";
import type { FakeStep } from "../fakes/chat/turns.js";
import { BUGGY_ADD_REPO, makeRepo, tempDir, type FixtureEntry } from "./git-fixture.js";

/** What one CLI session under test runs against; `env` points the CLI at all of it. */
export interface CliSession {
  /** The repository the session works on (a realpath). */
  repo: string;
  /** PATCHGATE_DATA_DIR: the session store, the clones, the keys. */
  data: string;
  server: FakeOpenAIServer;
  env: Record<string, string>;
}

/**
 * The set-up the CLI's end-to-end tests share: a git repository and a data directory in temp dirs, the
 * scripted fake model, and the environment for the CLI. Called once in a describe block (or a file):
 * after each test every model started is checked for requests a provider would refuse and closed,
 * and every directory made is removed, whether the test passed or not.
 */
export function cliSessions(): {
  start(steps: FakeStep[], options?: { files?: Record<string, FixtureEntry>; prefix?: string; key?: string }): Promise<CliSession>;
  /** A git repository of `files` alone, for a run that never reaches the model. */
  repo(files?: Record<string, FixtureEntry>): string;
  tempDir(prefix: string): string;
} {
  const servers: FakeOpenAIServer[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    const started = servers.splice(0);
    try {
      expect(started.flatMap((s) => s.violations)).toEqual([]);
    } finally {
      await Promise.all(started.map((s) => s.close()));
      for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
    }
  });
  const temp = (prefix: string) => {
    const dir = tempDir(prefix);
    dirs.push(dir);
    return dir;
  };
  const repo = (files: Record<string, FixtureEntry> = BUGGY_ADD_REPO) => {
    const { dir } = makeRepo(files);
    dirs.push(dir);
    return dir;
  };
  return {
    async start(steps, { files = BUGGY_ADD_REPO, prefix = "pg-cli-", key = "sk-cli-test-key" } = {}) {
      const data = temp(prefix);
      const server = await startFakeOpenAI(steps);
      servers.push(server);
      return {
        repo: repo(files),
        data,
        server,
        env: { OPENAI_API_KEY: key, OPENAI_BASE_URL: server.baseURL, PATCHGATE_DATA_DIR: data, PATCHGATE_MODEL: "fake-model" },
      };
    },
    repo,
    tempDir: temp,
  };
}
