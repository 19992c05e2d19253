import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "./usage-error.js";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** A command's flags parsed; `help` when `--help`/`-h` was given (the caller prints its usage and stops). */
export type Parsed<O extends Options> =
  | { help: true }
  | { help: false; values: ReturnType<typeof parseArgs<{ args: string[]; options: O; allowPositionals: true }>>["values"]; positionals: string[] };

/**
 * parseArgs, but a wrong flag is the user's mistake, not ours: node throws a TypeError with a stack
 * (`run --bogus x`); this turns it into a UsageError carrying the command's usage line.
 */
export function parseCommandArgs<O extends Options>(argv: string[], options: O, usage: string): Parsed<O> {
  if (argv.includes("--help") || argv.includes("-h")) return { help: true };
  try {
    const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
    return { help: false, values, positionals };
  } catch (err) {
    const message = (err as Error).message.replace(/\. To specify a positional argument.*$/s, "");
    throw new UsageError(`${message}\nusage: ${usage}`);
  }
}

/** A flag that counts something: a positive integer, or a usage error (never NaN, which no limit stops). */
export function positiveInt(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9]\d*$/.test(value.trim()) || !Number.isSafeInteger(Number(value))) throw new UsageError(`--${flag} must be a positive integer, got "${value}"`);
  return Number(value);
}

/** A flag that is an amount: a positive finite number. */
export function positiveNumber(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n <= 0) throw new UsageError(`--${flag} must be a positive number, got "${value}"`);
  return n;
}
