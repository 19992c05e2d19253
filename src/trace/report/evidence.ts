import type { TestRun } from "../../session/types.js";
import { clip } from "../../safety/markdown.js";
import { bullets, code, heading, strong, type Block, type Inline } from "./doc.js";
import type { SessionView } from "./session-view.js";
import { countsSuffix } from "./test-counts.js";
import { toolchainItems } from "./toolchains.js";
import { instructionsLine } from "../instructions-line.js";
import { baselineItems } from "./baseline-items.js";
import { integrityEvidenceItems } from "./test-integrity.js";
import { duration, pushesToGitHub, shortHash, shortSha, when } from "./words.js";

/**
 * Evidence: the test run that decides, tied to what was pushed. The deciding run is the newest on
 * the tree finish accepted (= the pushed commit's tree); before finish, simply the newest run.
 */
const MAX_OUTPUT_CHARS = 1500;

const verdict = (r: TestRun): string => (r.timedOut ? "timed out" : r.exitCode === 0 ? "passed" : `failed (exit ${r.exitCode})`);

function runPhrase(r: TestRun): Inline[] {
  return [strong(`${r.exitCode === 0 && !r.timedOut ? "✅" : "❌"} ${verdict(r)}${countsSuffix(r.summary)}`), ` in ${duration(r.durationMs)}`];
}

function atOf(v: SessionView, r: TestRun): string {
  const e = v.events.find((x) => x.type === "test_run" && x.treeHash === r.treeHash && x.command === r.command && x.durationMs === r.durationMs);
  return e ? ` at ${when(e.at)}` : "";
}

function decidingLine(v: SessionView): { line: Inline[]; run: TestRun | null } {
  const s = v.state;
  const runs = s.testRuns;
  const tested = s.finishedTree;
  if (tested) {
    const run = runs.filter((r) => r.treeHash === tested).at(-1) ?? null;
    const result: Inline[] = run ? [...runPhrase(run), atOf(v, run)] : ["no run recorded on it"];
    const p = s.published;
    const pushed = pushesToGitHub(v) ? "pushed" : "committed";
    if (!p) return { run, line: ["Finish accepted on tree ", code(shortHash(tested)), ` (not ${pushed} yet): `, ...result] };
    const tree = p.tree;
    const match: Inline[] =
      tree === undefined
        ? [" — the commit's tree was not recorded; finish was accepted on tree ", code(shortHash(tested))]
        : tree === tested
          ? [" — tree ", code(shortHash(tree)), ", the very tree the tests ran on"]
          : [" — ", strong("⚠ its tree "), code(shortHash(tree)), strong(" is not the tested tree "), code(shortHash(tested))];
    return { run, line: [pushesToGitHub(v) ? "On the pushed commit " : "On the commit ", code(shortSha(p.commit)), ...match, ": ", ...result] };
  }
  const last = runs.at(-1);
  if (!last) return { run: null, line: ["No test run yet."] };
  return { run: last, line: ["Latest run, on tree ", code(shortHash(last.treeHash)), ": ", ...runPhrase(last), atOf(v, last)] };
}

/** How the last push reached GitHub: signed through the Git Data API, or with git and why. */
function signingLine(v: SessionView): Inline[] | null {
  const e = [...v.events].reverse().find((x) => x.type === "branch_pushed");
  if (!e || e.type !== "branch_pushed" || e.via === undefined) return null;
  if (e.via === "api") return ["Commit ", code(shortSha(e.commit)), " made through GitHub's Git Data API: signed by GitHub (verified), the app as author."];
  return [strong("⚠ Commit"), " ", code(shortSha(e.commit)), " ", strong("pushed with git, unsigned"), `: ${clip(e.unsigned ?? "", 300)}.`];
}

export function evidenceBlocks(v: SessionView): Block[] {
  const s = v.state;
  const command = s.settings.testCommand ?? s.testRuns.at(-1)?.command;
  const source = s.settings.testCommandSource;
  const items: Inline[][] = [
    command ? ["Test command: ", code(command), ...(source ? [" (from ", code(source), ")"] : [])] : ["Test command: none configured or detected."],
  ];
  items.push(...toolchainItems(v.events));
  if (s.instructions) items.push(["Repository instructions: ", clip(instructionsLine(s.instructions), 400)]);
  items.push(...baselineItems(s));
  const { line, run } = decidingLine(v);
  items.push(line);
  items.push(...integrityEvidenceItems(v));
  const signing = signingLine(v);
  if (signing) items.push(signing);
  if (s.testRuns.length > 1) {
    const failed = s.testRuns.filter((r) => r.exitCode !== 0 || r.timedOut).length;
    items.push([`${s.testRuns.length} test runs in the session: ${s.testRuns.length - failed} passed, ${failed} failed or timed out.`]);
  }
  const blocks: Block[] = [heading(3, "Evidence"), bullets(items)];
  if (run && run.summary.trim()) {
    const out = run.summary.length > MAX_OUTPUT_CHARS ? `…${run.summary.slice(-MAX_OUTPUT_CHARS)}` : run.summary;
    blocks.push({ kind: "code", text: clip(out, MAX_OUTPUT_CHARS + 1) });
  }
  return blocks;
}
