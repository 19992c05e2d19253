import { execFileSync } from "node:child_process";
import { readBranch } from "../../fakes/git/bare-repo.js";
import { Ledger } from "../../../src/store/ledger.js";
import type { SessionStore } from "../../../src/store/types.js";
import type { Cluster } from "./cluster.js";
import type { Strike } from "./driver.js";
import type { ChaosWorld } from "./world.js";

/** One session's end, as the ledger and GitHub show it, and what is wrong with it (empty: nothing). */
export interface SessionEnd {
  issue: number;
  outcome: string;
  pr: string;
  checkRuns: string;
  comments: string;
  problems: string[];
}

const TERMINAL = ["published", "session_failed", "session_cancelled", "session_blocked"];
const FIXED = "export function add(a, b) {\n  return a + b;\n}\n";

/**
 * Ended exactly once (one terminal event, one accepted finish, one publication; the ledger folds),
 * one PR and it is ready, every check run of the session completed and one per head sha, no bot
 * comment posted twice with the same body, and the branch holds the plan commit and the fix only.
 */
async function sessionEnd(w: ChaosWorld, store: SessionStore, issue: number): Promise<SessionEnd> {
  const problems: string[] = [];
  const sid = w.sessionOf(issue);
  let outcome = "no session";
  if (sid) {
    try {
      const ledger = await Ledger.open(store, sid);
      const count = (t: string) => ledger.history.filter((e) => e.type === t).length;
      outcome = ledger.state.phase;
      const terminal = ledger.history.filter((e) => TERMINAL.includes(e.type)).map((e) => e.type);
      if (ledger.state.phase !== "done") {
        const results = ledger.history.flatMap((e) => (e.type === "tool_result" ? [`${e.tool}:${e.result.ok ? "ok" : e.result.error.code}`] : []));
        problems.push(
          `phase ${ledger.state.phase}${ledger.state.failure ? `: ${ledger.state.failure.message}` : ""} (tool results: ${results.slice(0, 14).join(" ")} … ${results.slice(-4).join(" ")})`,
        );
      }
      if (terminal.length !== 1) problems.push(`terminal events ${JSON.stringify(terminal)}`);
      if (count("finish_accepted") !== 1 || count("published") !== 1)
        problems.push(`finish_accepted ×${count("finish_accepted")}, published ×${count("published")}`);
      outcome += ` (${count("resumed")} resumes)`;
    } catch (e) {
      problems.push(`the ledger does not fold: ${(e as Error).message}`);
    }
  } else problems.push("no session found");
  const pulls = w.github.world.pulls.filter((p) => p.head.ref === w.branch(issue));
  if (pulls.length !== 1 || pulls[0].draft) problems.push(`PRs: ${pulls.map((p) => `#${p.number}${p.draft ? " draft" : ""}`).join(", ") || "none"}`);
  const runs = w.github.world.checkRuns.filter((r) => r.external_id === sid);
  const completed = runs.filter((r) => r.status === "completed");
  if (completed.length !== runs.length) problems.push(`${runs.length - completed.length} check run(s) not completed`);
  if (new Set(completed.map((r) => r.head_sha)).size !== completed.length) problems.push("two completed check runs on one head sha");
  const bodies = w.botComments(issue).map((c) => c.body);
  if (new Set(bodies).size !== bodies.length) problems.push("a bot comment posted twice");
  const branch = readBranch(w.bare, w.branch(issue));
  if (branch?.files["src/add.js"] !== FIXED) problems.push("the branch does not hold the fix");
  else {
    const git = (...args: string[]) => execFileSync("git", ["--git-dir", w.bare, ...args], { encoding: "utf8" }).trim();
    const touched = git("rev-list", `main..${w.branch(issue)}`)
      .split("\n")
      .map((c) => git("diff-tree", "--no-commit-id", "--name-only", "-r", c));
    // Newest first: the fix, on at most one empty plan commit (a plan published again adopts it; a
    // result pushed from a clone rebuilt without it may replace it, being Patchgate's own).
    if (touched.length > 2 || touched[0] !== "src/add.js" || touched.slice(1).some((t) => t !== ""))
      problems.push(`branch commits touch ${JSON.stringify(touched)}`);
  }
  return {
    issue,
    outcome,
    pr: pulls.map((p) => `#${p.number}${p.draft ? " draft" : " ready"}`).join(", ") || "none",
    checkRuns: `${completed.length}/${runs.length} completed, ${new Set(completed.map((r) => r.head_sha)).size} sha(s)`,
    comments: `${bodies.length}, ${new Set(bodies).size === bodies.length ? "none twice" : "REPEATED"}`,
    problems,
  };
}

/** The table the test prints: point → worker killed → outcome → PR → check runs → comments. */
/** Every issue's session end, read from one store connection of the cluster's. */
export async function sessionEnds(w: ChaosWorld, cluster: Pick<Cluster, "openStore">): Promise<Map<number, SessionEnd>> {
  const store = await cluster.openStore();
  const ends = new Map<number, SessionEnd>();
  try {
    for (const n of w.issues) ends.set(n, await sessionEnd(w, store, n));
  } finally {
    await store.close();
  }
  return ends;
}

export function table(strikes: Strike[], ends: Map<number, SessionEnd>): string {
  const rows = [["point", "issue", "killed", "cut with it", "outcome", "PR", "check runs", "bot comments"]];
  for (const s of strikes) {
    const e = s.issues.map((n) => ends.get(n)).filter((x) => x !== undefined);
    const col = (f: (x: SessionEnd) => string) => e.map(f).join("; ") || "-";
    rows.push([
      s.point.name,
      s.issues.map((n) => `#${n}`).join(",") || "-",
      s.killed,
      s.cut.map((n) => `#${n}`).join(",") || "-",
      col((x) => x.outcome),
      col((x) => x.pr),
      col((x) => x.checkRuns),
      col((x) => x.comments),
    ]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  return [line(rows[0]), `|${widths.map((n) => "-".repeat(n + 2)).join("|")}|`, ...rows.slice(1).map(line)].join("\n");
}
