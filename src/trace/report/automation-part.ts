import { bullets, code, para, strong, type Block, type Inline } from "./doc.js";
import type { SessionView } from "./session-view.js";

/**
 * Which automation started the session, when no `/agent` did: its name, what fired it, the commit of
 * `.github/patchgate.yml` it was read at, and whether it may approve the plan (never the writes).
 */
export function automationGovernance(v: SessionView): Block[] {
  const a = v.state.task.source.automation;
  if (!a) return [];
  const requester = v.state.task.source.requester;
  const item: Inline[] = [
    "Started by automation ",
    code(a.name),
    " (",
    code(a.on),
    ")",
    requester ? ` for @${requester}` : "",
    ", declared in ",
    code(`.github/patchgate.yml@${a.configCommit.slice(0, 7)}`),
    a.lastChangedBy ? `, last changed by @${a.lastChangedBy}` : "",
    ...(a.approvePlan ? ["; it approves the plan (", code("approve_plan: auto"), "), writes wait for a person"] : []),
  ];
  return [para(strong("Trigger")), bullets([item])];
}
