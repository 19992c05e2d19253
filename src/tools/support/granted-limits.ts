import type { RepoConfig } from "../../config/repo-config.js";
import { refusedHostsIn } from "../../sandbox/egress/egress-run.js";
import { grantedHosts, grantedSeconds, type Grant } from "../../session/grants.js";
import type { SessionState } from "../../session/state.js";

/**
 * What a session's test runs and commands may use once a human granted more (session/grants.ts), and
 * the words that tell the model it may ask when a run was refused something a person could allow.
 * The repository's own `sandbox.allow_hosts` never reaches these runs: their network is the grants alone.
 */

/** Each run's time limit: the repository's, or the longest a human granted this session. */
export function runTimeouts(config: Pick<RepoConfig, "timeouts">, grants: readonly Grant[]): { testSeconds: number; commandSeconds: number } {
  const granted = grantedSeconds(grants) ?? 0;
  return { testSeconds: Math.max(config.timeouts.test_seconds, granted), commandSeconds: Math.max(config.timeouts.command_seconds, granted) };
}

/** The hosts this session's test runs and commands may reach: only those a human granted. */
export function runHosts(state: Pick<SessionState, "grants">): string[] {
  return grantedHosts(state.grants);
}

// What a client prints when a run without network tries to reach a host by name.
const OFFLINE_SIGNS = [
  /\bENOTFOUND\b/,
  /\bEAI_AGAIN\b/,
  /Could not resolve host/i,
  /Temporary failure in name resolution/i,
  /Name or service not known/i,
  /getaddrinfo/,
];

/** For a result the model reads: how to ask for what stopped the run, when a person could allow it. */
export function grantHint(res: { stderr: string; stdout: string; timedOut: boolean }, seconds: number): { grant_hint?: string } {
  const refused = refusedHostsIn(res.stderr);
  if (refused.length > 0) {
    return {
      grant_hint: `The egress proxy refused ${refused.join(", ")}. If the task truly needs it, ask a maintainer with request_grant {kind: "host", target: "${refused[0]}", reason}.`,
    };
  }
  if (res.timedOut) {
    return {
      grant_hint: `The run was stopped at its time limit (${seconds} s). If it needs longer, ask a maintainer with request_grant {kind: "time", target: "<seconds>", reason}.`,
    };
  }
  const text = `${res.stdout}\n${res.stderr}`;
  if (OFFLINE_SIGNS.some((re) => re.test(text))) {
    return {
      grant_hint:
        'This run has no network: only hosts a maintainer granted this session are reachable. If the task truly needs a host, ask with request_grant {kind: "host", target: "<host>", reason}.',
    };
  }
  return {};
}
