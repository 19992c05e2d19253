import { judgeReceipts, MAX_STATUS_DESCRIPTION, type PullCommit, type ReceiptCheck } from "../../../src/github/session-work/receipt-verdict.js";

const APP = "patchgate[bot]";
const sha = (n: number) => String(n).repeat(40).slice(0, 40);
const app = (n: number): PullCommit => ({ sha: sha(n), author: { login: APP, type: "Bot" } });
const human = (n: number, login = "mona"): PullCommit => ({ sha: sha(n), author: { login, type: "User" } });
const valid: ReceiptCheck = { kind: "valid" };
const none: ReceiptCheck = { kind: "none" };

describe("judgeReceipts", () => {
  test("every commit receipted: success", () => {
    expect(judgeReceipts([app(1), app(2)], [valid, valid], APP)).toEqual({ state: "success", description: "2 receipted commits, the head among them" });
  });

  test("a maintainer's commit after the receipt: success, counted", () => {
    expect(judgeReceipts([app(1), human(2)], [valid, none], APP)).toEqual({ state: "success", description: "1 human commit after the last receipt" });
    expect(judgeReceipts([app(1), human(2), human(3)], [valid, none, none], APP).description).toBe("2 human commits after the last receipt");
    // Humans before the last receipt do not count.
    expect(judgeReceipts([human(2), app(1)], [none, valid], APP).description).toBe("1 receipted commit, the head among them");
  });

  test("the app's commit without a receipt fails, naming it", () => {
    expect(judgeReceipts([app(1), human(2), app(3)], [valid, none, none], APP)).toEqual({
      state: "failure",
      description: "3333333 by patchgate[bot] has no receipt",
    });
  });

  test("another bot's commit, or one GitHub cannot attribute, is not taken for a human's", () => {
    expect(judgeReceipts([app(1), { sha: sha(4), author: { login: "dependabot[bot]", type: "Bot" } }], [valid, none], APP).state).toBe("failure");
    expect(judgeReceipts([app(1), { sha: sha(4), author: { login: "renovate", type: "Bot" } }], [valid, none], APP).state).toBe("failure");
    expect(judgeReceipts([app(1), { sha: sha(5), author: null }], [valid, none], APP)).toEqual({
      state: "failure",
      description: "5555555 by an unknown author has no receipt",
    });
  });

  test("a receipt that does not verify fails even on a human's commit, with its reason", () => {
    const bad: ReceiptCheck = { kind: "invalid", why: "the tree does not match the receipt" };
    expect(judgeReceipts([human(6), app(7)], [bad, bad], APP)).toEqual({
      state: "failure",
      description: "6666666: the tree does not match the receipt (and 1 more commit)",
    });
  });

  test("the description stays within GitHub's 140 characters", () => {
    const why = "x".repeat(400);
    const v = judgeReceipts([app(1)], [{ kind: "invalid", why }], APP);
    expect([...v.description]).toHaveLength(MAX_STATUS_DESCRIPTION);
    expect(v.description.endsWith("…")).toBe(true);
  });
});
