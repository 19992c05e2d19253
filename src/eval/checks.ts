import picomatch from "picomatch";
import type { SessionEvent } from "../session/events.js";
import { checkLabel, type Check } from "./check-schema.js";
import { changedPaths } from "./tree.js";

export interface CheckResult {
  label: string;
  ok: boolean;
  /** Why it failed, in a few words. */
  detail?: string;
}

/** What the checks look at: the fixture as committed, the final tree, and the session's events. */
export interface CheckInput {
  base: Map<string, string>;
  final: Map<string, string>;
  events: readonly SessionEvent[];
}

function evaluate(check: Check, input: CheckInput): string | null {
  const { base, final, events } = input;
  if ("file_contains" in check) {
    const { path, text } = check.file_contains;
    const content = final.get(path);
    if (content === undefined) return "file missing";
    return content.includes(text) ? null : "text not found";
  }
  if ("file_not_contains" in check) {
    const { path, text } = check.file_not_contains;
    return final.get(path)?.includes(text) ? "text found" : null;
  }
  if ("file_matches" in check) {
    const content = final.get(check.file_matches.path);
    if (content === undefined) return "file missing";
    return new RegExp(check.file_matches.regex, "m").test(content) ? null : "no match";
  }
  if ("file_exists" in check) return final.has(check.file_exists) ? null : "file missing";
  if ("file_absent" in check) return final.has(check.file_absent) ? "file exists" : null;
  if ("file_unchanged" in check) {
    return final.get(check.file_unchanged) === base.get(check.file_unchanged) ? null : "file changed";
  }
  if ("only_changed" in check) {
    const allowed = picomatch(check.only_changed, { dot: true });
    const outside = changedPaths(base, final).filter((p) => !allowed(p));
    return outside.length === 0 ? null : `also changed ${outside.join(", ")}`;
  }
  if ("no_changes" in check) {
    const changed = changedPaths(base, final);
    return changed.length === 0 ? null : `changed ${changed.join(", ")}`;
  }
  const finish = events.find((e) => e.type === "finish_accepted");
  if (!finish) return "no accepted finish";
  return finish.summary.includes(check.summary_contains) ? null : "summary does not contain the text";
}

/** Evaluates every check; never throws on a failing one (a bad regex is reported as a failure). */
export function evaluateChecks(checks: Check[], input: CheckInput): CheckResult[] {
  return checks.map((check) => {
    const label = checkLabel(check);
    try {
      const detail = evaluate(check, input);
      return detail === null ? { label, ok: true } : { label, ok: false, detail };
    } catch (e) {
      return { label, ok: false, detail: (e as Error).message };
    }
  });
}
