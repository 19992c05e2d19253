/**
 * JSON Schemas for strict function calling (`strict: true`): OpenAI and Azure accept a schema only
 * when every object lists all its properties in `required` and sets `additionalProperties: false`.
 * An optional property becomes required-but-nullable, and the runtime reads a null as "not given"
 * (tools/registry.ts drops nulls before validating), so the tools keep their optional arguments.
 */

type Schema = Record<string, unknown>;

function nullable(s: Schema): Schema {
  const type = s.type;
  if (typeof type === "string") return type === "null" ? s : { ...s, type: [type, "null"] };
  if (Array.isArray(type)) return type.includes("null") ? s : { ...s, type: [...type, "null"] };
  return { anyOf: [s, { type: "null" }] };
}

export function strictSchema(schema: Schema): Schema {
  const out: Schema = { ...schema };
  if (schema.type === "object" || schema.properties !== undefined) {
    const props = (schema.properties ?? {}) as Record<string, Schema>;
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    out.properties = Object.fromEntries(
      Object.entries(props).map(([k, v]) => {
        const inner = strictSchema(v);
        return [k, required.has(k) ? inner : nullable(inner)];
      }),
    );
    out.required = Object.keys(props);
    out.additionalProperties = false;
  }
  if (schema.items && typeof schema.items === "object") out.items = strictSchema(schema.items as Schema);
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    if (Array.isArray(schema[key])) out[key] = (schema[key] as Schema[]).map(strictSchema);
  }
  // A default cannot be honoured when the model must always send a value (null stands for "default").
  delete out.default;
  return out;
}
