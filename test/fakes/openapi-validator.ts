import { createRequire } from "node:module";
import type { ValidateFunction } from "ajv";
import type { RequestValidator } from "./github/github-server.js";

/**
 * GitHub's own OpenAPI description (@octokit/openapi, api.github.com) as the fake GitHub's request
 * check: every JSON body is validated against its operation's schema (types, enums, `maxItems: 50`
 * annotations, `maxLength: 65535` output…). The 13 MB description is parsed once per test file and
 * each operation's schema compiled on first use.
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
  components: unknown;
}

let spec: Spec | null = null;
let routes: { re: RegExp; template: string }[] = [];
const compiled = new Map<string, ValidateFunction | null>();
const ajv = new Ajv({ strict: false, validateSchema: false, allErrors: true });
addFormats(ajv);
// GitHub's own format: `owner/name` of a repository.
ajv.addFormat("repo.nwo", /^[\w.-]+\/[\w.-]+$/);

function load(): Spec {
  if (spec) return spec;
  spec = require("@octokit/openapi/generated/api.github.com.json") as Spec;
  ajv.addSchema({ $id: "github", components: typedNullables(spec.components) });
  // Literal segments first, so `/check-runs/{id}/annotations` is not taken for a longer template.
  routes = Object.keys(spec.paths)
    .map((template) => ({ template, re: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{[^}]+\\?\}/g, "[^/]+")}$`) }))
    .sort((a, b) => a.template.split("{").length - b.template.split("{").length);
  return spec;
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
  const schema = route ? s.paths[route.template][method.toLowerCase()]?.requestBody?.content?.["application/json"]?.schema : undefined;
  // References point into the description's components, registered above under the id `github`.
  const fn = schema ? ajv.compile(JSON.parse(JSON.stringify(typedNullables(schema)).replaceAll('"#/components/', '"github#/components/'))) : null;
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
