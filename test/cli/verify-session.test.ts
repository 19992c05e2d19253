import type { SessionEvent } from "../../src/session/events.js";
import { verifySession } from "../../src/cli/verify-session-command.js";
import { chainOf, type LedgerLink } from "../../src/store/ledger-chain.js";
import { approved, created, submitted } from "../helpers/session-events.js";

/**
 * The checks `patchgate verify --session` makes on a ledger read from the store, with no repository
 * to compare with (the session's clone is not on this machine): the published record against the
 * tree finish was accepted on, a ledger the reducer refuses, a head given from elsewhere.
 */
const TREE = "a".repeat(40);
const COMMIT = "c".repeat(40);

function stored(sessionId: string, events: SessionEvent[]): LedgerLink[] {
  const rows = events.map((event, seq) => ({ seq, at: `2026-12-06T06:00:0${seq}.000Z`, event }));
  return chainOf(sessionId, rows).map((l, i) => ({ ...rows[i]!, prev: l.prev, hash: l.hash }));
}

const published = (tree: string): SessionEvent[] => [
  created("s1"),
  { type: "workspace_prepared", baseCommit: "b".repeat(40), workdir: "/nonexistent/patchgate-clone" },
  submitted(),
  approved(),
  { type: "finish_accepted", summary: "done", treeHash: TREE },
  { type: "published", branch: "patchgate/x", commit: COMMIT, tree },
];

test("an intact ledger whose published tree is the accepted one: every check passes, the missing clone is skipped", async () => {
  const links = stored("s1", published(TREE));
  expect(await verifySession("s1", links, {})).toEqual([
    { check: "chain", status: "ok", message: `6 events, every link holds; head ${links[5]!.hash}` },
    { check: "state", status: "ok", message: "folds to phase done" },
    { check: "published", status: "ok", message: `commit ${COMMIT} on patchgate/x, tree ${TREE}` },
    { check: "repository", status: "skip", message: "the session's clone is not on this machine (--repo <dir> compares with another)" },
  ]);
});

test("a published tree that is not the accepted one fails, though the chain holds", async () => {
  const findings = await verifySession("s1", stored("s1", published("d".repeat(40))), {});
  expect(findings[0]).toMatchObject({ check: "chain", status: "ok" });
  expect(findings).toContainEqual({
    check: "published",
    status: "fail",
    message: `commit ${COMMIT} has tree ${"d".repeat(40)}, not the tree finish was accepted on (${TREE})`,
  });
});

test("a ledger the reducer refuses (published before finish) fails the state check", async () => {
  const events = published(TREE).filter((e) => e.type !== "finish_accepted");
  const findings = await verifySession("s1", stored("s1", events), {});
  expect(findings.map((f) => [f.check, f.status])).toEqual([
    ["chain", "ok"],
    ["state", "fail"],
  ]);
  expect(findings[1]!.message).toMatch(/^the reducer refuses the ledger: /);
});

test("--head: the ledger's own head passes, another (an earlier one: the ledger grew, or was cut) fails", async () => {
  const links = stored("s1", published(TREE));
  expect(await verifySession("s1", links, { head: links[5]!.hash! })).toContainEqual({
    check: "head",
    status: "ok",
    message: "the ledger ends at the given head",
  });
  expect(await verifySession("s1", links, { head: links[3]!.hash! })).toContainEqual({
    check: "head",
    status: "fail",
    message: `the given head ${links[3]!.hash} is not the ledger's (${links[5]!.hash})`,
  });
});

test("a session that published nothing has nothing to compare", async () => {
  const findings = await verifySession("s1", stored("s1", [created("s1")]), {});
  expect(findings.at(-1)).toEqual({ check: "published", status: "skip", message: "the session published nothing" });
});
