import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { hostEnvironment } from "../process/index.js";
import type { PrivateRegistry, RegistryKind } from "../sandbox/egress/private-registry.js";
import { FatalError } from "../errors/index.js";

/**
 * `sandbox.registries` of the operator's settings: the private registries a networked setup reaches
 * through the gateway (src/sandbox/egress/registry-gateway.ts), and where each one's credential
 * comes from: a variable of the operator's environment or a file of the operator's. The schema is
 * here; the values are read once at start (resolveRegistries), so a missing variable or unreadable
 * file stops the start with one line naming the setting.
 */
const NAME = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;
const SCOPE = /^@[a-z0-9][a-z0-9._-]*$/;
const GO_PATTERN = /^[A-Za-z0-9.*/_~-]+$/;

const CredentialSchema = z.union([
  z.object({ env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be a variable name") }).strict(),
  z.object({ file: z.string().refine((p) => path.isAbsolute(p), "must be an absolute path") }).strict(),
  // GitHub Packages: the session's installation token (the app asks for `packages: read`).
  z.object({ github_app: z.literal(true) }).strict(),
]);

export const RegistrySchema = z
  .object({
    name: z.string().regex(NAME, "must be 1-40 lower-case letters, digits and dashes"),
    type: z.enum(["npm", "pip", "cargo", "go"]),
    url: z.string().refine(isHttpsUrl, "must be an https:// URL without credentials, query or fragment"),
    credential: CredentialSchema,
    /** How the credential is sent: `Bearer <it>`, `Basic base64(username:it)`, or as it is (cargo's tokens). */
    auth: z.enum(["bearer", "basic", "raw"]).optional(),
    username: z.string().min(1).optional(),
    scope: z.string().regex(SCOPE, "must be an npm scope, like @corp").optional(),
    modules: z.array(z.string().regex(GO_PATTERN, "must be a module path pattern")).optional(),
    replaces_crates_io: z.boolean().optional(),
    // Where a registry on a private address is allowed is one declaration, shared with the egress proxy.
    private_address: z.never({ error: "is declared in PATCHGATE_PRIVATE_DESTINATIONS instead: name the registry's host there" }).optional(),
  })
  .strict();

export type RegistrySetting = z.infer<typeof RegistrySchema>;

function isHttpsUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return u.protocol === "https:" && u.username === "" && u.password === "" && u.search === "" && u.hash === "";
  } catch {
    return false;
  }
}

const DEFAULT_AUTH: Record<RegistryKind, "bearer" | "basic" | "raw"> = { npm: "bearer", pip: "basic", go: "bearer", cargo: "raw" };

/** What does not fit a registry of its type, as `field: why`; null when it all fits. */
function registryMisfit(r: RegistrySetting): string | null {
  const auth = r.auth ?? DEFAULT_AUTH[r.type];
  if (auth === "basic" && r.username === undefined) return "username: is required for basic auth";
  if (auth !== "basic" && r.username !== undefined) return "username: is only for basic auth";
  if (r.scope !== undefined && r.type !== "npm") return "scope: is only for npm registries";
  if (r.modules !== undefined && r.type !== "go") return "modules: is only for go registries";
  if (r.replaces_crates_io !== undefined && r.type !== "cargo") return "replaces_crates_io: is only for cargo registries";
  return null;
}

/** A setting of `sandbox.registries` that cannot be used: `field` is its path in the settings. */
export class RegistrySettingError extends FatalError {
  readonly kind = "invalid_registry_setting";
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** The credential's value, read now; trailing newlines of a file are not part of it. */
function readCredential(
  r: RegistrySetting & { credential: { env: string } | { file: string } },
  field: string,
  env: Readonly<Record<string, string | undefined>>,
): string {
  if ("env" in r.credential) {
    const value = env[r.credential.env]?.trim();
    if (!value) throw new RegistrySettingError(`${field}.credential.env`, `${r.credential.env} is not set`);
    return value;
  }
  let value: string;
  try {
    value = readFileSync(r.credential.file, "utf8").trim();
  } catch (e) {
    throw new RegistrySettingError(
      `${field}.credential.file`,
      `cannot read ${r.credential.file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
    );
  }
  if (value === "") throw new RegistrySettingError(`${field}.credential.file`, `${r.credential.file} is empty`);
  return value;
}

function header(r: RegistrySetting, credential: string): string {
  const auth = r.auth ?? DEFAULT_AUTH[r.type];
  if (auth === "bearer") return `Bearer ${credential}`;
  if (auth === "basic") return `Basic ${Buffer.from(`${r.username}:${credential}`).toString("base64")}`;
  return credential;
}

export interface ResolvedRegistries {
  registries: PrivateRegistry[];
  /** Every form of every credential (the value, the header, its encoded part), for redaction by value. */
  secrets: string[];
}

/** Reads each registry's credential; a missing one is a RegistrySettingError naming its field. Names must differ. */
export function resolveRegistries(
  settings: readonly RegistrySetting[],
  env: Readonly<Record<string, string | undefined>> = hostEnvironment(),
): ResolvedRegistries {
  const registries: PrivateRegistry[] = [];
  const secrets: string[] = [];
  const seen = new Set<string>();
  settings.forEach((r, i) => {
    const field = `sandbox.registries.${i}`;
    if (seen.has(r.name)) throw new RegistrySettingError(`${field}.name`, `${r.name} is declared twice`);
    seen.add(r.name);
    const misfit = registryMisfit(r);
    if (misfit) throw new RegistrySettingError(`${field}.${misfit.split(":")[0]}`, misfit.slice(misfit.indexOf(":") + 2));
    let authorization: PrivateRegistry["authorization"];
    if ("github_app" in r.credential) {
      if ((r.auth ?? "bearer") !== "bearer") throw new RegistrySettingError(`${field}.auth`, "must be bearer with a github_app credential");
      authorization = ({ installationToken }) =>
        installationToken
          ? Promise.resolve(`Bearer ${installationToken}`)
          : Promise.reject(new Error("a github_app credential is the GitHub App's installation token, and this session has none"));
    } else {
      const credential = readCredential({ ...r, credential: r.credential }, field, env);
      const value = header(r, credential);
      secrets.push(credential, value, value.slice(value.indexOf(" ") + 1));
      authorization = () => Promise.resolve(value);
    }
    registries.push({
      name: r.name,
      kind: r.type,
      url: r.url,
      ...(r.scope ? { scope: r.scope } : {}),
      ...(r.modules ? { modules: r.modules } : {}),
      ...(r.replaces_crates_io ? { replacesCratesIo: true } : {}),
      authorization,
    });
  });
  return { registries, secrets: [...new Set(secrets)] };
}
