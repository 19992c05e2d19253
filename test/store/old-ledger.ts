import { execFileSync } from "node:child_process";
import type { SessionEvent } from "../../src/session/events.js";
import { approved, created, submitted } from "../helpers/session-events.js";
import { makeRepo } from "../helpers/git-fixture.js";

/**
 * Ledgers as the previous schema version stored them (no chain), for the migration tests: a session
 * that published a real commit of a real repository (its clone), and a short one beside it. Bodies
 * are written as that version wrote them: JSON.stringify, keys in the order the event was built.
 */
interface OldRow {
  sessionId: string;
  seq: number;
  type: string;
  at: string;
  body: string;
}

export interface OldLedgers {
  rows: OldRow[];
  /** The published session's clone, with `patchgate/pub` at the published commit. */
  repo: { dir: string; cleanup: () => void };
  commit: string;
  tree: string;
}

export const PUBLISHED = "s-published";
export const OTHER = "s-other";

export function oldLedgers(): OldLedgers {
  const repo = makeRepo({ "parser.ts": "export const lines = (s: string) => s.split('\\n');\n" }, "pg-ledger-");
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repo.dir, encoding: "utf8" }).trim();
  git("checkout", "-q", "-b", "patchgate/pub");
  const commit = git("rev-parse", "HEAD");
  const tree = git("rev-parse", "HEAD^{tree}");
  const published: SessionEvent[] = [
    created(PUBLISHED),
    { type: "workspace_prepared", baseCommit: commit, workdir: repo.dir },
    submitted(),
    approved(),
    { type: "finish_accepted", summary: "done", treeHash: tree, paths: ["parser.ts"] },
    { type: "published", branch: "patchgate/pub", commit, tree },
  ];
  const other: SessionEvent[] = [created(OTHER), { type: "user_message", content: "one" }, { type: "user_message", content: "two" }];
  const rows = [
    ...published.map((e, seq) => ({ sessionId: PUBLISHED, seq, type: e.type, at: `2026-11-01T10:00:0${seq}.000Z`, body: JSON.stringify(e) })),
    ...other.map((e, seq) => ({ sessionId: OTHER, seq, type: e.type, at: `2026-11-02T10:00:0${seq}.000Z`, body: JSON.stringify(e) })),
  ];
  return { rows, repo, commit, tree };
}
