/** How a human asks for a retry where this session runs: the model repeats it, so it must exist there. */
export function retryHint(s: { sessionId: string; task: { source: { kind: string } } }): string {
  if (s.task.source.kind === "cli") return `the user runs \`patchgate retry ${s.sessionId.slice(0, 8)}\``;
  if (s.task.source.kind === "github") return "a maintainer comments `/agent retry`";
  return "a retry is asked for";
}
