import type { ReceiptApproval } from "./predicate-schema.js";

export interface ApproverRules {
  /** Logins that are not people besides every `…[bot]` login: the app's own, a CI account. */
  botLogins?: readonly string[];
  /** The session's requester, when the repository's config says someone else must approve. */
  notRequester?: string | null;
}

/** Ways of approving in which a person saw what they approved and said yes. */
const BY_A_PERSON = new Set<ReceiptApproval["via"]>(["cli", "comment", "review", "label", "check_run"]);

/**
 * Why `approval` is not a person's (other than a bot, the app, and where asked the requester), or
 * null when it is. Allow-listed: a way of approving not named in BY_A_PERSON is not a person's. A
 * flag given in advance (`--approve-plan`) names nobody who saw the plan, so it does not count.
 */
export function approvalProblem(what: string, approval: ReceiptApproval | null, rules: ApproverRules): string | null {
  if (approval === null) return `${what} has no recorded approval`;
  const who = approval.login;
  if (approval.via === "flag") return `${what} was approved in advance by the flag ${who}: nobody saw it before it was approved`;
  if (approval.via === "automation") return `${what} was approved by ${approval.how ?? who}, not by a person`;
  if (!BY_A_PERSON.has(approval.via))
    return `${what} was approved ${approval.via === "auto" ? "automatically" : `by the ${approval.via} runner`} (${who}), not by a person`;
  if (isBot(who, rules.botLogins ?? [])) return `${what} was approved by ${who}, a bot or the app itself`;
  if (rules.notRequester && who.toLowerCase() === rules.notRequester.toLowerCase()) {
    return `${what} was approved by its requester ${who}; the repository's config requires someone else`;
  }
  return null;
}

function isBot(login: string, botLogins: readonly string[]): boolean {
  const l = login.toLowerCase();
  return l.endsWith("[bot]") || botLogins.some((b) => b.toLowerCase() === l);
}
