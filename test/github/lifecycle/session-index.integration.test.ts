import { join } from "node:path";
import { createSession } from "../../../src/agent/session-service.js";
import type { Repo } from "../../../src/github/inbound/intent.js";
import { SessionIndex } from "../../../src/github/session-work/session-index.js";
import type { TaskInput } from "../../../src/session/types.js";
import { SqliteSessionStore } from "../../../src/store/sqlite-store.js";
import { tempDir } from "../../helpers/git-fixture.js";

/**
 * Sessions keyed by repository id; those an older Patchgate keyed by name (`owner/repo#n`) are still
 * found, and re-keyed when GitHub says their repository moved — only their own repository's, within
 * their installation (test/github/lifecycle/session-index-tenants.slow.test.ts: across tenants).
 */
describe("the session index across names", () => {
  let store: SqliteSessionStore;
  let index: SessionIndex;
  const renamed: Repo = { id: 4711, owner: "octo-org", repo: "calculator-v2", defaultBranch: "main", installationId: 77 };
  const legacy = async (key: string, source: Partial<TaskInput["source"]>) => {
    const ledger = await createSession(store, {
      task: { title: "t", body: "", source: { kind: "github", repo: "octo-org/calculator", issueNumber: 1, ...source } },
      model: "m",
    });
    await store.setKey(ledger.sessionId, key);
    return ledger.sessionId;
  };

  beforeEach(() => {
    store = SqliteSessionStore.open(join(tempDir("pg-index-"), "s.sqlite"));
    index = new SessionIndex(store);
  });
  afterEach(() => store.close());

  test("a rename re-keys this installation's name-keyed sessions by id, and records where the repository is", async () => {
    const ours = await legacy("octo-org/calculator#1", { installationId: 77, repoId: 4711 });
    const other = await legacy("octo-org/calculator#2", { installationId: 99, repoId: 4711 });
    const otherRepo = await legacy("octo-org/calculator#3", { installationId: 77, repoId: 5 });
    expect(await index.moved(renamed, "octo-org/calculator")).toBe(1);
    expect(await index.sessionOfIssue(renamed, 1)).toBe(ours);
    expect((await store.list()).find((s) => s.id === other)?.key).toBe("octo-org/calculator#2");
    expect((await store.list()).find((s) => s.id === otherRepo)?.key).toBe("octo-org/calculator#3");
    expect(await index.whereIs({ kind: "github", repo: "octo-org/calculator", repoId: 4711, installationId: 77 })).toEqual({
      owner: "octo-org",
      repo: "calculator-v2",
      installationId: 77,
    });
  });

  test("without a move, a session is where it began; a name-keyed one is found by name and re-keyed by id", async () => {
    const repo: Repo = { ...renamed, repo: "calculator" };
    expect(await index.whereIs({ kind: "github", repo: "octo-org/calculator", repoId: 4711, installationId: 77 })).toEqual({
      owner: "octo-org",
      repo: "calculator",
      installationId: 77,
    });
    const id = await legacy("octo-org/calculator#1", { installationId: 77, repoId: 4711 });
    expect(await index.sessionOfIssue(repo, 1)).toBe(id);
    expect((await store.list())[0].key).toBe("inst:77/repo:4711#1");
    expect(await index.sessionOfIssue(repo, 2)).toBeNull();
  });
});
