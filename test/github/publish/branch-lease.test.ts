import { judgeRemote, nextBranchName, pushUnderLease, type BranchRemote } from "../../../src/publish/branch-lease.js";

/** A remote over a tiny commit graph (child → parents), with a ref that moves only under a matching lease. */
class GraphRemote implements BranchRemote {
  readonly updates: { commit: string; expected: string | null }[] = [];
  constructor(
    private readonly parents: Record<string, string[]>,
    public ref: string | null,
    /** Moves the ref once, just before the first update: someone pushed between our look and our push. */
    private racer: string | null = null,
  ) {}
  private history(c: string): Set<string> {
    const seen = new Set<string>();
    const todo = [c];
    while (todo.length) {
      const x = todo.pop()!;
      if (seen.has(x) || !(x in this.parents)) continue;
      seen.add(x);
      todo.push(...this.parents[x]);
    }
    return seen;
  }
  async head(): Promise<string | null> {
    return this.ref;
  }
  async update(_b: string, commit: string, expected: string | null): Promise<"updated" | "stale"> {
    if (this.racer) [this.ref, this.racer] = [this.racer, null];
    this.updates.push({ commit, expected });
    if (this.ref !== expected) return "stale";
    this.ref = commit;
    return "updated";
  }
  async dropped(head: string, commit: string): Promise<string[]> {
    const keep = this.history(commit);
    return [...this.history(head)].filter((c) => !keep.has(c));
  }
  async contains(commit: string, ancestor: string): Promise<boolean> {
    return this.history(commit).has(ancestor);
  }
}

// main ← P (our plan) ← C (our result); H: a maintainer's commit on P; X: someone's unrelated branch.
const GRAPH = { main: [], P: ["main"], C: ["P"], H: ["P"], X: ["main"], P2: ["main"] };
const lease = (head: string | null, ours: string[]) => ({ branch: "patchgate/issue-1", head, ours });

describe("judgeRemote", () => {
  test.each([
    [[], [], false, "replace"],
    [["P"], ["P"], true, "replace"],
    [["H"], ["P"], true, "rebuild"],
    [["H", "P"], ["P"], true, "rebuild"],
    [["X"], [], false, "taken"],
    [["X"], ["P"], false, "taken"],
  ] as const)("dropping %j with ours %j (ours in head: %s) → %s", (dropped, ours, oursInHead, verdict) => {
    expect(judgeRemote(dropped, ours, oursInHead)).toBe(verdict);
  });
});

describe("pushUnderLease", () => {
  test("a fast-forward from the lease's head is pushed with that head as the expected value", async () => {
    const r = new GraphRemote(GRAPH, "P");
    expect(await pushUnderLease(r, lease("P", ["P"]), "C")).toEqual({ kind: "pushed", commit: "C" });
    expect(r.updates).toEqual([{ commit: "C", expected: "P" }]);
  });

  test("a first push expects no branch", async () => {
    const r = new GraphRemote(GRAPH, null);
    expect(await pushUnderLease(r, lease(null, []), "P")).toEqual({ kind: "pushed", commit: "P" });
    expect(r.updates).toEqual([{ commit: "P", expected: null }]);
  });

  test("a maintainer's commit on top of ours is never dropped: rebuild on it", async () => {
    const r = new GraphRemote(GRAPH, "H");
    expect(await pushUnderLease(r, lease("P", ["P"]), "C")).toEqual({ kind: "foreign", head: "H", foreign: ["H"] });
    expect(r.ref).toBe("H");
  });

  test("a name held by an unrelated branch is taken", async () => {
    const r = new GraphRemote(GRAPH, "X");
    expect(await pushUnderLease(r, lease(null, []), "P")).toEqual({ kind: "taken", head: "X" });
    expect(r.ref).toBe("X");
  });

  test("replacing only Patchgate's own commits (a retry from main) is allowed, under a lease on what was seen", async () => {
    const r = new GraphRemote(GRAPH, "C");
    expect(await pushUnderLease(r, lease("C", ["P", "C"]), "P2")).toEqual({ kind: "pushed", commit: "P2" });
    expect(r.updates).toEqual([{ commit: "P2", expected: "C" }]);
  });

  test("a push that lands between our look and our push is caught by the lease, then judged", async () => {
    const r = new GraphRemote(GRAPH, "P", "H");
    expect(await pushUnderLease(r, lease("P", ["P"]), "C")).toEqual({ kind: "foreign", head: "H", foreign: ["H"] });
    expect(r.updates).toEqual([{ commit: "C", expected: "P" }]);
    expect(r.ref).toBe("H");
  });

  test("suffixes count up from the issue's name", () => {
    expect(nextBranchName("patchgate/issue-1", "patchgate/issue-1")).toBe("patchgate/issue-1-2");
    expect(nextBranchName("patchgate/issue-1-2", "patchgate/issue-1")).toBe("patchgate/issue-1-3");
  });
});
