import { redact } from "./redact.js";

/**
 * The files whose added lines hold something Patchgate would redact when posting (a configured
 * secret, the job's token, a known key format): such work is not pushed untested. `patch` is a
 * unified diff (workspace.diff), read per file; removed and context lines do not count.
 */
export function filesWithSecrets(patch: string, secrets: readonly string[]): string[] {
  const added = new Map<string, string[]>();
  let file = "";
  for (const line of patch.split("\n")) {
    if (line.startsWith("+++ ")) file = line.slice(4).replace(/^b\//, "");
    else if (line.startsWith("+") && file !== "/dev/null") added.set(file, [...(added.get(file) ?? []), line.slice(1)]);
  }
  return [...added]
    .filter(([, lines]) => {
      const text = lines.join("\n");
      return redact(text, secrets) !== text;
    })
    .map(([f]) => f);
}
