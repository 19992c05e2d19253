import type { SessionState } from "../../session/state.js";
import type { IntegrityFindingRecord } from "../../session/test-integrity.js";
import { clip, codeBlock, inlineCode, oneLine } from "../../safety/markdown.js";
import { inert } from "../../safety/inert.js";
import { shortHash } from "./render.js";

/**
 * The comment that asks for a test_integrity request, apart from any batch of writes: each finding
 * in words and the diff lines that show it, then who may decide and how. Findings quote the
 * agent's files, so messages are made inert and lines fenced; the counts below keep the whole well
 * under GitHub's comment limit (the outbound gate cuts anything that still overflows).
 */
const MAX_FINDINGS = 30;
const MAX_MESSAGE = 500;
const MAX_LINES = 10;
const MAX_LINE = 300;

function findingBlock(f: IntegrityFindingRecord, i: number): string {
  const where = f.path === null ? "the test runs" : inlineCode(clip(oneLine(f.path), 300));
  const head = `**${i + 1}. ${inlineCode(f.detector)}** in ${where}: ${inert(clip(oneLine(f.message), MAX_MESSAGE))}`;
  const lines = f.lines.slice(0, MAX_LINES).map((l) => clip(oneLine(l), MAX_LINE));
  if (f.lines.length > MAX_LINES) lines.push(`… ${f.lines.length - MAX_LINES} more lines`);
  return lines.length === 0 ? head : `${head}\n\n${codeBlock(lines.join("\n"), "diff")}`;
}

export function integrityComment(s: SessionState): string {
  const req = s.integrity;
  if (!req) return "";
  const findings = req.report.findings;
  const short = shortHash(req.digest);
  const more = findings.length > MAX_FINDINGS ? [`… and ${findings.length - MAX_FINDINGS} more findings (the check run lists them).`] : [];
  return [
    `🧪 The tests pass, but the change weakens them. Finish waits for this test_integrity request \`${short}\` (${findings.length === 1 ? "1 finding" : `${findings.length} findings`}):`,
    "",
    ...findings.slice(0, MAX_FINDINGS).flatMap((f, i) => [findingBlock(f, i), ""]),
    ...more,
    "### How to decide",
    "Only a person with write access to this repository decides, and only for exactly these findings:",
    `- \`/agent approve integrity\` (or \`/agent approve integrity ${short}\`), an approving pull request review, or **Approve tests** on the \`Patchgate\` check run publishes the change with them;`,
    "- `/agent deny <reason>` sends them back to the agent with your reason.",
    "",
    "This request is not a batch of writes: the label `agent:writes-approved` does not approve it, and neither does an approval of writes.",
  ].join("\n");
}
