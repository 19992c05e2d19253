import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import formatsModule from "ajv-formats";
import { z } from "zod";

/**
 * An MCP tool's input schema is the server's text: it is checked as JSON Schema before the tool is
 * offered, and then used to check the model's arguments before anything is sent. What cannot be checked
 * — not an object schema, a dialect we do not know, a reference out of the document, absurd size or
 * depth, anything the meta-schema or the compiler rejects — drops the tool (with a ledger event).
 */

const MAX_SCHEMA_BYTES = 64 * 1024;
const MAX_DEPTH = 32;

// CommonJS module whose default export TypeScript sees one level too deep under NodeNext.
type FormatsPlugin = (ajv: Ajv | Ajv2020) => unknown;
const addFormats: FormatsPlugin = (formatsModule as unknown as { default?: FormatsPlugin }).default ?? (formatsModule as unknown as FormatsPlugin);

const DRAFT_07 = /^https?:\/\/json-schema\.org\/draft-07\/schema#?$/;
const DRAFT_2020 = /^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/;

export type SchemaCheck = { ok: true; schema: Record<string, unknown>; validate: ValidateFunction } | { ok: false; reason: string };

function depthOf(node: unknown, depth = 0): number {
  if (depth > MAX_DEPTH || node === null || typeof node !== "object") return depth;
  let max = depth;
  for (const v of Object.values(node)) max = Math.max(max, depthOf(v, depth + 1));
  return max;
}

/** A `$ref` that leaves the document would make the validator fetch, or fail, on someone else's terms. */
function foreignRef(node: unknown, depth = 0): string | null {
  if (depth > MAX_DEPTH || node === null || typeof node !== "object") return null;
  for (const [k, v] of Object.entries(node)) {
    if ((k === "$ref" || k === "$dynamicRef") && (typeof v !== "string" || !v.startsWith("#"))) return String(v);
    const inner = foreignRef(v, depth + 1);
    if (inner !== null) return inner;
  }
  return null;
}

/** A fresh validator per schema: one server's `$id` can never shadow another's. */
function ajvFor(dialect: unknown): Ajv | Ajv2020 | null {
  const opts = { strict: false, allErrors: true, addUsedSchema: false, validateSchema: true } as const;
  let ajv: Ajv | Ajv2020;
  if (dialect === undefined || (typeof dialect === "string" && DRAFT_2020.test(dialect))) ajv = new Ajv2020(opts);
  else if (typeof dialect === "string" && DRAFT_07.test(dialect)) ajv = new Ajv(opts);
  else return null;
  addFormats(ajv);
  return ajv;
}

export function checkInputSchema(schema: unknown): SchemaCheck {
  if (schema === null || typeof schema !== "object" || Array.isArray(schema)) return { ok: false, reason: "the input schema is not a JSON object" };
  const obj = schema as Record<string, unknown>;
  if (obj.type !== "object") return { ok: false, reason: `the input schema's type is ${JSON.stringify(obj.type)}, not "object"` };
  const bytes = Buffer.byteLength(JSON.stringify(obj));
  if (bytes > MAX_SCHEMA_BYTES) return { ok: false, reason: `the input schema is ${bytes} bytes, above the ${MAX_SCHEMA_BYTES}-byte limit` };
  if (depthOf(obj) > MAX_DEPTH) return { ok: false, reason: `the input schema nests deeper than ${MAX_DEPTH} levels` };
  const ref = foreignRef(obj);
  if (ref !== null) return { ok: false, reason: `the input schema refers outside itself ($ref ${JSON.stringify(ref.slice(0, 100))})` };
  const ajv = ajvFor(obj.$schema);
  if (ajv === null)
    return { ok: false, reason: `unsupported JSON Schema dialect ${JSON.stringify(String(obj.$schema).slice(0, 100))} (draft-07 and 2020-12 are)` };
  if (!ajv.validateSchema(obj)) return { ok: false, reason: `not valid JSON Schema: ${ajv.errorsText(ajv.errors, { dataVar: "schema" })}` };
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(obj);
  } catch (e) {
    return { ok: false, reason: `the input schema does not compile: ${(e as Error).message}` };
  }
  const { $schema: _dialect, ...forModel } = obj;
  return { ok: true, schema: forModel, validate };
}

/** `/a/0/b` → ["a", "0", "b"] (JSON Pointer, as ajv reports where an error is). */
function pointerPath(pointer: string): string[] {
  return pointer === ""
    ? []
    : pointer
        .slice(1)
        .split("/")
        .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function message(e: ErrorObject): string {
  if (e.keyword === "additionalProperties") return `${e.message} (${String((e.params as { additionalProperty?: string }).additionalProperty)})`;
  if (e.keyword === "enum") return `${e.message}: ${JSON.stringify((e.params as { allowedValues?: unknown }).allowedValues)}`;
  return e.message ?? "is invalid";
}

/**
 * The zod face of a checked schema, so the call handler validates MCP arguments like any tool's: every
 * ajv error becomes an issue with its path, and the model is told to rewrite the call.
 */
export function argumentsSchema(validate: ValidateFunction) {
  return z
    .custom<Record<string, unknown>>((v) => v !== null && typeof v === "object" && !Array.isArray(v), "expected a JSON object of arguments")
    .superRefine((value, ctx) => {
      if (validate(value)) return;
      for (const e of validate.errors ?? []) ctx.addIssue({ code: "custom", path: pointerPath(e.instancePath), message: message(e) });
    });
}
