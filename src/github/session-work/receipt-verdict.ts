/**
 * The `patchgate/receipt` status of a pull request's head, judged from its commits (base to head,
 * oldest first): pure, no I/O. A commit passes when it carries a receipt this deployment's key signed
 * and that verifies, or when GitHub attributes it to a human account. Everything else fails the
 * status: a receipt that does not verify (whoever made the commit), and a commit without one that the
 * app, another bot, or no known account made. "Human" is an allow-list: an author GitHub resolves to
 * an account of type User that is not the app; an author it cannot resolve is not taken for one.
 */
export const RECEIPT_CONTEXT = "patchgate/receipt";

/** GitHub's limit for a status description. */
export const MAX_STATUS_DESCRIPTION = 140;

/** A commit as GitHub lists it for a pull request: who GitHub says authored it (null: no account). */
export interface PullCommit {
  sha: string;
  author: { login: string; type: string } | null;
}

/** What the receipt of a commit says: none, one that verifies, or one that does not (and why). */
export type ReceiptCheck = { kind: "none" } | { kind: "valid" } | { kind: "invalid"; why: string };

export interface ReceiptVerdict {
  state: "success" | "failure";
  description: string;
}

const isHuman = (a: PullCommit["author"], appLogin: string): boolean => a !== null && a.type === "User" && a.login !== appLogin && !a.login.endsWith("[bot]");

const plural = (n: number, one: string): string => `${n} ${one}${n === 1 ? "" : "s"}`;

function capped(text: string): string {
  const chars = [...text];
  return chars.length <= MAX_STATUS_DESCRIPTION ? text : `${chars.slice(0, MAX_STATUS_DESCRIPTION - 1).join("")}…`;
}

/** `checks` holds one entry per commit of `commits`, in the same order. */
export function judgeReceipts(commits: readonly PullCommit[], checks: readonly ReceiptCheck[], appLogin: string): ReceiptVerdict {
  const failures: string[] = [];
  let humansAfter = 0;
  let receipted = 0;
  commits.forEach((c, i) => {
    const check = checks[i] ?? { kind: "none" };
    const short = c.sha.slice(0, 7);
    if (check.kind === "invalid") failures.push(`${short}: ${check.why}`);
    else if (check.kind === "valid") {
      receipted += 1;
      humansAfter = 0;
    } else if (isHuman(c.author, appLogin)) humansAfter += 1;
    else failures.push(`${short} by ${c.author ? c.author.login : "an unknown author"} has no receipt`);
  });
  if (failures.length > 0) {
    const more = failures.length > 1 ? ` (and ${plural(failures.length - 1, "more commit")})` : "";
    return { state: "failure", description: capped(`${failures[0]}${more}`) };
  }
  if (receipted === 0) return { state: "success", description: capped(`no receipted commit; ${plural(humansAfter, "human commit")}`) };
  if (humansAfter === 0) return { state: "success", description: capped(`${plural(receipted, "receipted commit")}, the head among them`) };
  return { state: "success", description: capped(`${plural(humansAfter, "human commit")} after the last receipt`) };
}
