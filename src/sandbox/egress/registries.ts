import { homedir } from "node:os";
import path from "node:path";
import { parse as parseToml } from "smol-toml";
import { readHead } from "../../toolchain/layouts/fs.js";
import { readRepoFile } from "../../toolchain/repo-file.js";
import { hostEnvironment } from "../../process/index.js";

/**
 * The package registries a networked setup may reach, from the package managers' own configuration:
 * each manager's default registry, what the host's configuration points it at (the operator's
 * mirror) and what the repository's own configuration files name (`.npmrc`, `.yarnrc.yml`,
 * `.cargo/config.toml`). Only URLs are taken from these files, and from each URL only its host and
 * port (allow-rule.ts): a token or a password in them never leaves the host, and nothing of the host's
 * configuration is shown to the sandbox. Nothing is executed to find them (`npm config get` would
 * run the host's npm in the repository).
 */
const DEFAULT_REGISTRIES = [
  // npm, yarn (v1 and berry), pnpm
  "https://registry.npmjs.org/",
  "https://registry.yarnpkg.com/",
  // pip, uv, poetry: the index and where its files are served from
  "https://pypi.org/simple/",
  "https://files.pythonhosted.org/",
  // go: module proxy and checksum database
  "https://proxy.golang.org/",
  "https://sum.golang.org/",
  // cargo: the sparse index, crate downloads, and the API the git index falls back to
  "https://index.crates.io/",
  "https://static.crates.io/",
  "https://crates.io/",
];

const URL_IN = /(?:sparse\+)?https?:\/\/[^\s"'`,;|]+/g;

/** `registry=…` and `@scope:registry=…` of an .npmrc (ini); `${VAR}` values are left out. */
export function npmrcRegistries(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(?:@[\w.-]+:)?registry\s*=\s*(.+?)\s*$/.exec(line);
    if (m && !m[1].includes("${")) out.push(m[1].replace(/^["']|["']$/g, ""));
  }
  return out;
}

/** `npmRegistryServer:` of a .yarnrc.yml (also inside npmScopes) and `registry "…"` of a yarn v1 .yarnrc. */
export function yarnRegistries(text: string): string[] {
  return text
    .split(/\r?\n/)
    .filter((l) => /^\s*(npmRegistryServer\s*:|registry\s)/.test(l))
    .flatMap((l) => l.match(URL_IN) ?? []);
}

/** `index-url` and `extra-index-url` of a pip.conf, continuation lines included. */
export function pipConfRegistries(text: string): string[] {
  const out: string[] = [];
  let inIndex = false;
  for (const line of text.split(/\r?\n/)) {
    const key = /^([\w-]+)\s*[=:]/.exec(line);
    if (key) inIndex = key[1] === "index-url" || key[1] === "extra-index-url" || key[1] === "find-links";
    else if (!/^\s+\S/.test(line)) inIndex = false;
    if (inIndex) out.push(...(line.match(URL_IN) ?? []));
  }
  return out;
}

/** `[registries.x] index`, `[source.x] registry`, `[registry] index` of a cargo config. */
export function cargoConfigRegistries(text: string): string[] {
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(text) as Record<string, unknown>;
  } catch {
    return [];
  }
  const tables = (v: unknown) => (v && typeof v === "object" ? Object.values(v as Record<string, unknown>) : []);
  const field = (t: unknown, k: string) => (t && typeof t === "object" ? (t as Record<string, unknown>)[k] : undefined);
  const values = [
    ...tables(doc.registries).map((t) => field(t, "index")),
    ...tables(doc.source).map((t) => field(t, "registry")),
    field(doc.registry, "index"),
  ];
  return values.filter((v): v is string => typeof v === "string");
}

/** GOPROXY (`url,url|direct`), the pip and uv index variables, npm's registry variable, from an environment. */
export function envRegistries(env: Readonly<Record<string, string | undefined>>): string[] {
  const keys = [
    "GOPROXY",
    "PIP_INDEX_URL",
    "PIP_EXTRA_INDEX_URL",
    "UV_INDEX_URL",
    "UV_DEFAULT_INDEX",
    "UV_EXTRA_INDEX_URL",
    "UV_INDEX",
    "npm_config_registry",
    "NPM_CONFIG_REGISTRY",
  ];
  return keys.flatMap((k) => env[k]?.match(URL_IN) ?? []);
}

const HOST_FILES: [string, (text: string) => string[]][] = [
  ["~/.npmrc", npmrcRegistries],
  ["/etc/npmrc", npmrcRegistries],
  ["/usr/etc/npmrc", npmrcRegistries],
  ["~/.yarnrc.yml", yarnRegistries],
  ["~/.yarnrc", yarnRegistries],
  ["/etc/pip.conf", pipConfRegistries],
  ["~/.config/pip/pip.conf", pipConfRegistries],
  ["~/.pip/pip.conf", pipConfRegistries],
  ["~/.config/go/env", (t) => envRegistries(Object.fromEntries(t.split("\n").map((l) => l.split("=", 2) as [string, string])))],
  ["~/.cargo/config.toml", cargoConfigRegistries],
  ["~/.cargo/config", cargoConfigRegistries],
];

const REPO_FILES: [string, (text: string) => string[]][] = [
  [".npmrc", npmrcRegistries],
  [".yarnrc.yml", yarnRegistries],
  [".yarnrc", yarnRegistries],
  [".cargo/config.toml", cargoConfigRegistries],
  [".cargo/config", cargoConfigRegistries],
];

/** Every registry URL for a setup in `workspace`: defaults, the host's configuration, the repository's. */
export async function registryUrls(
  workspace: string,
  env: Readonly<Record<string, string | undefined>> = hostEnvironment(),
  home = homedir(),
): Promise<string[]> {
  const urls = [...DEFAULT_REGISTRIES, ...envRegistries(env)];
  for (const [file, parse] of HOST_FILES) {
    const text = await readHead(file.startsWith("~/") ? path.join(home, file.slice(2)) : file);
    if (text !== null) urls.push(...parse(text));
  }
  for (const [file, parse] of REPO_FILES) {
    const text = await readRepoFile(workspace, file).catch(() => null);
    if (text !== null) urls.push(...parse(text));
  }
  return [...new Set(urls)];
}
