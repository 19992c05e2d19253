import type { Approver } from "./types.js";

/**
 * What the model may ask a human for when a sandboxed run is refused something a person could allow:
 * a host the egress proxy refused, more of the session's cost budget, a longer time limit per run.
 * Nothing else can be granted, and nothing is granted by the repository's own files.
 */
export const GRANT_KINDS = ["host", "budget", "time"] as const;
type GrantKind = (typeof GRANT_KINDS)[number];

/**
 * One request as recorded. `target`: a `host` or `host:port` (host), US dollars to add to the cost
 * budget (budget), seconds a test run or command may take (time). `scope`: a grant lasts for this
 * session only; the next session starts without it.
 */
export interface GrantRequestRecord {
  kind: GrantKind;
  target: string;
  reason: string;
  scope: "session";
}

/**
 * A request while it waits and once decided: the `request_grant` call stays open until a human's
 * decision bound to `digest` (the request's canonical hash), then is answered with that decision.
 */
export interface GrantRequest {
  callId: string;
  digest: string;
  request: GrantRequestRecord;
  status: "pending" | "approved" | "denied";
  decidedBy?: Approver;
  reason?: string;
}

/** A grant in force for the rest of the session. */
export interface Grant extends GrantRequestRecord {
  digest: string;
  by: Approver;
}

/**
 * Who may approve a grant: a human who was shown the request (comment, review, label, check-run
 * button, terminal). Never a flag given in advance or an automatic approval: nobody saw what it allows.
 */
export const GRANT_APPROVER_VIAS: readonly Approver["via"][] = ["cli", "comment", "review", "label", "check_run", "eval"];

/** Hosts granted to this session, as allow entries (`host` or `host:port`). */
export function grantedHosts(grants: readonly Grant[]): string[] {
  return grants.filter((g) => g.kind === "host").map((g) => g.target);
}

/** US dollars granted on top of the session's cost budget. */
export function grantedUsd(grants: readonly Grant[]): number {
  return grants.filter((g) => g.kind === "budget").reduce((sum, g) => sum + Number(g.target), 0);
}

/** The longest time per run granted, in seconds; null when none was. */
export function grantedSeconds(grants: readonly Grant[]): number | null {
  const times = grants.filter((g) => g.kind === "time").map((g) => Number(g.target));
  return times.length === 0 ? null : Math.max(...times);
}
