import { createHash, randomUUID } from "node:crypto";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ValidateFunction } from "ajv";
import type { RequestValidator } from "./github/github-server.js";
import { pruneTempEntries } from "../helpers/prune-temp.js";

/**
 * GitHub's own OpenAPI description (@octokit/openapi, api.github.com) as the fake GitHub's request
 * check: every JSON body is validated against its operation's schema (types, enums, `maxItems: 50`
 * annotations, `maxLength: 65535` output…). Parsing the 13 MB description costs about a second of
 * CPU, and every test file of the fake GitHub would pay it: what the check needs (each operation's
 * request body and the components those reach) is taken out once and kept in a file beside the
 * system's temporary files, named by the description's version and this module's source. Each
 * operation's schema is compiled on first use.
 */
const require = createRequire(import.meta.url);
// ajv and ajv-formats are CommonJS with `default` exports.
const Ajv = require("ajv").default as typeof import("ajv").default;
const addFormats = require("ajv-formats").default as (ajv: InstanceType<typeof Ajv>) => void;

interface Operation {
  requestBody?: { content?: Record<string, { schema?: unknown }> };
}
interface Spec {
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, Record<string, unknown>>;
}
/** The part of the description the check reads: every path (to match a request to its template), the bodies, their components. */
interface RequestSchemas {
  templates: string[];
  bodies: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
}

const CACHE_PREFIX = "patchgate-openapi-requests-";
let schemas: RequestSchemas | null = null;
let routes: { re: RegExp; template: string }[] = [];
const compiled = new Map<string, ValidateFunction | null>();
const ajv = new Ajv({ strict: false, validateSchema: false, allErrors: true });
addFormats(ajv);
// GitHub's own format: `owner/name` of a repository.
ajv.addFormat("repo.nwo", /^[\w.-]+\/[\w.-]+$/);

function load(): RequestSchemas {
  if (schemas) return schemas;
  schemas = cachedRequestSchemas();
  ajv.addSchema({ $id: "github", components: schemas.components });
  // Literal segments first, so `/check-runs/{id}/annotations` is not taken for a longer template.
  routes = schemas.templates
    .map((template) => ({ template, re: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{[^}]+\\?\}/g, "[^/]+")}$`) }))
    .sort((a, b) => a.template.split("{").length - b.template.split("{").length);
  return schemas;
}

function cachedRequestSchemas(): RequestSchemas {
  const version = (require("@octokit/openapi/package.json") as { version: string }).version;
  const key = createHash("sha256")
    .update(version)
    .update("\0")
    .update(readFileSync(new URL(import.meta.url)))
    .digest("hex")
    .slice(0, 20);
  const file = join(tmpdir(), `${CACHE_PREFIX}${key}.json`);
  try {
    return JSON.parse(readFileSync(file, "utf8")) as RequestSchemas;
  } catch {
    // Not there yet (or cut short by a crash: it is written beside and renamed into place).
  }
  const extracted = requestSchemas(require("@octokit/openapi/generated/api.github.com.json") as Spec);
  const draft = `${file}.draft-${randomUUID()}`;
  writeFileSync(draft, JSON.stringify(extracted));
  renameSync(draft, file);
  // Files of an older description or validator go when a new one is built.
  pruneTempEntries(CACHE_PREFIX, file, 24 * 60 * 60 * 1000);
  return extracted;
}

/** Each operation's JSON request body, and the components reachable from them by `$ref`, with nullables made JSON Schema. */
function requestSchemas(spec: Spec): RequestSchemas {
  const bodies: Record<string, Record<string, unknown>> = {};
  for (const [template, operations] of Object.entries(spec.paths))
    for (const [method, op] of Object.entries(operations)) {
      const schema = op?.requestBody?.content?.["application/json"]?.schema;
      if (schema) (bodies[template] ??= {})[method] = schema;
    }
  const components: Record<string, Record<string, unknown>> = {};
  const reach = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(reach);
    if (typeof node !== "object" || node === null) return;
    for (const [k, v] of Object.entries(node)) {
      const ref = k === "$ref" && typeof v === "string" ? /^#\/components\/([^/]+)\/([^/]+)/.exec(v) : null;
      if (ref && !components[ref[1]]?.[ref[2]]) {
        (components[ref[1]] ??= {})[ref[2]] = spec.components[ref[1]][ref[2]];
        reach(spec.components[ref[1]][ref[2]]);
      } else reach(v);
    }
  };
  reach(bodies);
  return {
    templates: Object.keys(spec.paths),
    bodies: typedNullables(bodies) as RequestSchemas["bodies"],
    components: typedNullables(components) as RequestSchemas["components"],
  };
}

/**
 * OpenAPI 3.0's `nullable` beside no `type` (e.g. an issue's `milestone`: a string, a number or null),
 * which ajv refuses to compile, as the JSON Schema it means: the schema, or null.
 */
function typedNullables(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(typedNullables);
  if (typeof node !== "object" || node === null) return node;
  const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, typedNullables(v)]));
  if (out.nullable !== true || "type" in out) return out;
  delete out.nullable;
  return { anyOf: [out, { type: "null" }] };
}

function validatorFor(method: string, path: string): ValidateFunction | null {
  const s = load();
  const route = routes.find((r) => r.re.test(path));
  const key = `${method} ${route?.template}`;
  if (compiled.has(key)) return compiled.get(key)!;
  const schema = route ? s.bodies[route.template]?.[method.toLowerCase()] : undefined;
  // References point into the description's components, registered above under the id `github`.
  const fn = schema ? ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"github#/components/'))) : null;
  compiled.set(key, fn);
  return fn;
}

/** Problems with a request body, as `path: message` lines; GET/DELETE and bodiless operations pass. */
export const openApiValidator: RequestValidator = (method, path, body) => {
  if (method === "GET" || method === "DELETE" || method === "GIT") return [];
  const validate = validatorFor(method, path);
  if (!validate || validate(body ?? {})) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || "(body)"} ${e.message ?? "is invalid"}`);
};
