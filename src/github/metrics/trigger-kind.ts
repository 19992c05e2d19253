/**
 * The metrics' label for what started a session: the kind of GitHub object its delivery is about
 * (`comment:<id>` → `comment`, `label:<issue>:<name>` → `label`), never its id, so the label stays
 * a handful of values.
 */
export function triggerKind(source: string): string {
  const kind = source.split(":", 1)[0];
  return /^[a-z_-]{1,40}$/.test(kind) ? kind : "other";
}
