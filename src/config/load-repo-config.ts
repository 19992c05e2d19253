import { LineCounter, isNode, parseDocument, type Document } from "yaml";
import { z } from "zod";
import { ConfigError } from "./config-error.js";
import { RepoConfigSchema, type RepoConfig } from "./repo-config.js";

export type RepoConfigResult = { ok: true; config: RepoConfig } | { ok: false; error: ConfigError };

/**
 * `.github/patchgate.yml` text (from the default branch) → a validated config. A missing file (null),
 * an empty one, or one holding only comments means "all defaults". Never throws: a broken file is
 * a result the caller turns into a comment naming the field.
 */
export function parseRepoConfig(yamlText: string | null): RepoConfigResult {
  if (yamlText === null) return { ok: true, config: RepoConfigSchema.parse({}) };
  const lines = new LineCounter();
  // uniqueKeys: a duplicated `test:` would otherwise silently keep only the last one.
  const doc = parseDocument(yamlText, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const syntax = doc.errors[0];
  if (syntax) {
    const line = lines.linePos(syntax.pos[0]).line;
    return { ok: false, error: new ConfigError("yaml_syntax", null, syntax.message.split("\n")[0], line) };
  }
  const value: unknown = doc.toJS() ?? {};
  const parsed = RepoConfigSchema.safeParse(value);
  if (parsed.success) return { ok: true, config: parsed.data };
  return { ok: false, error: toConfigError(parsed.error.issues[0], value, doc, lines) };
}

function toConfigError(issue: z.core.$ZodIssue, value: unknown, doc: Document, lines: LineCounter): ConfigError {
  const path = issue.path.map(String);
  if (issue.code === "unrecognized_keys") {
    const fieldPath = [...path, issue.keys[0]];
    const allowed = allowedKeys(path);
    const problem = allowed.length > 0 ? `allowed here: ${allowed.join(", ")}` : "not a setting";
    return new ConfigError("unknown_field", fieldPath.join("."), problem, lineOf(doc, lines, fieldPath));
  }
  const got = valueAt(value, path);
  const what = issue.message.replace(/^Invalid (input|option): /, "").replace(/^Too (small|big): /, "");
  const problem = got === undefined ? `is required: ${what}` : `${what}, got ${JSON.stringify(got)}`;
  return new ConfigError("invalid_value", path.join("."), problem, lineOf(doc, lines, path));
}

function lineOf(doc: Document, lines: LineCounter, path: string[]): number | null {
  const node = path.length === 0 ? doc.contents : doc.getIn(path, true);
  if (!isNode(node) || !node.range) return null;
  return lines.linePos(node.range[0]).line;
}

function valueAt(value: unknown, path: string[]): unknown {
  let at = value;
  for (const key of path) at = at !== null && typeof at === "object" ? (at as Record<string, unknown>)[key] : undefined;
  return at;
}

// The keys the schema accepts at `path`, for the "unknown field" message (typos are the usual cause).
function allowedKeys(path: string[]): string[] {
  let schema: unknown = RepoConfigSchema;
  for (const key of path) {
    const inner = unwrap(schema);
    schema = inner instanceof z.ZodObject ? inner.shape[key] : inner instanceof z.ZodArray && /^\d+$/.test(key) ? inner.element : undefined;
  }
  const obj = unwrap(schema);
  return obj instanceof z.ZodObject ? Object.keys(obj.shape) : [];
}

function unwrap(schema: unknown): unknown {
  return schema instanceof z.ZodDefault || schema instanceof z.ZodOptional || schema instanceof z.ZodNullable ? unwrap(schema.unwrap()) : schema;
}
