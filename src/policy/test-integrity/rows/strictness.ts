import { at, parseIni, parseJsonc, parseTomlText, parseYamlText, type ConfigObject } from "../config-text.js";
import { countMatches } from "../diff-lines.js";
import { withoutComments } from "../language.js";
import type { Detector } from "../detector.js";
import { configRow, type ConfigChange } from "./config-row.js";

/** tsc's checks that only make it stricter: turning one off lets code through that failed before. */
const TS_STRICT_FLAGS = [
  "strict",
  "noImplicitAny",
  "strictNullChecks",
  "strictFunctionTypes",
  "strictBindCallApply",
  "strictPropertyInitialization",
  "noImplicitThis",
  "alwaysStrict",
  "useUnknownInCatchVariables",
  "noUncheckedIndexedAccess",
  "exactOptionalPropertyTypes",
  "noImplicitReturns",
  "noFallthroughCasesInSwitch",
  "noImplicitOverride",
  "noPropertyAccessFromIndexSignature",
  "noUnusedLocals",
  "noUnusedParameters",
  "checkJs",
];

function judgeTsconfig(before: string | null, after: string | null, path: string): ConfigChange[] {
  const [was, now] = [parseJsonc(before), parseJsonc(after)];
  if (was === null) return [];
  return TS_STRICT_FLAGS.flatMap((flag) => {
    const [a, b] = [at(was, ["compilerOptions", flag]), at(now, ["compilerOptions", flag])];
    return a === true && b !== true
      ? [{ message: `\`${flag}\` turned off in ${path}`, lines: [`-"${flag}": true`, ...(b === undefined ? [] : [`+"${flag}": ${JSON.stringify(b)}`])] }]
      : [];
  });
}

