import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { claimEffect, EffectDecodeError, readEffect, writeEffect, type Effect } from "../../src/store/effect-codec.js";
import { effect } from "../../src/store/effects.js";
import { PostgresSessionStore } from "../../src/store/pg-store.js";
import { SqliteSessionStore } from "../../src/store/sqlite-store.js";
import type { SessionStore } from "../../src/store/types.js";
import { freshDatabase, postgresForTests } from "../helpers/postgres.js";

/**
 * The effect records as the code before the typed codecs wrote them: the first eleven were dumped
 * from a SQLite file those writers filled (CheckRunRecords, SessionIndex, recordStartRequest); the
 * rest are what the other writers built (String(id), a sha, JSON.stringify of the PR ref). Each is
 * put in the store raw, read through its codec, and written back: the bytes must not change.
 */
const A = "a".repeat(40);
const B = "b".repeat(40);
const PLAN = "c".repeat(64);
type Written = [Effect<unknown>, string, unknown];
const WRITTEN: Written[] = [
  [effect.olderIssueOfCheckRun(42, 101), "3", 3],
  [effect.olderIssueOfPull(42, 7), "3", 3],
  [effect.issueOfCheckRun({ installationId: 9, repoId: 42 }, 101), "3", 3],
  [effect.issueOfPull({ installationId: 9, repoId: 42 }, 7), "3", 3],
  [effect.repoLocation(42), '{"owner":"octo","repo":"demo","installationId":9}', { owner: "octo", repo: "demo", installationId: 9 }],
  [
    effect.checkRun("s1", A),
    `{"sha":"${A}","id":101,"url":"https://github.com/o/r/runs/101","movedTo":"${B}"}`,
    { sha: A, id: 101, url: "https://github.com/o/r/runs/101", movedTo: B },
  ],
  [effect.checkRunCreating("s1", A), "1", true],
  [effect.checkRun("s1", B), `{"sha":"${B}","id":102,"url":"https://github.com/o/r/runs/102"}`, { sha: B, id: 102, url: "https://github.com/o/r/runs/102" }],
  [effect.checkRunAnnotated("s1", B), "3", 3],
  [effect.checkRunHead("s1"), B, B],
  [effect.checkRunShas("s1"), `["${A}","${B}"]`, [A, B]],
  [
    effect.startRequest("s1"),
    '{"branch":"patchgate/issue-3","followUp":false,"head":null,"ours":[]}',
    { branch: "patchgate/issue-3", followUp: false, head: null, ours: [] },
  ],
  [
    effect.startRequest("s2"),
    `{"branch":"patchgate/issue-4","followUp":true,"head":"${A}","ours":["${B}"]}`,
    { branch: "patchgate/issue-4", followUp: true, head: A, ours: [B] },
  ],
  [
    effect.pullRequest("s1"),
    '{"number":7,"nodeId":"PR_kwDOAB","url":"https://github.com/octo/demo/pull/7"}',
    { number: 7, nodeId: "PR_kwDOAB", url: "https://github.com/octo/demo/pull/7" },
  ],
  [effect.comment("s1", 3, "done"), "2001", 2001],
  [effect.comment("-", 7, `plan-${PLAN.slice(0, 7)}`), "2002", 2002],
  [effect.reviewReply("s1", 55), "2003", 2003],
  [effect.apiCommit("s1", A), B, B],
  [effect.planOfCommit("s1", A), PLAN, PLAN],
  [effect.planCommit("s1", PLAN), A, A],
  [effect.resultCommit("s1"), A, A],
  [effect.blockedCommit("s1"), B, B],
  [effect.claim(42, "comment:5"), "delivery-1", "delivery-1"],
  [effect.redeliveries("guid-1"), "2", 2],
  // New with this version: nothing older wrote it.
  [effect.lastRedelivery("guid-1"), '{"attempt":90004,"askedAt":1764633600000}', { attempt: 90004, askedAt: 1764633600000 }],
];

