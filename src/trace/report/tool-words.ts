import { clip } from "../../safety/markdown.js";
import { code, type Inline } from "./doc.js";
import type { CallView } from "./session-view.js";
import { countsSuffix } from "./test-counts.js";
import { duration, permission, plural, shortHash } from "./words.js";

/**
 * What each tool call did, in words: a table with one describer per tool. A tool added later (an
 * MCP tool, `report_blocked`) reads as "called `name`" until it gets its own entry here.
 */
type Data = Record<string, unknown>;

interface ToolWords {
  /** The call as a phrase for the step's one-line summary: "read `src/add.js`". */
  act(c: CallView, data: Data | null): Inline[];
  /** Key fields of a successful result for the step's event list: "lines 1–3 of 3". */
  fields?(data: Data): string;
}

const str = (v: unknown): string => (typeof v === "string" ? v : v === undefined || v === null ? "" : JSON.stringify(v));
const arg = (c: CallView, key: string): string => (c.args && typeof c.args === "object" ? str((c.args as Data)[key]) : "");
const count = (v: unknown): number => (Array.isArray(v) ? v.length : 0);

function todoCount(todos: unknown): string {
  const done = Array.isArray(todos) ? todos.filter((t) => (t as Data)?.status === "completed").length : 0;
  return `todos ${done}/${count(todos)} done`;
}

function testsAct(data: Data | null): Inline[] {
  if (!data) return ["tests"];
  const summary = str(data.summary);
  if (data.passed === true) return [`tests passed${countsSuffix(summary)}${data.cached ? " (cached)" : ""}`];
  const how = data.timed_out ? "timed out" : `failed (exit ${str(data.exit_code)})`;
  return [`tests ${how}${countsSuffix(summary)}`];
}

const TOOL_WORDS: Record<string, ToolWords> = {
  read_file: {
    act: (c) => ["read ", code(arg(c, "path"))],
    fields: (d) => `lines ${str(d.start_line)}–${str(d.end_line)} of ${str(d.total_lines)}`,
  },
  list_files: { act: (c) => ["listed ", code(arg(c, "path") || ".")], fields: (d) => `${count(d.files)} paths` },
  search_code: {
    act: (c) => ["searched for ", code(arg(c, "query"))],
    fields: (d) => `${count(d.matches)} matches in ${str(d.files_searched)} files`,
  },
  edit_file: { act: (c) => ["edit ", code(arg(c, "path"))], fields: (d) => `${plural(Number(d.edits_applied), "edit")} applied` },
  write_file: { act: (c) => ["write ", code(arg(c, "path"))], fields: (d) => `${d.created ? "created, " : ""}${str(d.bytes)} bytes` },
  delete_file: { act: (c) => ["delete ", code(arg(c, "path"))], fields: (d) => `${str(d.bytes)} bytes` },
  move_file: { act: (c) => ["rename ", code(arg(c, "from")), " → ", code(arg(c, "to"))], fields: (d) => `${str(d.bytes)} bytes` },
  run_command: {
    act: (c) => ["ran ", code(arg(c, "command"))],
    fields: (d) => `exit ${str(d.exit_code)}${d.timed_out ? ", timed out" : ""}`,
  },
  run_tests: {
    act: (_c, d) => testsAct(d),
    fields: (d) => `exit ${str(d.exit_code)} on tree ${shortHash(str(d.tree_hash))}${d.cached ? " (cached)" : ""}`,
  },
  submit_plan: { act: (_c, d) => ["submitted plan ", code(shortHash(str(d?.hash)))], fields: (d) => `plan ${shortHash(str(d.hash))}` },
  update_plan: { act: () => ["updated the draft plan"] },
  update_todos: { act: (c) => [todoCount((c.args as Data | null)?.todos)], fields: (d) => todoCount(d.todos) },
  finish: {
    act: () => ["finish"],
    fields: (d) =>
      `accepted on tree ${shortHash(str(d.tree_hash))}${Array.isArray(d.published_paths) ? `, publishing ${plural(d.published_paths.length, "path")}` : ""}`,
  },
};

const fallback: ToolWords = { act: (c) => ["called ", code(c.tool)] };

const wordsFor = (tool: string): ToolWords => TOOL_WORDS[tool] ?? fallback;

function okData(c: CallView): Data | null {
  const r = c.result?.result;
  return r?.ok && r.data && typeof r.data === "object" ? (r.data as Data) : null;
}

/** Writes and commands: whoever let them run is part of the headline. */
const NEEDS_PERMISSION = new Set(["edit_file", "write_file", "delete_file", "move_file", "run_command"]);

/** The call in the step's one-line summary. */
export function callHeadline(c: CallView): Inline[] {
  const data = okData(c);
  const act = wordsFor(c.tool).act(c, data);
  const r = c.result?.result;
  if (!r) return [...act, " — ", ...(c.batch ? permission(c) : ["no result"])];
  if (!r.ok) return [...act, " — ", ...(c.batch?.verdict?.granted === false ? permission(c) : ["refused ", code(r.error.code)])];
  if (c.tool === "finish") return ["finish accepted"];
  if (NEEDS_PERMISSION.has(c.tool) || c.batch) return [...act, " — ", ...permission(c)];
  return act;
}

const MAX_ERROR_CHARS = 240;

/** The call as one line of the step's event list: subject, verdict, result, time. */
export function callLine(c: CallView): Inline[] {
  const parts: Inline[] = [code(c.tool), " "];
  const subject = c.policy?.subject || ["path", "command", "query"].map((k) => arg(c, k)).find(Boolean);
  if (subject) parts.push(code(subject), " ");
  if (c.policy) parts.push("· ", code(c.policy.rule), ` → ${c.policy.decision} `);
  if (c.batch) parts.push("· ", ...permission(c), " ");
  const r = c.result?.result;
  if (!r) parts.push("· no result yet");
  else if (r.ok) {
    const fields = okData(c) && wordsFor(c.tool).fields ? wordsFor(c.tool).fields!(okData(c)!) : "";
    parts.push(`· ok${fields ? `: ${fields}` : ""}${r.truncated ? " (output truncated)" : ""}`);
  } else parts.push("· ", code(r.error.code), `: ${clip(r.error.message, MAX_ERROR_CHARS)}`);
  if (c.result && c.result.durationMs > 0) parts.push(` · ${duration(c.result.durationMs)}`);
  return parts;
}
