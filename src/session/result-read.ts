import type { ToolResult } from "./types.js";

/**
 * A tool message read back into a result: the inverse of result-text.ts, for scripted models (the
 * eval's messy script, the test fakes) that answer from what the model was shown, as a real model
 * does. Strings, numbers, booleans, lists and nested fields come back as they were rendered; a bare
 * multi-line text comes back as a string. The runtime-context block riding on the last tool message
 * is left out. Throws on text that is not a rendered result.
 */
export function readResultText(content: string): ToolResult {
  const at = content.indexOf("\n\n<runtime-context>");
  const lines = (at >= 0 ? content.slice(0, at) : content).split("\n");
  const head = lines[0] ?? "";
  const truncated = head.endsWith(TRUNCATED);
  const first = truncated ? head.slice(0, -TRUNCATED.length) : head;
  const cursor = { lines, i: 1 };
  if (first === "ok") {
    const fields = readFields(cursor, "");
    const only = Object.keys(fields);
    const data = only.length === 1 && only[0] === "output" ? fields.output : only.length === 0 && lines.length > 1 ? scalarOf(lines[1]!) : fields;
    return truncated ? { ok: true, data, truncated } : { ok: true, data };
  }
  const m = /^error (\S+?)(?:: (.*))?$/s.exec(first);
  if (!m) throw new Error(`not a rendered tool result: ${first.slice(0, 80)}`);
  const fields = readFields(cursor, "");
  const message = m[2] ?? (typeof fields.message === "string" ? fields.message : "");
  const error = fields.details === undefined ? { code: m[1]!, message } : { code: m[1]!, message, details: fields.details };
  return truncated ? { ok: false, error, truncated } : { ok: false, error };
}

const TRUNCATED = " (truncated: the notes below say what was left out)";

interface Cursor {
  lines: string[];
  i: number;
}

function scalarOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The fields at `indent`, until a line that is not one of them. */
function readFields(c: Cursor, indent: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  while (c.i < c.lines.length) {
    const line = c.lines[c.i]!;
    if (!line.startsWith(indent) || line.startsWith(`${indent} `)) break;
    const rest = line.slice(indent.length);
    const blockHead = /^--- (\S+) \((\d+) lines\) ---$/.exec(rest);
    if (blockHead) {
      const n = Number(blockHead[2]);
      out[blockHead[1]!] = c.lines.slice(c.i + 1, c.i + 1 + n).join("\n");
      c.i += n + 2; // the lines and the end marker
      continue;
    }
    const list = /^([^\s:]+) \((\d+)\):$/.exec(rest);
    if (list) {
      c.i += 1;
      out[list[1]!] = Array.from({ length: Number(list[2]) }, () => readItem(c, indent));
      continue;
    }
    const nested = /^([^\s:]+):$/.exec(rest);
    if (nested) {
      c.i += 1;
      out[nested[1]!] = readFields(c, `${indent}  `);
      continue;
    }
    const scalar = /^([^\s:]+): (.*)$/s.exec(rest);
    if (!scalar) break;
    out[scalar[1]!] = scalarOf(scalar[2]!);
    c.i += 1;
  }
  return out;
}

function readItem(c: Cursor, indent: string): unknown {
  const line = c.lines[c.i]!.slice(indent.length);
  c.i += 1;
  return line === "-" ? readFields(c, `${indent}  `) : scalarOf(line.slice(2));
}
