import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { EvalCaseSchema, type EvalCase } from "./case-schema.js";
import { FatalError } from "../errors/index.js";

const CASE_FILES = ["case.yaml", "case.yml", "case.json"];

/** A case file that cannot be used; the message names the file and every bad field. */
export class CaseLoadError extends FatalError {
  readonly kind = "invalid_case";
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(`${file}: ${problems.join("; ")}`);
  }
}

function caseFileIn(dir: string): string | null {
  const name = CASE_FILES.find((f) => existsSync(path.join(dir, f)));
  return name ? path.join(dir, name) : null;
}

/** Reads and validates one case file. */
export function loadCaseFile(file: string): EvalCase {
  const dir = path.dirname(path.resolve(file));
  let raw: unknown;
  try {
    const text = readFileSync(file, "utf8");
    raw = file.endsWith(".json") ? JSON.parse(text) : parseYaml(text);
  } catch (e) {
    throw new CaseLoadError(file, [`cannot parse: ${(e as Error).message}`]);
  }
  const parsed = EvalCaseSchema.safeParse(raw);
  if (!parsed.success) {
    throw new CaseLoadError(
      file,
      parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`),
    );
  }
  const { id, fixture, ...rest } = parsed.data;
  const fixtureDir = path.resolve(dir, fixture);
  const hasFixture = existsSync(fixtureDir) && statSync(fixtureDir).isDirectory();
  // Only the default may be missing: a case made of inline `files` needs no fixture directory.
  if (!hasFixture && raw !== null && typeof raw === "object" && "fixture" in raw) {
    throw new CaseLoadError(file, [`fixture: directory ${fixture} not found`]);
  }
  return { ...rest, id: id ?? path.basename(dir), dir, fixtureDir: hasFixture ? fixtureDir : null };
}

/**
 * Loads a directory of cases: either a case directory itself, or a directory whose sub-directories
 * are cases. Names starting with `_` or `.` are skipped (shared fixtures live in `_fixtures`).
 * Cases come back sorted by directory name, so reports are stable.
 */
export function loadCases(dir: string): EvalCase[] {
  const own = caseFileIn(dir);
  if (own) return [loadCaseFile(own)];
  const files = readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith("_") && !d.name.startsWith("."))
    .map((d) => d.name)
    .sort()
    .map((name) => caseFileIn(path.join(dir, name)))
    .filter((f): f is string => f !== null);
  if (files.length === 0) throw new CaseLoadError(dir, ["no case directories (with case.yaml or case.json) found"]);
  const cases = files.map(loadCaseFile);
  const seen = new Set<string>();
  for (const c of cases) {
    if (seen.has(c.id)) throw new CaseLoadError(c.dir, [`duplicate case id ${c.id}`]);
    seen.add(c.id);
  }
  return cases;
}
