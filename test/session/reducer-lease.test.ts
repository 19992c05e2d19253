import { fold } from "../../src/session/reducer.js";
import type { SessionEvent } from "../../src/session/events.js";
import { judgeRemote } from "../../src/publish/branch-lease.js";
import { expectIllegal, planning } from "./reducer-helpers.js";

const BRANCH = "patchgate/issue-1";
const claimed: SessionEvent = { type: "branch_claimed", branch: BRANCH, head: null, ours: [] };
const pushed = (commit: string): SessionEvent => ({ type: "branch_pushed", branch: BRANCH, commit, via: "api" });
const intended = (commit: string, branch = BRANCH): SessionEvent => ({ type: "branch_push_intended", branch, commit });

describe("the branch lease", () => {
  test("a commit about to be pushed is one of ours at once; the lease's head moves only when the push is recorded", () => {
    const before = fold([...planning(), claimed, pushed("p"), intended("r")]);
    expect(before.lease).toEqual({ branch: BRANCH, head: "p", ours: ["p", "r"] });
    const after = fold([...planning(), claimed, pushed("p"), intended("r"), pushed("r")]);
    expect(after.lease).toEqual({ branch: BRANCH, head: "r", ours: ["p", "r"] });
  });

  test("a commit intended twice (a publication run again) is listed once", () => {
    expect(fold([...planning(), claimed, intended("p"), intended("p"), pushed("p")]).lease?.ours).toEqual(["p"]);
  });

  test("GitHub's head at a commit a dead holder intended is Patchgate's: replaced, never rebuilt on as someone else's", () => {
    const { ours } = fold([...planning(), claimed, pushed("p"), intended("r")]).lease!;
    expect(judgeRemote(["r"], ours, true)).toBe("replace");
    expect(judgeRemote(["r"], ["p"], true)).toBe("rebuild");
  });

  test("an intent for a branch the session does not hold, or before any claim, is refused", () => {
    expectIllegal([...planning(), claimed], intended("x", "patchgate/issue-2"), "the session's branch is patchgate/issue-1");
    expectIllegal(planning(), intended("x"), "unclaimed");
  });

  test("ledgers from before the intent event fold as they did: ours is what was pushed", () => {
    expect(fold([...planning(), claimed, pushed("p"), pushed("r")]).lease).toEqual({ branch: BRANCH, head: "r", ours: ["p", "r"] });
  });
});