/** The keys, spelled out as the earlier writers built them. */
const KEYS = [
  "@github-index check:42:101",
  "@github-index pull:42!7",
  // Since links hold the tenant (installation and repository ids); the two above are still read.
  "@github-index check:i9-r42:101",
  "@github-index pull:i9-r42!7",
  "@github-index where:42",
  `s1 check_run:${A}`,
  `s1 check_run:${A}:creating`,
  `s1 check_run:${B}`,
  `s1 check_run:${B}:annotated`,
  "s1 check_run:head",
  "s1 check_run:shas",
  "s1 start_request",
  "s2 start_request",
  "s1 pull_request",
  "s1 comment:3:done",
  `- comment:7:plan-${PLAN.slice(0, 7)}`,
  "s1 review-reply:55",
  `s1 api-commit:${A}`,
  `s1 plan-commit:${A}`,
  `s1 plan_commit:${PLAN}`,
  "s1 result_commit",
  "s1 blocked_commit",
  "@github-index claim:42:comment:5",
  "@github-index redelivery:guid-1",
  "@github-index redelivery:guid-1:last",
];

test("every effect's key is the one earlier versions wrote", () => {
  expect(WRITTEN.map(([e]) => `${e.owner} ${e.key}`)).toEqual(KEYS);
});

function describeOn(name: string, open: () => Promise<{ store: SessionStore; done: () => Promise<void> }>): void {
  describe(`effect records on ${name}`, () => {
    let store: SessionStore;
    let done: () => Promise<void>;
    beforeEach(async () => {
      ({ store, done } = await open());
    });
    afterEach(() => done());

    test("records written before the codecs decode, and are written back byte for byte", async () => {
      for (const [e, raw] of WRITTEN) await store.putEffect(e.owner, e.key, raw);
      for (const [e, raw, value] of WRITTEN) {
        expect(await readEffect(store, e)).toEqual(value);
        await writeEffect(store, e, value);
        expect(await store.getEffect(e.owner, e.key)).toBe(raw);
      }
    });

    test("a record that does not decode is a typed error naming it, never a silent value", async () => {
      const damaged: [Effect<unknown>, string][] = [
        [effect.pullRequest("s1"), '{"number":"7","nodeId":"x","url":"u"}'],
        [effect.startRequest("s1"), "{not json"],
        [effect.issueOfPull({ installationId: 9, repoId: 42 }, 7), "seven"],
        [effect.checkRunHead("s1"), "main"],
        [effect.checkRunShas("s1"), '{"0":"a"}'],
        [effect.checkRunCreating("s1", A), "yes"],
        [effect.checkRun("s1", A), `{"sha":"${A}","id":1,"url":"u","movedTo":5}`],
      ];
      for (const [e, raw] of damaged) {
        await store.putEffect(e.owner, e.key, raw);
        const err = await readEffect(store, e).catch((x: unknown) => x);
        expect(err).toBeInstanceOf(EffectDecodeError);
        expect(err).toMatchObject({ owner: e.owner, key: e.key, raw });
      }
    });

    test("a claim returns the value that holds, decoded", async () => {
      expect(await claimEffect(store, effect.claim(42, "review:9"), "d1")).toBe("d1");
      expect(await claimEffect(store, effect.claim(42, "review:9"), "d2")).toBe("d1");
    });
  });
}

describeOn("SQLite", async () => {
  const dir = mkdtempSync(join(tmpdir(), "effects-"));
  const store = SqliteSessionStore.open(join(dir, "test.sqlite"));
  return { store, done: async () => (await store.close(), rmSync(dir, { recursive: true, force: true })) };
});

const cluster = postgresForTests("effect records on PostgreSQL");
if (cluster)
  describeOn("PostgreSQL", async () => {
    const db = await freshDatabase(cluster);
    const store = new PostgresSessionStore(db.url, { poolSize: 2 });
    return { store, done: async () => (await store.close(), await db.drop()) };
  });
else test.skip("effect records on PostgreSQL (needs PostgreSQL)", () => undefined);
