import { join } from "node:path";
import { createSession } from "../../../src/agent/session-service.js";
import type { Repo } from "../../../src/github/inbound/intent.js";
import { SessionIndex } from "../../../src/github/session-work/session-index.js";
import type { TaskInput } from "../../../src/session/types.js";
import { PostgresSessionStore } from "../../../src/store/pg-store.js";
import { SqliteSessionStore } from "../../../src/store/sqlite-store.js";
import type { SessionStore } from "../../../src/store/types.js";
import { tempDir } from "../../helpers/git-fixture.js";
import { freshDatabase, postgresForTests } from "../../helpers/postgres.js";

/**
 * Tenants never share sessions: installation 1's `acme/widgets` (repository 11) has a session for
 * issue #1 stored under a key an older Patchgate wrote — by name (`acme/widgets#1`) or by repository
 * id alone (`repo:11#1`). The name then belongs to mallory's repository 22 of installation 2, or
 * repository 11 itself moves to installation 2. Her issue #1 finds no session, and the record keeps
 * its key; the rightful repository still finds it, re-keyed. On SQLite and on PostgreSQL.
 */
const ours: Repo = { id: 11, owner: "acme", repo: "widgets", defaultBranch: "main", installationId: 1 };
const mallorys: Repo = { id: 22, owner: "acme", repo: "widgets", defaultBranch: "main", installationId: 2 };
const transferred: Repo = { ...ours, installationId: 2, owner: "mallory" };

const cluster = postgresForTests("the session index's tenancy on PostgreSQL");
const kinds: [string, () => Promise<{ store: SessionStore; done: () => Promise<void> }>][] = [
  [
    "SQLite",
    async () => {
      const store = SqliteSessionStore.open(join(tempDir("pg-tenants-"), "s.sqlite"));
      return { store, done: async () => store.close() };
    },
  ],
];
if (cluster)
  kinds.push([
    "PostgreSQL",
    async () => {
      const db = await freshDatabase(cluster);
      const store = new PostgresSessionStore(db.url, { poolSize: 2 });
      return { store, done: async () => (await store.close(), await db.drop()) };
    },
  ]);

describe.each(kinds)("the session index across tenants (%s)", (_, open) => {
  let store: SessionStore;
  let index: SessionIndex;
  let done: () => Promise<void>;
  beforeEach(async () => {
    ({ store, done } = await open());
    index = new SessionIndex(store);
  });
  afterEach(() => done());

  const stored = async (key: string, source: Partial<TaskInput["source"]>) => {
    const ledger = await createSession(store, {
      task: { title: "t", body: "", source: { kind: "github", repo: "acme/widgets", issueNumber: 1, ...source } },
      model: "m",
    });
    await store.setKey(ledger.sessionId, key);
    return ledger.sessionId;
  };
  const keyOf = async (id: string) => (await store.list()).find((s) => s.id === id)?.key;

  test("a session stored by name is found by neither another installation's repository under that name nor a repository of its own installation with another id", async () => {
    const id = await stored("acme/widgets#1", { installationId: 1, repoId: 11 });
    expect(await index.sessionOfIssue(mallorys, 1)).toBeNull();
    expect(await index.sessionOfIssue({ ...mallorys, installationId: 1 }, 1)).toBeNull();
    expect(await keyOf(id)).toBe("acme/widgets#1");
    expect(await index.sessionOfIssue(ours, 1)).toBe(id);
    expect(await index.sessionOfIssue(mallorys, 1)).toBeNull();
  });

  test("a session keyed by repository id alone is not handed to that repository in another installation", async () => {
    const id = await stored("repo:11#1", { installationId: 1, repoId: 11 });
    expect(await index.sessionOfIssue(transferred, 1)).toBeNull();
    expect(await keyOf(id)).toBe("repo:11#1");
    expect(await index.sessionOfIssue(ours, 1)).toBe(id);
    expect(await index.sessionOfIssue(transferred, 1)).toBeNull();
  });

  test("a name-keyed session whose record lacks either id is never re-keyed: it cannot prove whose it is", async () => {
    const noRepo = await stored("acme/widgets#1", { installationId: 1 });
    expect(await index.sessionOfIssue(ours, 1)).toBeNull();
    expect(await index.moved({ ...ours, repo: "gadgets" }, "acme/widgets")).toBe(0);
    expect(await keyOf(noRepo)).toBe("acme/widgets#1");
  });

  test("a pull request or check run linked to an issue leads there only from the installation that linked it", async () => {
    await index.linkPull(ours, 2, 1);
    await index.linkCheckRun(ours, 900, 1);
    expect([await index.issueOfPull(transferred, 2), await index.issueOfCheckRun(transferred, 900)]).toEqual([null, null]);
    expect([await index.issueOfPull(ours, 2), await index.issueOfCheckRun(ours, 900)]).toEqual([1, 1]);
  });

  test("a move recorded for another installation does not send a session there", async () => {
    await index.moved(transferred, "acme/widgets");
    expect(await index.whereIs({ kind: "github", repo: "acme/widgets", installationId: 1, repoId: 11 })).toEqual({
      owner: "acme",
      repo: "widgets",
      installationId: 1,
    });
  });
});
