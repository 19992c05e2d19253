import { rules } from "@secretlint/secretlint-rule-preset-recommend";

/**
 * The rules of secretlint's recommended preset (AWS, npm, Slack, SendGrid, Shopify, Anthropic,
 * Linear, 1Password, GitHub, basic auth, connection strings…), run synchronously on a string.
 *
 * secretlint's own runner (`@secretlint/core`) is asynchronous and file-oriented; redaction runs on
 * every outbound string and must stay synchronous. A rule is a documented creator object:
 * `create(context, options)` returns `{ file(source) }`, which calls `context.report({ range })` for
 * each finding. We give each rule a context of our own and keep every rule whose `file` handler
 * answers synchronously: one that returns a promise (the GCP rule, which reads `.p12` files from
 * disk) is dropped when loaded, and a test pins the list of kept rules. `secretlint-disable`
 * comments are not honoured — model-written text must not be able to switch redaction off.
 */
export interface Finding {
  rule: string;
  start: number;
  end: number;
  /** The values the rule named in its message (the token, key or URL), redacted wherever they occur. */
  values: string[];
}

interface Descriptor {
  range: [number, number];
  message: { data?: Record<string, unknown> };
}
interface RuleContext {
  sharedOptions: Record<string, unknown>;
  createTranslator: () => (messageId: string, data?: Record<string, unknown>) => { message: string; messageId: string; data?: Record<string, unknown> };
  report: (d: Descriptor) => void;
  ignore: () => void;
}
interface Creator {
  meta: { id: string };
  create(context: RuleContext, options: Record<string, unknown>): { file?: (source: unknown) => unknown };
}

/** Rules that are not detectors: the directive filter would let text disable redaction. */
const SKIPPED = new Set(["@secretlint/secretlint-rule-filter-comments"]);
/** The AWS rule finds access key ids (`AKIA…`) only when asked to. */
const OPTIONS: Record<string, Record<string, unknown>> = { "@secretlint/secretlint-rule-aws": { enableIDScanRule: true } };
/** Message fields that name where something was found, not the secret itself. */
const NOT_SECRET = new Set(["FILE_NAME", "typeName"]);

const shortName = (id: string): string => id.replace(/^@secretlint\/secretlint-rule-/, "");

function run(rule: Creator, content: string, found: Finding[]): unknown {
  const context: RuleContext = {
    sharedOptions: {},
    createTranslator: () => (messageId, data) => ({ message: messageId, messageId, data }),
    report: (d) => {
      const values = Object.entries(d.message.data ?? {})
        .filter(([k, v]) => !NOT_SECRET.has(k) && typeof v === "string" && v.length >= 8)
        .map(([, v]) => v as string);
      found.push({ rule: shortName(rule.meta.id), start: d.range[0], end: d.range[1], values });
    },
    ignore: () => {},
  };
  const handler = rule.create(context, OPTIONS[rule.meta.id] ?? {});
  // No file path: the rules that look for `.npmrc` or `package.json` shapes scan every text.
  return handler.file?.({ content, filePath: undefined, ext: "", contentType: "text" });
}

const isThenable = (v: unknown): boolean => typeof (v as { then?: unknown } | null)?.then === "function";

/** The preset's rules that answer synchronously (checked once, on a harmless text). */
const SYNC_RULES: readonly Creator[] = (rules as unknown as Creator[]).filter((r) => {
  if (SKIPPED.has(r.meta.id)) return false;
  const answer = run(r, "patchgate", []);
  if (isThenable(answer)) (answer as Promise<unknown>).catch(() => {});
  return !isThenable(answer);
});

export function secretlintFindings(content: string): Finding[] {
  const found: Finding[] = [];
  for (const rule of SYNC_RULES) run(rule, content, found);
  return found;
}
