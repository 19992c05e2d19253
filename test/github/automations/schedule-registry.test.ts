import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseRepoConfig } from "../../../src/config/load-repo-config.js";
import { knownSchedules, rememberSchedules } from "../../../src/github/session-work/schedule-registry.js";
import { EffectDecodeError, readEffect } from "../../../src/store/effect-codec.js";
import { effect, SCHEDULED } from "../../../src/store/effects.js";
import { SqliteSessionStore } from "../../../src/store/sqlite-store.js";

/** The store's record of repositories with schedules (one per repository): learnt, replaced, dropped, and a damaged record named. */
const REPO = { id: 42, owner: "octo", repo: "demo", defaultBranch: "main", installationId: 9 };
const OTHER = { ...REPO, id: 43, repo: "other" };

function automations(yaml: string) {
  const r = parseRepoConfig(yaml);
  if (!r.ok) throw new Error("invalid test config");
  return r.config.automations ?? [];
}
const WEEKLY = automations(
  `automations:\n  - name: weekly\n    on: { schedule: { cron: "0 6 * * 1", task: "t", owner: alice } }\n  - name: triage\n    on: { issue_labeled: { label: bug } }\n`,
);

describe("schedule registry", () => {
  let dir: string;
  let store: SqliteSessionStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "pg-schedules-"));
    store = SqliteSessionStore.open(join(dir, "s.sqlite"));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("a repository's schedules are kept with its ids; a config without one drops it; other repositories stay", async () => {
    await Promise.all([
      rememberSchedules(store, REPO, WEEKLY, new Date("2026-03-01T00:00:00Z")),
      rememberSchedules(store, OTHER, WEEKLY, new Date("2026-03-01T00:00:00Z")),
    ]);
    expect((await knownSchedules(store)).map((e) => [e.repoId, e.schedules])).toEqual([
      [42, [{ name: "weekly", cron: "0 6 * * 1" }]],
      [43, [{ name: "weekly", cron: "0 6 * * 1" }]],
    ]);
    await rememberSchedules(store, REPO, [], new Date("2026-03-02T00:00:00Z"));
    expect((await knownSchedules(store)).map((e) => e.repoId)).toEqual([43]);
  });

  test("a schedule counts from when it was first seen, not from when it was seen again", async () => {
    await rememberSchedules(store, REPO, WEEKLY, new Date("2026-03-01T00:00:00Z"));
    await rememberSchedules(store, REPO, WEEKLY, new Date("2026-03-05T00:00:00Z"));
    expect(await readEffect(store, effect.scheduleFired({ installationId: 9, repoId: 42 }, "weekly"))).toBe("2026-03-01T00:00:00.000Z");
  });

  test("the single list an earlier version kept still counts until a repository's own record replaces it; a repository without schedules leaves no record", async () => {
    const older = [{ installationId: 9, repoId: 42, owner: "octo", repo: "demo", defaultBranch: "main", schedules: [{ name: "old", cron: "0 * * * *" }] }];
    await store.putEffect(effect.schedules().owner, effect.schedules().key, JSON.stringify(older));
    expect((await knownSchedules(store)).map((e) => e.schedules[0]?.name)).toEqual(["old"]);
    await rememberSchedules(store, REPO, [], new Date("2026-03-02T00:00:00Z"));
    await rememberSchedules(store, OTHER, [], new Date("2026-03-02T00:00:00Z"));
    expect(await knownSchedules(store)).toEqual([]);
    expect((await store.effectsOf(SCHEDULED)).map((r) => r.key)).toEqual(["i9-r42"]);
  });

  test("a damaged repository record is a typed error naming it", async () => {
    await store.putEffect(SCHEDULED, "i9-r42", '{"repoId":"x"}');
    await expect(knownSchedules(store)).rejects.toThrow(/@schedules/);
  });

  test("a damaged list is a typed error naming the record", async () => {
    await store.putEffect(effect.schedules().owner, effect.schedules().key, '[{"repoId":"x"}]');
    await expect(knownSchedules(store)).rejects.toBeInstanceOf(EffectDecodeError);
  });
});
