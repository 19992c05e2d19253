import { FatalError } from "../errors/index.js";
import { OperatorEnvSchema } from "./operator-env-schema.js";

/** The lines around the generated table in docs/configuration.md. */
const TABLE_START = "<!-- operator-env: generated from src/config/operator-env.ts by `npm run docs:env`; edit it there -->";
const TABLE_END = "<!-- operator-env: end -->";

/** The document has no place for the table (a marker is missing or out of order). */
export class OperatorEnvDocError extends FatalError {
  readonly kind = "operator_env_doc";
}

/** The configuration table, one row per variable of the schema, in its order. */
export function operatorEnvTable(): string {
  const rows = Object.entries(OperatorEnvSchema.shape).map(([name, schema]) => {
    const meta = schema.meta();
    return `| \`${name}\` | ${cell(meta?.description)} | ${cell(meta?.unset)} |`;
  });
  return ["| variable | meaning | default |", "|---|---|---|", ...rows].join("\n");
}

/** A table cell: a `|` in the text would end it early. */
function cell(text: unknown): string {
  return String(text ?? "").replace(/\|/g, "\\|");
}

/** The table as the document has it now (between the markers). */
export function documentedTable(markdown: string, file: string): string {
  const [start, end] = markerPositions(markdown, file);
  return markdown.slice(start + TABLE_START.length, end).trim();
}

/** The document with its table replaced by the one generated from the schema. */
export function withGeneratedTable(markdown: string, file: string): string {
  const [start, end] = markerPositions(markdown, file);
  return `${markdown.slice(0, start + TABLE_START.length)}\n${operatorEnvTable()}\n${markdown.slice(end)}`;
}

function markerPositions(markdown: string, file: string): [number, number] {
  const start = markdown.indexOf(TABLE_START);
  const end = markdown.indexOf(TABLE_END);
  if (start < 0 || end < start)
    throw new OperatorEnvDocError(`${file}: the operator variables' table needs the lines ${TABLE_START} and ${TABLE_END}, in that order`);
  return [start, end];
}
