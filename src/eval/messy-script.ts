import type { ScriptStep, ScriptTurn } from "../agent/llm/scripted.js";
import type { Message } from "../session/messages.js";
import type { ScriptAnswer } from "./script-schema.js";
import { readResultText } from "../session/result-read.js";
import { numberedLine, splitNumbered } from "../tools/support/line-numbers.js";

/**
 * A case's script played the way real models answer (`patchgate eval --messy`): the same decisions,
 * sent untidily. The runtime must reach the same outcome, because real providers do all of this:
 * - text beside the tool calls of every answer;
 * - call ids the provider reuses (`call_0` on every turn) and repeats within one turn;
 * - parallel calls (the first read-only answer also reads its last file again);
 * - a malformed call (that first read-only answer is sent once before with a trailing comma);
 * - a call cut off at the output limit (the first write is sent once before, cut mid-JSON, with
 *   finish_reason `length`);
 * - edits copied with read_file's line-number prefixes (every edit_file whose lines the model last
 *   saw in a read of that file).
 */

const READ_TOOLS = new Set(["read_file", "list_files", "search_code"]);
const WRITE_TOOLS = new Set(["write_file", "edit_file"]);

type Call = { name: string; arguments: object | string };
type Answer = Extract<ScriptAnswer, { kind: "answer" }>;

export function messySteps(answers: readonly ScriptAnswer[]): ScriptStep[] {
  const firstRead = answers.findIndex(
    (a) => a.kind === "answer" && a.calls.length > 0 && a.calls.every((c) => READ_TOOLS.has(c.name) && typeof c.arguments === "object"),
  );
  const firstWrite = answers.findIndex((a) => a.kind === "answer" && a.calls.some((c) => WRITE_TOOLS.has(c.name) && typeof c.arguments === "object"));
  return answers.flatMap((a, i): ScriptStep[] => {
    if (a.kind === "error") return [{ error: { status: a.status, message: `scripted provider error ${a.status}` } }];
    const steps: ScriptStep[] = [];
    if (i === firstRead)
      steps.push(
        untidy(
          a,
          a.calls.map((c) => ({ ...c, arguments: trailingComma(c.arguments) })),
        ),
      );
    if (i === firstWrite) {
      const write = a.calls.find((c) => WRITE_TOOLS.has(c.name))!;
      steps.push({ ...untidy(a, [{ ...write, arguments: cutHalfway(write.arguments) }]), finishReason: "length" });
    }
    const calls = i === firstRead ? [...a.calls, a.calls[a.calls.length - 1]] : a.calls;
    steps.push((req) =>
      untidy(
        a,
        calls.map((c) => numberedEdit(c, req.messages)),
      ),
    );
    return steps;
  });
}

/** The answer with text beside its calls, and ids as a careless provider assigns them. */
function untidy(a: Answer, calls: readonly Call[]): ScriptTurn {
  if (calls.length === 0) return { content: a.content, ...(a.usage && { usage: a.usage }) };
  const ids = calls.map((_, j) => `call_${j}`);
  if (ids.length > 1) ids[ids.length - 1] = ids[0];
  return {
    content: a.content ?? `I will call ${calls.map((c) => c.name).join(", ")}.`,
    toolCalls: calls.map((c, j) => ({ name: c.name, arguments: c.arguments, id: ids[j] })),
    ...(a.usage && { usage: a.usage }),
    ...(a.cutAtLimit && { finishReason: "length" }),
  };
}

function trailingComma(args: object | string): string {
  const text = typeof args === "string" ? args : JSON.stringify(args);
  return `${text.slice(0, -1)},}`;
}

function cutHalfway(args: object | string): string {
  const text = typeof args === "string" ? args : JSON.stringify(args);
  return text.slice(0, Math.max(1, Math.floor(text.length / 2)));
}

/** An edit_file call whose search and replace lines carry the numbers the last read of the file showed. */
function numberedEdit(call: Call, history: readonly Message[]): Call {
  if (call.name !== "edit_file" || typeof call.arguments !== "object") return call;
  const args = call.arguments as { path?: unknown; edits?: { search: string; replace: string }[] };
  if (typeof args.path !== "string" || !Array.isArray(args.edits)) return call;
  const shown = lastReadLines(history, args.path);
  if (!shown) return call;
  const edits = args.edits.map((e) => {
    const first = lineOf(shown, e.search);
    return first === null ? e : { search: numbered(e.search, first), replace: numbered(e.replace, first) };
  });
  return { ...call, arguments: { ...args, edits } };
}

function numbered(text: string, first: number): string {
  const lines = text.split("\n");
  const end = lines.at(-1) === "" ? lines.length - 1 : lines.length;
  return lines.map((l, i) => (i < end ? numberedLine(first + i, l) : l)).join("\n");
}

/** Where the whole lines of `search` start among the shown lines, or null. */
function lineOf(shown: Map<number, string>, search: string): number | null {
  const want = search.endsWith("\n") ? search.slice(0, -1).split("\n") : search.split("\n");
  for (const n of shown.keys()) if (want.every((w, k) => shown.get(n + k) === w)) return n;
  return null;
}

/** Line number → text of the last read_file result for `path`, unless a write to it came later. */
function lastReadLines(history: readonly Message[], path: string): Map<number, string> | null {
  const names = new Map<string, { name: string; path: unknown }>();
  for (const m of history) if (m.role === "assistant") for (const c of m.toolCalls) names.set(c.id, { name: c.name, path: pathOf(c.arguments) });
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i];
    const call = m.role === "tool" ? names.get(m.toolCallId) : undefined;
    if (m.role !== "tool" || call?.path !== path) continue;
    if (call.name !== "read_file") return null;
    const data = resultData(m.content);
    if (typeof data?.content !== "string") continue;
    const shown = new Map<number, string>();
    for (const line of data.content.split("\n")) {
      const row = splitNumbered(line);
      if (row) shown.set(row.n, row.text);
    }
    return shown;
  }
  return null;
}

function pathOf(args: string): unknown {
  try {
    return (JSON.parse(args) as { path?: unknown }).path;
  } catch {
    return undefined;
  }
}

/** A tool message's `data`, read back from the text the model was shown. */
function resultData(content: string): { content?: unknown } | null {
  try {
    const r = readResultText(content);
    return r.ok && typeof r.data === "object" && r.data !== null ? (r.data as { content?: unknown }) : null;
  } catch {
    return null;
  }
}
