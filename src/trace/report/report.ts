import type { StoredEvent } from "../../session/events.js";
import type { SessionState } from "../../session/state.js";
import { CHECK_RUN_MAX_BYTES, truncateUtf8, utf8Bytes } from "../../safety/byte-limit.js";
import { redact, redactDeep } from "../../safety/redact.js";
import { changeBlocks } from "./change.js";
import { costBlocks } from "./cost.js";
import { code, heading, para, type Block } from "./doc.js";
import { evidenceBlocks } from "./evidence.js";
import { governanceBlocks } from "./governance.js";
import { outcomeBlocks } from "./outcome.js";
import { planBlocks, todoBlocks } from "./plan.js";
import { receiptBlocks } from "./receipt.js";
import { renderMarkdown, type Scrub } from "./render-markdown.js";
import { renderText } from "./render-text.js";
import { buildView, type SessionView } from "./session-view.js";
import { DEFAULT_STEP_LIMITS, stepBlock, type StepLimits } from "./steps.js";
import { when } from "./words.js";

/**
 * The session report: the summary a reviewer reads first and the timeline by step, from the ledger
 * alone. The check run (markdown) and `patchgate show` (text) both render it; each part is at most
 * `maxBytes` (GitHub's 65,535) whatever the session holds.
 */
type ReportFormat = "markdown" | "text";

export interface ReportOptions {
  sessionId: string;
  format: ReportFormat;
  secrets?: readonly string[];
  /** The session's pull request, for the Files-tab link before `published` records it. */
  pullUrl?: string;
  /** Where the deployment's public keys are served, for the receipt's verification line. */
  keysUrl?: string;
  maxBytes?: number;
}

export interface Report {
  summary: string;
  timeline: string;
}

const traceCommand = (id: string): string => `patchgate trace ${id}`;

function summaryBlocks(v: SessionView, opts: Pick<ReportOptions, "sessionId" | "pullUrl" | "keysUrl">): Block[] {
  return [
    ...outcomeBlocks(v),
    ...evidenceBlocks(v),
    ...governanceBlocks(v),
    ...changeBlocks(v, opts.pullUrl),
    ...planBlocks(v),
    ...todoBlocks(v),
    ...costBlocks(v),
    ...receiptBlocks(v, opts.keysUrl),
    para("Session ", code(v.sessionId || opts.sessionId), " · every event: ", code(traceCommand(opts.sessionId))),
  ];
}

// Tighter limits for a step too large to keep whole beside the others.
const SHRINK: StepLimits[] = [DEFAULT_STEP_LIMITS, { maxLines: 10, maxMessageChars: 500 }, { maxLines: 3, maxMessageChars: 120 }];

function renderer(format: ReportFormat, scrub: Scrub): (blocks: Block[]) => string {
  return format === "markdown" ? (b) => renderMarkdown(b, scrub) : (b) => renderText(b, scrub);
}

/**
 * The steps that fit: the start, the first and the last step always whole; then as many of the
 * latest steps as the budget allows; the rest folded into one note naming the command that shows all.
 */
function timelineText(v: SessionView, render: (b: Block[]) => string, budget: number, sessionId: string): string {
  const first = v.events[0];
  const last = v.events.at(-1);
  const modelSteps = v.steps.length - 1;
  const head = render([
    heading(2, "Timeline"),
    para(`${modelSteps} step${modelSteps === 1 ? "" : "s"}${first && last ? `, ${when(first.at)} to ${when(last.at)}` : ""}.`),
  ]);
  const sep = "\n\n";
  const noteFor = (n: number, from: number, to: number) =>
    render([
      para(
        `… ${n} step${n === 1 ? "" : "s"} (${from}–${to}) folded to stay within GitHub's ${CHECK_RUN_MAX_BYTES.toLocaleString("en-US")}-byte limit; `,
        code(traceCommand(sessionId)),
        " prints every event.",
      ),
    ]);
  const worstNote = utf8Bytes(noteFor(v.steps.length, v.steps.length, v.steps.length));
  const perStep = Math.floor((budget - utf8Bytes(head) - worstNote) / 3) - sep.length * 2;
  const rendered = v.steps.map((s) => {
    for (const limits of SHRINK) {
      const text = render([stepBlock(s, v, limits)]);
      if (utf8Bytes(text) <= perStep) return text;
    }
    return render([stepBlock(s, v, SHRINK[SHRINK.length - 1])]);
  });
  const all = [head, ...rendered].join(sep);
  // Three steps always fit (each is at most a third of the budget); the final cut is only a backstop.
  if (utf8Bytes(all) <= budget || rendered.length <= 3) return all;

  const pinned = new Set([0, Math.min(1, rendered.length - 1), rendered.length - 1]);
  let used = utf8Bytes(head) + worstNote + [...pinned].reduce((n, i) => n + utf8Bytes(rendered[i]) + sep.length, sep.length);
  let from = rendered.length - 1; // first kept index of the tail
  while (from - 1 > 1) {
    const size = utf8Bytes(rendered[from - 1]) + sep.length;
    if (used + size > budget) break;
    used += size;
    from -= 1;
  }
  const folded = from - 2;
  const note = folded > 0 ? [noteFor(folded, v.steps[2].index, v.steps[from - 1].index)] : [];
  return [head, ...rendered.slice(0, 2), ...note, ...rendered.slice(from)].join(sep);
}

export function renderReport(state: SessionState, events: readonly StoredEvent[], opts: ReportOptions): Report {
  const secrets = opts.secrets ?? [];
  const max = opts.maxBytes ?? CHECK_RUN_MAX_BYTES;
  const scrub: Scrub = (s) => redact(s, secrets);
  const render = renderer(opts.format, scrub);
  // Redacted before anything is clipped: a cut token or key would no longer match its pattern.
  const view = buildView(redactDeep(state, secrets), redactDeep(events, secrets));
  const cut = (text: string, what: string) =>
    truncateUtf8(redact(text, secrets), max, `\n\n… ${what} truncated — run \`${traceCommand(opts.sessionId)}\` to see all`);
  return {
    summary: cut(render(summaryBlocks(view, opts)), "summary"),
    timeline: cut(timelineText(view, render, max, opts.sessionId), "timeline"),
  };
}
