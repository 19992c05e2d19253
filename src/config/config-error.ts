import { REPO_CONFIG_PATH } from "./repo-config.js";
import { FatalError } from "../errors/index.js";

/**
 * What is wrong with `.github/patchgate.yml`. Its message goes into a comment for the maintainer,
 * so it names the file, the field (`sandbox.backend`) and the line, and says what would be accepted.
 * Fatal for the session (`config_invalid`): the model cannot fix the default branch's config.
 */
export type ConfigErrorKind =
  /** Not parseable YAML (bad indentation, duplicate key, several documents). `field` is null. */
  | "yaml_syntax"
  /** A known field with a value of the wrong type or out of range; also a top level that is not a mapping. */
  | "invalid_value"
  /** A field the schema does not know, usually a typo: strict, so a misspelt limit is not silently ignored. */
  | "unknown_field";

export class ConfigError extends FatalError {
  constructor(
    readonly kind: ConfigErrorKind,
    /** Dotted path of the offending field (`timeouts.test_seconds`, `policy.allow_commands.1`); "" is the top level. */
    readonly field: string | null,
    /** What is wrong, without the file and location, e.g. `expected number, got "ten"`. */
    readonly problem: string,
    /** 1-based line in the file, when known. */
    readonly line: number | null,
  ) {
    super(describe(kind, field, problem, line));
  }
}

function describe(kind: ConfigErrorKind, field: string | null, problem: string, line: number | null): string {
  const where = line === null ? REPO_CONFIG_PATH : `${REPO_CONFIG_PATH} line ${line}`;
  if (kind === "yaml_syntax") return `${where} is not valid YAML: ${problem}`;
  if (kind === "unknown_field") return `${where}: unknown field \`${field}\`: ${problem}`;
  return `${where}: \`${field === "" ? "(top level)" : field}\` ${problem}`;
}
