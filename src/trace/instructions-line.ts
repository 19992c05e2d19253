import type { RepoInstructions } from "../session/types.js";

/**
 * Which repository instructions the model was given, in one line for the timeline, the check run's
 * summary and `patchgate show`: the file, the default branch's commit it came from, and whether it was cut.
 */
export function instructionsLine(i: RepoInstructions): string {
  if (!i.path)
    return i.commit ? `none on the default branch (looked for ${i.candidates.join(", ")})` : "none: the clone has no default branch to read them from";
  const cut = i.truncated ? `, cut to ${i.text.length.toLocaleString("en-US")} characters` : "";
  return `${i.path} from the default branch at ${i.commit?.slice(0, 7) ?? "?"} (${i.bytes.toLocaleString("en-US")} bytes${cut})`;
}
