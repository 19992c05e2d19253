import vm from "node:vm";

/**
 * A model-written regular expression runs on the host, in Patchgate's own event loop, and V8's engine
 * backtracks: `^(a+)+$` on one long line would hang every session of the process, and no abort signal
 * can interrupt a running match. So matching runs as a vm script, whose timeout V8 enforces even in
 * the middle of a match, against one time budget for the whole search.
 */
export const REGEX_BUDGET_MS = 2000;

/** Indices of the lines that match; null once the budget is spent. */
export type LineMatcher = (lines: string[]) => number[] | null;

const SCRIPT = new vm.Script(
  "(() => { const hits = []; for (let i = 0; i < lines.length; i++) { const l = lines[i]; if (re.test(l.length > max ? l.slice(0, max) : l)) hits.push(i); } return hits; })()",
);

export function regexLineMatcher(re: RegExp, maxLineChars: number, budgetMs = REGEX_BUDGET_MS): LineMatcher {
  const ctx = vm.createContext({ re, lines: [] as string[], max: maxLineChars });
  const deadline = Date.now() + budgetMs;
  return (lines) => {
    const left = deadline - Date.now();
    if (left <= 0) return null;
    ctx.lines = lines;
    try {
      return [...(SCRIPT.runInContext(ctx, { timeout: left }) as number[])];
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ERR_SCRIPT_EXECUTION_TIMEOUT") return null;
      throw err;
    }
  };
}
