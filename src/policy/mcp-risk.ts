import type { McpRisk, McpToolFacts, McpTrust } from "./types.js";

/**
 * The risk class of an MCP tool, decided locally (DESIGN §3): from the server's trust, the words of the
 * tool's name, the field names and formats of its input schema, and its annotations. The description is
 * never read — it is the server's own claim, and a server that lies is the case this exists for.
 * Annotations may only make a class stricter, unless the operator marked the server `trusted` and
 * trusts its annotations (`trust_annotations`).
 * Pure: the same facts give the same class and the same reasons.
 */

export interface McpRiskAssessment {
  risk: McpRisk;
  /** Each piece of evidence, in words a maintainer reads in the ledger. */
  reasons: string[];
}

/** How bad a class is; the strictest evidence wins. `unknown` sits above `read`: no evidence is no proof. */
const SEVERITY: Record<McpRisk, number> = { read: 0, unknown: 1, network: 2, write: 3, destructive: 4 };

const stricter = (a: McpRisk, b: McpRisk): McpRisk => (SEVERITY[b] > SEVERITY[a] ? b : a);

/** Word stems by class; a word matches its stem and the usual inflections (delete, deletes, deleted, deleting, deletion). */
const NAME_WORDS: Record<Exclude<McpRisk, "unknown">, string[]> = {
  destructive: [
    "delete",
    "remove",
    "rm",
    "rmdir",
    "unlink",
    "drop",
    "destroy",
    "truncate",
    "purge",
    "wipe",
    "erase",
    "kill",
    "terminate",
    "revoke",
    "reset",
    "uninstall",
    "overwrite",
    "nuke",
    "exec",
    "execute",
    "run",
    "shell",
    "eval",
    "spawn",
    "sudo",
  ],
  write: [
    "write",
    "create",
    "update",
    "set",
    "put",
    "patch",
    "insert",
    "upsert",
    "edit",
    "modify",
    "rename",
    "move",
    "mv",
    "copy",
    "save",
    "add",
    "append",
    "commit",
    "merge",
    "push",
    "publish",
    "deploy",
    "apply",
    "toggle",
    "enable",
    "disable",
    "start",
    "stop",
    "restart",
    "trigger",
    "install",
    "replace",
    "assign",
    "close",
    "lock",
    "unlock",
    "approve",
    "archive",
    "import",
    "register",
    "subscribe",
    "schedule",
    "cancel",
    "mark",
    "change",
    "store",
    "submit",
    "upload",
  ],
  network: [
    "send",
    "post",
    "fetch",
    "http",
    "https",
    "request",
    "email",
    "mail",
    "notify",
    "webhook",
    "tweet",
    "slack",
    "sms",
    "download",
    "browse",
    "navigate",
    "crawl",
    "scrape",
    "curl",
    "wget",
    "ping",
  ],
  read: [
    "get",
    "list",
    "read",
    "search",
    "find",
    "query",
    "show",
    "describe",
    "view",
    "count",
    "lookup",
    "inspect",
    "status",
    "cat",
    "head",
    "diff",
    "stat",
    "info",
    "echo",
    "check",
    "validate",
    "explain",
    "resolve",
  ],
};

/** Input fields by what they give the tool: files to touch, places to reach, programs to run. */
const FIELD_WORDS = {
  files: ["path", "paths", "file", "files", "filename", "filepath", "dir", "directory", "folder", "dest", "destination", "glob"],
  network: ["url", "urls", "uri", "href", "link", "endpoint", "host", "hostname", "domain", "webhook", "email", "recipient", "recipients", "ip"],
  execution: ["command", "cmd", "script", "shell", "exec", "code", "program", "argv", "sql", "statement"],
};

/** JSON Schema `format`s whose values are places on the network. */
const NETWORK_FORMATS = new Set(["uri", "url", "iri", "uri-reference", "iri-reference", "hostname", "idn-hostname", "email", "idn-email", "ipv4", "ipv6"]);

function inflections(stem: string): string[] {
  const base = stem.endsWith("e") ? stem.slice(0, -1) : stem;
  return [stem, `${stem}s`, `${stem}es`, `${base}ed`, `${stem}d`, `${base}ing`, `${base}ion`, `${base}ions`, `${base}er`, `${stem}all`];
}

const WORD_CLASS = new Map<string, Exclude<McpRisk, "unknown">>();
for (const cls of ["read", "network", "write", "destructive"] as const) {
  for (const stem of NAME_WORDS[cls]) for (const w of inflections(stem)) WORD_CLASS.set(w, cls);
}

