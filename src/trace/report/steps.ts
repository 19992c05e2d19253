import type { StoredEvent } from "../../session/events.js";
import { sanitizeUntrusted } from "../../safety/sanitize.js";
import { bullets, details, joined, type Block, type Inline } from "./doc.js";
import { eventWords } from "./event-words.js";
import type { CallView, SessionView, StepView } from "./session-view.js";
import { callHeadline, callLine } from "./tool-words.js";
import { clock, when } from "./words.js";

/**
 * The timeline: one collapsed block per step. Its summary says in words what happened; it opens to
 * the model's own message and one line per event, with a tool call's verdict, approval, result and
 * recorded facts folded into the call's single line.
 */
export interface StepLimits {
  maxLines: number;
  maxMessageChars: number;
}

export const DEFAULT_STEP_LIMITS: StepLimits = { maxLines: 30, maxMessageChars: 1500 };
const MAX_MESSAGE_LINES = 20;
const MAX_HEADLINE_PARTS = 4;

/** Facts a call records that earn a line of their own; the rest is already in the call's line. */
const OWN_LINE_FACTS = new Set(["setup_run", "diff_updated", "changes_rolled_back", "command_changed"]);

/** A call's fact worth its own line; a diff recorded again unchanged (finish does) says nothing new. */
function ownLine(e: StoredEvent, v: SessionView): boolean {
  return OWN_LINE_FACTS.has(e.type) && (e.type !== "diff_updated" || v.diffChanges.has(e.seq));
}

function callOf(e: StoredEvent, byId: Map<string, CallView>, factOwner: Map<number, CallView>): CallView | undefined {
  if (e.type === "policy_decided" || e.type === "tool_result") return byId.get(e.callId);
  return factOwner.get(e.seq);
}

function messageLines(step: StepView, maxChars: number): string[] {
  const text = step.events.flatMap((e) => (e.type === "assistant_message" && e.content?.trim() ? [e.content.trim()] : [])).join("\n\n");
  if (!text) return [];
  const clean = sanitizeUntrusted(text, { maxChars });
  const lines = clean.split("\n");
  return lines.length > MAX_MESSAGE_LINES ? [...lines.slice(0, MAX_MESSAGE_LINES), `… ${lines.length - MAX_MESSAGE_LINES} more lines`] : lines;
}

function headline(step: StepView, byId: Map<string, CallView>): Inline[] {
  const parts: Inline[][] = [];
  const seen = new Set<string>();
  for (const e of step.events) {
    const c = e.type === "policy_decided" || e.type === "tool_result" ? byId.get(e.callId) : undefined;
    if (c && !seen.has(c.callId)) {
      seen.add(c.callId);
      parts.push(callHeadline(c));
    }
    const h = eventWords(e).headline;
    if (h) parts.push(h(e as never));
  }
  for (const c of step.calls) if (!seen.has(c.callId)) parts.push(callHeadline(c));
  if (parts.length === 0) return [step.index === 0 ? "before the first model call" : "the model answered without a tool call"];
  const shown = parts.slice(0, MAX_HEADLINE_PARTS);
  const rest = parts.length - shown.length;
  return [...joined(shown, "; "), ...(rest > 0 ? [`; and ${rest} more`] : [])];
}

export function stepBlock(step: StepView, v: SessionView, limits: StepLimits = DEFAULT_STEP_LIMITS): Block {
  const byId = new Map(v.calls.map((c) => [c.callId, c]));
  const factOwner = new Map<number, CallView>();
  for (const c of v.calls) for (const f of c.facts) factOwner.set(f.seq, c);

  const lines: Inline[][] = [];
  const shown = new Set<string>();
  for (const e of step.events) {
    const c = callOf(e, byId, factOwner);
    if (c) {
      // One line per call, where its result is (or its verdict, while it waits), then the facts it
      // recorded that say something new; its other events are in its line.
      const here = c.result ? e.type === "tool_result" : !shown.has(c.callId);
      if (here)
        lines.push(
          [`${clock(e.at)} `, ...callLine(c)],
          ...c.facts.filter((f) => ownLine(f, v)).map((f) => [`${clock(f.at)} `, ...(eventWords(f).line(f as never) ?? [])]),
        );
      shown.add(c.callId);
      continue;
    }
    if (e.type === "diff_updated" && !v.diffChanges.has(e.seq)) continue;
    const line = eventWords(e).line(e as never);
    if (line) lines.push([`${clock(e.at)} `, ...line]);
  }
  const kept =
    lines.length > limits.maxLines ? [...lines.slice(0, limits.maxLines - 1), [`… ${lines.length - limits.maxLines + 1} more events in this step`]] : lines;
  const message = messageLines(step, limits.maxMessageChars);
  const first = step.events[0];
  const label = step.index === 0 ? "Start" : `Step ${step.index}`;
  const body: Block[] = [...(message.length > 0 ? [{ kind: "quote" as const, lines: message }] : []), ...(kept.length > 0 ? [bullets(kept)] : [])];
  return details([`${label}${first ? ` · ${step.index === 0 ? when(first.at) : clock(first.at)}` : ""} · `, ...headline(step, byId)], body);
}
