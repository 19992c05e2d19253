import type { SessionState } from "../../session/state.js";
import { clip, inlineCode, oneLine } from "../../safety/markdown.js";
import { inert } from "../../safety/inert.js";
import { shortHash } from "./render.js";

/**
 * The comment that asks a maintainer for a grant: what the agent asks for, why (its own words, made
 * inert), for how long, and who may decide and how. The agent's reason is untrusted text: it is quoted
 * as the agent's, never as Patchgate's.
 */
const WHAT = {
  host: (t: string) => `to let its test runs and commands reach ${inlineCode(t)} (through the egress proxy; nothing else opens)`,
  budget: (t: string) => `to add ${inlineCode(`$${t}`)} to the session's cost budget`,
  time: (t: string) => `to let each test run or command take up to ${inlineCode(`${t} s`)}`,
} as const;

export function grantComment(s: SessionState): string {
  const req = s.grantRequest;
  if (!req) return "";
  const short = shortHash(req.digest);
  const other = (s.repoConfig?.approvals as Record<string, unknown> | undefined)?.grants === "not_requester";
  const requester = s.task.source.requester;
  return [
    `🔓 The agent asks ${WHAT[req.request.kind](clip(oneLine(req.request.target), 253))}, for **this session only** (grant request \`${short}\`).`,
    "",
    `The agent's reason: ${inert(clip(oneLine(req.request.reason), 1000))}`,
    "",
    "### How to decide",
    `Only a person with write access to this repository decides${other && requester ? `, and not @${requester}, who asked for this session (\`approvals.grants: not_requester\`)` : ""}:`,
    `- \`/agent approve\` (or \`/agent approve ${short}\`), an approving pull request review, the label \`agent:grant-approved\`, or **Allow** on the \`Patchgate\` check run grants it until the session ends;`,
    "- `/agent deny <reason>` refuses it; the reason goes back to the agent.",
    "",
    "The next session on this issue starts without it. A repository's own files can never grant it.",
  ].join("\n");
}
