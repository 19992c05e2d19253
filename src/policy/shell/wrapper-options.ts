/**
 * Where a wrapper's own options end and the wrapped command begins, as getopt would see it. A guess
 * here decides which argv the policy judges, so a misread is a bypass: `env --unse echo rm -rf x`
 * (getopt takes `--unse` as an abbreviation of `--unset`, so `echo` is its value and `rm` runs) or
 * `xargs -0I echo rm x` (`I` in a cluster takes the next word). Whenever an option's arity is not
 * certain (an abbreviation, an unknown option) every reading is returned, and each reading's command
 * is judged: the strictest wins, so ambiguity can only make a decision stricter.
 */
export interface OptionSpec {
  /** Short options that take a value: the rest of the cluster, or else the next word. */
  shortValue: string;
  /** Short options whose value can only be attached (`xargs -i{}`): never the next word. */
  shortOptional?: string;
  shortFlags: string;
  longValue: string[];
  /** Long options without a value, or whose optional value can only be given as `--opt=value`. */
  longFlags: string[];
  /** `nice -10`: a dash and digits is one option on its own (the old adjustment form). */
  numeric?: boolean;
}

/** How many words the option `a` may take up (1 = itself, 2 = with the next word as its value). */
function widths(a: string, spec: OptionSpec): number[] {
  if (a.startsWith("--")) {
    if (a.includes("=")) return [1];
    const name = a.slice(2);
    if (spec.longValue.includes(name)) return [2];
    if (spec.longFlags.includes(name)) return [1];
    // getopt_long accepts any unambiguous prefix; an unknown or ambiguous one may mean either.
    const matches = [...spec.longValue, ...spec.longFlags].filter((o) => o.startsWith(name));
    if (matches.length > 0 && matches.every((o) => spec.longFlags.includes(o))) return [1];
    if (matches.length > 0 && matches.every((o) => spec.longValue.includes(o))) return [2];
    return [1, 2];
  }
  if (spec.numeric && /^-\d+$/.test(a)) return [1];
  for (let j = 1; j < a.length; j++) {
    const c = a[j];
    if (spec.shortValue.includes(c)) return j === a.length - 1 ? [2] : [1];
    if (spec.shortOptional?.includes(c)) return [1];
    if (!spec.shortFlags.includes(c)) return [1, 2];
  }
  return [1];
}

/**
 * Every index at which the operands may start (args.length = no operand), plus the indices of the
 * words read as options on the way (for options such as `env -S` whose value is itself a command).
 */
export function operandStarts(args: string[], start: number, spec: OptionSpec): { starts: number[]; options: number[] } {
  const starts = new Set<number>();
  const options = new Set<number>();
  const seen = new Set<number>();
  // Each index is visited once, so even many ambiguous options cost linear time, not 2^n.
  const visit = (i: number): void => {
    if (seen.has(i)) return;
    seen.add(i);
    const a = args[i];
    if (a === undefined || a === "-" || !a.startsWith("-")) {
      starts.add(Math.min(i, args.length));
      return;
    }
    options.add(i);
    if (a === "--") {
      starts.add(i + 1);
      return;
    }
    for (const w of widths(a, spec)) visit(i + w);
  };
  visit(start);
  const sorted = (s: Set<number>) => [...s].sort((x, y) => x - y);
  return { starts: sorted(starts), options: sorted(options) };
}
