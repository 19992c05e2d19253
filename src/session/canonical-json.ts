/**
 * JSON with object keys sorted by code unit and no whitespace; everything else as JSON.stringify
 * writes it (undefined members dropped, non-finite numbers null, toJSON honoured). One definition for
 * every hash over a value: the ledger chain, the plan an approval binds to, an MCP tool's contract and
 * arguments, the receipt's policy. So a value gives the same text whether it is the object built here
 * or the one parsed back from a store, in whatever key order the model or a round trip produced.
 */
export function canonicalJson(value: unknown): string {
  const text = encode(value);
  if (text === undefined) throw new TypeError("canonicalJson: the value has no JSON form");
  return text;
}

function encode(value: unknown): string | undefined {
  if (value !== null && typeof value === "object" && typeof (value as { toJSON?: unknown }).toJSON === "function") {
    value = (value as { toJSON: () => unknown }).toJSON();
  }
  if (value === null || typeof value !== "object") {
    // Primitives exactly as JSON.stringify writes them: undefined for undefined and functions, and a
    // throw for BigInt, as the stores' own serialisation does.
    return JSON.stringify(value) as string | undefined;
  }
  if (Array.isArray(value)) return `[${value.map((v) => encode(v) ?? "null").join(",")}]`;
  const members: string[] = [];
  for (const key of Object.keys(value).sort()) {
    const v = encode((value as Record<string, unknown>)[key]);
    if (v !== undefined) members.push(`${JSON.stringify(key)}:${v}`);
  }
  return `{${members.join(",")}}`;
}
