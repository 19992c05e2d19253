import type { ToolResult } from "./types.js";

/**
 * A tool result as the model reads it: text, not JSON. File contents, test output and diffs arrive
 * byte for byte (tabs, quotes, backslashes and non-ASCII as they are, never escaped); the other
 * fields as `name: value` lines in the tool's order (the important ones first). The ledger keeps the
 * structured result; this is only its rendering in the conversation, and result-read.ts reads it back.
 *
 *   ok
 *   path: src/a.js
 *   note: lines 1–300 of 3000; next page: read_file with start_line 301
 *   --- content (300 lines) ---
 *     1│first line
 *   …
 *   --- end of content ---
 *
 *   error edit_without_read: src/a.js depends on lines 2500, which you have not been shown …
 *   details:
 *     path: src/a.js
 *
 * The first line says whether the call worked: `ok`, or `error <code>: <message>`. A block gives its
 * line count, so where it ends is never in doubt, whatever the text inside it says.
 */
export function resultText(result: ToolResult): string {
  const truncated = result.truncated ? " (truncated: the notes below say what was left out)" : "";
  if (result.ok) return [`ok${truncated}`, ...valueLines(result.data, "")].join("\n");
  const { code, message, details } = result.error;
  const head = message.includes("\n") ? [`error ${code}${truncated}`, ...block("", "message", message)] : [`error ${code}: ${message}${truncated}`];
  return [...head, ...(details === undefined ? [] : field("", "details", details))].join("\n");
}

/** A string that reads as another JSON value (`12`, `true`, `"x"`) is quoted, so reading it back gives a string. */
function scalarText(value: unknown): string {
  if (typeof value !== "string") return JSON.stringify(value) ?? "null";
  return readsAsJson(value) ? JSON.stringify(value) : value;
}

/**
 * Only a text whose first non-blank character can start a JSON value is parsed: most are paths and
 * words, and a thrown parse error per field was the bulk of rendering a result.
 */
const JSON_START = /^[\t\n\r ]*["\-0-9tfn{[]/;

function readsAsJson(text: string): boolean {
  if (!JSON_START.test(text)) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isLine = (v: unknown): boolean => (typeof v !== "object" || v === null) && !(typeof v === "string" && v.includes("\n"));

/** Top-level data: an object as fields; a bare text as an `output` block; anything else on one line. */
function valueLines(data: unknown, indent: string): string[] {
  if (data === undefined) return [];
  if (isRecord(data)) return Object.entries(data).flatMap(([k, v]) => field(indent, k, v));
  if (typeof data === "string" && data.includes("\n")) return block(indent, "output", data);
  return [`${indent}${scalarText(data)}`];
}

function field(indent: string, key: string, value: unknown): string[] {
  if (value === undefined) return [];
  if (typeof value === "string" && value.includes("\n")) return block(indent, key, value);
  if (Array.isArray(value)) return [`${indent}${key} (${value.length}):`, ...value.flatMap((v) => item(indent, v))];
  if (isRecord(value)) {
    const inner = valueLines(value, `${indent}  `);
    return inner.length === 0 ? [`${indent}${key}: {}`] : [`${indent}${key}:`, ...inner];
  }
  return [`${indent}${key}: ${scalarText(value)}`];
}

/** One list item a line: paths, matches; an object item's fields indented under its dash. */
function item(indent: string, value: unknown): string[] {
  if (isLine(value)) return [`${indent}- ${scalarText(value)}`];
  if (isRecord(value) && Object.keys(value).length > 0) return [`${indent}-`, ...valueLines(value, `${indent}  `)];
  return [`${indent}- ${JSON.stringify(value)}`];
}

/** A multi-line text between markers naming it and counting its lines; the text itself is not indented. */
function block(indent: string, key: string, text: string): string[] {
  const lines = text.split("\n");
  return [`${indent}--- ${key} (${lines.length} lines) ---`, ...lines, `${indent}--- end of ${key} ---`];
}