/** `deleteAll`, `delete_all`, `delete-all`, `files/delete.all` → ["delete", "all"]. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "");
}

/** Every property name and string format of the schema, through nested objects and arrays (bounded). */
function schemaFacts(schema: unknown): { fields: string[]; formats: string[] } {
  const fields: string[] = [];
  const formats: string[] = [];
  const walk = (node: unknown, depth: number): void => {
    if (depth > 12 || node === null || typeof node !== "object") return;
    if (Array.isArray(node)) return node.forEach((n) => walk(n, depth + 1));
    const obj = node as Record<string, unknown>;
    if (typeof obj.format === "string") formats.push(obj.format.toLowerCase());
    if (obj.properties !== null && typeof obj.properties === "object" && !Array.isArray(obj.properties)) {
      for (const [key, sub] of Object.entries(obj.properties)) {
        fields.push(key);
        walk(sub, depth + 1);
      }
    }
    for (const key of ["items", "additionalProperties", "anyOf", "oneOf", "allOf", "prefixItems"]) walk(obj[key], depth + 1);
  };
  walk(schema, 0);
  return { fields, formats };
}

function fieldsIn(fields: string[], words: string[]): string[] {
  return fields.filter((f) => nameWords(f).some((w) => words.includes(w)));
}

/**
 * The class the name's words give. A read needs every word to be a read word: a read word proves
 * nothing about the words beside it (`lookup_and_transfer_owner`), so words in no list, alone or
 * mixed with read words, make a write. Only annotations the operator trusts can say otherwise.
 */
function nameClass(name: string, reasons: string[]): McpRisk {
  const words = nameWords(name);
  if (words.length === 0) {
    reasons.push("no word in the name: write");
    return "write";
  }
  let risk: McpRisk = "read";
  const unlisted: string[] = [];
  for (const word of words) {
    const cls = WORD_CLASS.get(word);
    if (cls === undefined) {
      if (!unlisted.includes(word)) unlisted.push(word);
      continue;
    }
    reasons.push(`name word "${word}": ${cls}`);
    risk = stricter(risk, cls);
  }
  // A listed write, network or destructive word already says more than "not only a read".
  if (unlisted.length > 0 && risk === "read") {
    reasons.push(`words in no list (${unlisted.map((w) => `"${w}"`).join(", ")}): write`);
    risk = "write";
  }
  return risk;
}

export function classifyMcpTool(t: McpToolFacts): McpRiskAssessment {
  const reasons: string[] = [];
  let risk = nameClass(t.name, reasons);
  const { fields, formats } = schemaFacts(t.inputSchema);
  const network = [...fieldsIn(fields, FIELD_WORDS.network), ...formats.filter((f) => NETWORK_FORMATS.has(f)).map((f) => `format ${f}`)];
  if (network.length > 0) {
    reasons.push(`network field ${network.map((f) => `"${f}"`).join(", ")}: network`);
    risk = stricter(risk, "network");
  }
  const execution = fieldsIn(fields, FIELD_WORDS.execution);
  if (execution.length > 0) {
    reasons.push(`execution field ${execution.map((f) => `"${f}"`).join(", ")}: destructive`);
    risk = "destructive";
  }
  return applyAnnotations(t.trust, t.trustAnnotations === true, risk, t.annotations ?? {}, reasons);
}

function applyAnnotations(
  trust: McpTrust,
  trustAnnotations: boolean,
  risk: McpRisk,
  a: NonNullable<McpToolFacts["annotations"]>,
  reasons: string[],
): McpRiskAssessment {
  let out = risk;
  if (a.destructiveHint === true) {
    reasons.push("destructiveHint: destructive");
    out = "destructive";
  }
  if (a.openWorldHint === true && SEVERITY[out] < SEVERITY.network) {
    reasons.push("openWorldHint: network");
    out = "network";
  }
  if (a.readOnlyHint === false && SEVERITY[out] < SEVERITY.write) {
    reasons.push("readOnlyHint false: write");
    out = "write";
  }
  if (trust !== "trusted") {
    if (a.readOnlyHint === true && out !== "read") reasons.push(`readOnlyHint ignored: the server is ${trust}, so its hints can only make a tool stricter`);
    return { risk: out, reasons };
  }
  if (!trustAnnotations) {
    if (a.readOnlyHint === true && out !== "read")
      reasons.push("readOnlyHint ignored: the operator does not trust this server's annotations (trust_annotations)");
    return { risk: out, reasons };
  }
  // The server's own word may loosen the class: the operator vouched for its annotations.
  if (a.readOnlyHint === true && a.destructiveHint !== true && out !== "read") {
    reasons.push("readOnlyHint from a server whose annotations the operator trusts: read");
    out = "read";
  } else if (a.destructiveHint === false && out === "destructive") {
    reasons.push("destructiveHint false from a server whose annotations the operator trusts: write");
    out = "write";
  }
  return { risk: out, reasons };
}