/** An ESLint rule set to off or warn (by name or by number), and files ignored. */
const ESLINT_LOWERED = /:\s*\[?\s*(?:["'](?:off|warn)["']|[01](?![\d.]))\s*[,\]}\n]/g;
const ESLINT_IGNORES = /\bignores\b|\bignorePatterns\b/;

function eslintText(text: string | null, path: string): string {
  if (text === null) return "";
  if (path.endsWith("package.json")) return JSON.stringify(at(parseJsonc(text), ["eslintConfig"]) ?? {}, null, 2);
  if (/\.ya?ml$/.test(path)) return JSON.stringify(parseYamlText(text), null, 2);
  if (/\.json$|eslintrc$/.test(path)) return JSON.stringify(parseJsonc(text), null, 2);
  return withoutComments("js", text);
}

function judgeEslint(beforeText: string | null, afterText: string | null, path: string): ConfigChange[] {
  const [before, after] = [eslintText(beforeText, path), eslintText(afterText, path)];
  const changes: ConfigChange[] = [];
  const [was, now] = [countMatches(before, ESLINT_LOWERED), countMatches(after, ESLINT_LOWERED)];
  if (now > was)
    changes.push({ message: `ESLint rules turned off or to warn in ${path} (${was} → ${now})`, lines: addedMatching(before, after, ESLINT_LOWERED) });
  const [ignoredBefore, ignoredAfter] = [ignoreEntries(before), ignoreEntries(after)];
  if (ignoredAfter > ignoredBefore) changes.push({ message: `ESLint ignores more files in ${path}`, lines: addedMatching(before, after, /["'`][^"'`]+["'`]/) });
  return changes;
}

/** The number of quoted entries in the `ignores`/`ignorePatterns` values. */
function ignoreEntries(text: string): number {
  let n = 0;
  for (const m of text.matchAll(new RegExp(`(?:${ESLINT_IGNORES.source})["']?\\s*:\\s*\\[([^\\]]*)\\]`, "g")))
    n += (m[1].match(/["'`][^"'`]*["'`]/g) ?? []).length;
  return n;
}

function addedMatching(before: string, after: string, pattern: RegExp): string[] {
  const old = new Set(before.split("\n").map((l) => l.trim()));
  const test = new RegExp(pattern.source);
  return after
    .split("\n")
    .filter((l) => test.test(l) && !old.has(l.trim()))
    .map((l) => `+${l.trim()}`);
}

/** mypy settings that only make it stricter, and those that only make it looser. */
const MYPY_STRICT =
  /^(?:strict|disallow_\w+|check_untyped_defs|warn_return_any|warn_unused_ignores|warn_unreachable|strict_optional|strict_equality|no_implicit_optional|extra_checks)$/;
const MYPY_LOOSE = /^(?:ignore_errors|ignore_missing_imports|allow_untyped_defs|allow_untyped_calls|allow_incomplete_defs|implicit_optional)$/;
const PYRIGHT_RANK: Readonly<Record<string, number>> = { strict: 3, standard: 2, basic: 1, off: 0 };
/** ruff's and flake8's lists of rules not checked. */
const LINT_IGNORE_KEYS = /^(?:ignore|extend-ignore|extend_ignore|per-file-ignores|per_file_ignores)$/;

/** Every type and lint setting of a Python configuration file, flattened to `tool.key` → value. */
function pythonSettings(text: string | null, path: string): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (text === null) return out;
  const put = (tool: string, obj: unknown) => {
    if (typeof obj === "object" && obj !== null && !Array.isArray(obj)) for (const [k, v] of Object.entries(obj as ConfigObject)) out.set(`${tool}.${k}`, v);
  };
  if (path.endsWith(".toml")) {
    const toml = parseTomlText(text);
    const tool = path.endsWith("pyproject.toml") ? at(toml, ["tool"]) : { ruff: toml };
    put("mypy", at(tool as ConfigObject, ["mypy"]));
    put("pyright", at(tool as ConfigObject, ["pyright"]));
    put("ruff", at(tool as ConfigObject, ["ruff"]));
    put("ruff", at(tool as ConfigObject, ["ruff", "lint"]));
  } else if (path.endsWith(".json")) {
    put("pyright", parseJsonc(text));
  } else {
    for (const [section, keys] of parseIni(text))
      if (section === "mypy" || section === "flake8") for (const [k, v] of keys) out.set(`${section}.${k}`, v === "True" || v === "true" ? true : v);
  }
  return out;
}

function listSize(value: unknown): number {
  if (Array.isArray(value)) return value.length;
  if (typeof value === "object" && value !== null) return Object.values(value).reduce<number>((n, v) => n + listSize(v), 0);
  if (typeof value === "string") return value.split(/[\s,]+/).filter((s) => s !== "").length;
  return 0;
}

function judgePython(beforeText: string | null, afterText: string | null, path: string): ConfigChange[] {
  const [was, now] = [pythonSettings(beforeText, path), pythonSettings(afterText, path)];
  const changes: ConfigChange[] = [];
  const lines = (key: string) => [
    ...(was.has(key) ? [`-${key} = ${JSON.stringify(was.get(key))}`] : []),
    ...(now.has(key) ? [`+${key} = ${JSON.stringify(now.get(key))}`] : []),
  ];
  for (const key of new Set([...was.keys(), ...now.keys()])) {
    const [tool, name] = [key.slice(0, key.indexOf(".")), key.slice(key.indexOf(".") + 1)];
    const lowered =
      (tool === "mypy" && MYPY_STRICT.test(name) && was.get(key) === true && now.get(key) !== true) ||
      (tool === "mypy" && MYPY_LOOSE.test(name) && was.get(key) !== true && now.get(key) === true) ||
      (tool === "pyright" && name === "typeCheckingMode" && (PYRIGHT_RANK[String(now.get(key))] ?? 0) < (PYRIGHT_RANK[String(was.get(key))] ?? 2)) ||
      ((tool === "ruff" || tool === "flake8") && LINT_IGNORE_KEYS.test(name) && listSize(now.get(key)) > listSize(was.get(key)));
    if (lowered) changes.push({ message: `\`${key}\` lowers checking in ${path}`, lines: lines(key) });
  }
  return changes;
}

/** golangci-lint: linters disabled or no longer enabled, issues excluded. */
function golangciCounts(text: string | null, path: string): { off: number; on: number } {
  const cfg = path.endsWith(".toml") ? parseTomlText(text) : path.endsWith(".json") ? parseJsonc(text) : parseYamlText(text);
  const linters = at(cfg, ["linters"]);
  const off =
    listSize(at(linters as ConfigObject, ["disable"])) +
    listSize(at(cfg, ["issues", "exclude-rules"])) +
    listSize(at(cfg, ["issues", "exclude"])) +
    listSize(at(linters as ConfigObject, ["exclusions"])) +
    (at(linters as ConfigObject, ["disable-all"]) === true || at(linters as ConfigObject, ["default"]) === "none" ? 1 : 0);
  return { off, on: listSize(at(linters as ConfigObject, ["enable"])) };
}

const CARGO_LINT_RANK: Readonly<Record<string, number>> = { forbid: 3, deny: 2, warn: 1, allow: 0 };

/** Cargo.toml `[lints.*]` and `[workspace.lints.*]`: lint → rank of its level. */
function cargoLints(text: string | null): Map<string, number> {
  const toml = parseTomlText(text);
  const out = new Map<string, number>();
  for (const table of [at(toml, ["lints"]), at(toml, ["workspace", "lints"])])
    for (const [group, lints] of Object.entries((table ?? {}) as ConfigObject))
      for (const [lint, level] of Object.entries((lints ?? {}) as ConfigObject)) {
        const name = typeof level === "string" ? level : (at(level as ConfigObject, ["level"]) as string | undefined);
        if (name !== undefined && name in CARGO_LINT_RANK) out.set(`${group}.${lint}`, CARGO_LINT_RANK[name]);
      }
  return out;
}

export const strictnessRows: readonly Detector[] = [
  configRow({
    id: "ts.strict",
    kind: "strictness_lowered",
    ecosystem: "JS/TS",
    looksAt: "tsconfig/jsconfig `compilerOptions`: `strict`, `noImplicitAny`, `strictNullChecks`, … `checkJs` turned off",
    names: /^[tj]sconfig(?:\.[\w.-]+)?\.json$/,
    judge: judgeTsconfig,
  }),
  configRow({
    id: "js.eslint",
    kind: "strictness_lowered",
    ecosystem: "JS/TS",
    looksAt: "ESLint configuration (eslint.config.*, .eslintrc*, package.json `eslintConfig`): rules set to `off`/`warn`/0/1, `ignores` grown",
    names: /^(?:eslint\.config\.[cm]?[jt]s|\.eslintrc(?:\.(?:[cm]?js|json|ya?ml))?|package\.json)$/,
    judge: judgeEslint,
  }),
  configRow({
    id: "py.typecheck",
    kind: "strictness_lowered",
    ecosystem: "Python",
    looksAt: "mypy (`strict`, `disallow_*`… off; `ignore_errors`… on), pyright `typeCheckingMode` lowered, ruff/flake8 `ignore` lists grown",
    names: /^(?:mypy\.ini|\.mypy\.ini|setup\.cfg|tox\.ini|\.flake8|pyproject\.toml|ruff\.toml|\.ruff\.toml|pyrightconfig\.json)$/,
    judge: judgePython,
  }),
  configRow({
    id: "go.golangci",
    kind: "strictness_lowered",
    ecosystem: "Go",
    looksAt: "golangci-lint configuration: linters disabled or no longer enabled, issues excluded",
    names: /^\.golangci\.(?:ya?ml|toml|json)$/,
    judge: (before, after, path) => {
      const [was, now] = [golangciCounts(before, path), golangciCounts(after, path)];
      return now.off > was.off || now.on < was.on ? [{ message: `golangci-lint checks less in ${path}`, lines: [] }] : [];
    },
  }),
  configRow({
    id: "rust.lints",
    kind: "strictness_lowered",
    ecosystem: "Rust",
    looksAt: "Cargo.toml `[lints]`/`[workspace.lints]`: a lint's level lowered (forbid → deny → warn → allow) or a lint allowed",
    names: /^Cargo\.toml$/,
    judge: (before, after, path) => {
      const [was, now] = [cargoLints(before), cargoLints(after)];
      return [...new Set([...was.keys(), ...now.keys()])].flatMap((lint) => {
        const [a, b] = [was.get(lint), now.get(lint)];
        // A lint dropped from the table goes back to its default, which is below deny for most.
        const lowered = a === undefined ? b === 0 : b === undefined ? a >= CARGO_LINT_RANK.deny : b < a;
        const level = (rank: number | undefined) => Object.keys(CARGO_LINT_RANK).find((k) => CARGO_LINT_RANK[k] === rank) ?? "default";
        return lowered
          ? [{ message: `lint \`${lint}\` lowered in ${path}: ${level(a)} → ${level(b)}`, lines: [`-${lint} = "${level(a)}"`, `+${lint} = "${level(b)}"`] }]
          : [];
      });
    },
  }),
];
