import type { StoredEvent } from "../../session/events.js";
import type { ToolchainRecord, UnmetToolchain } from "../../session/types.js";
import { clip } from "../../safety/markdown.js";
import { code, joined, strong, type Inline } from "./doc.js";

/**
 * What the sandbox ran the tests with (`toolchains_resolved`, src/toolchain): part of the evidence,
 * since "the tests passed" means "passed with these". How each was found is in the step's line
 * (src/trace/toolchains-line.ts).
 */
const MAX_SHOWN = 10;
const MAX_INSTALL = 300;

const each = (t: ToolchainRecord): Inline[] => [`${t.name} ${t.version} (`, code(t.path), ")"];

const unmetItem = (u: UnmetToolchain): Inline[] => [
  strong(u.required ? "Missing on the host:" : "Not found on the host:"),
  ` ${u.name} ${u.wanted}, asked by `,
  code(u.source),
  ` — ${clip(u.install, MAX_INSTALL)}`,
];

function listed<T>(all: readonly T[], one: (x: T) => Inline[]): Inline[] {
  const shown = joined(all.slice(0, MAX_SHOWN).map(one), " · ");
  return all.length > MAX_SHOWN ? [...shown, ` · and ${all.length - MAX_SHOWN} more`] : shown;
}

/** Evidence items: the toolchains line, then each toolchain the repository needs and the host lacks. */
export function toolchainItems(events: readonly StoredEvent[]): Inline[][] {
  const e = [...events].reverse().find((x) => x.type === "toolchains_resolved");
  if (!e || e.type !== "toolchains_resolved") return [];
  const line: Inline[] = ["Toolchains: ", ...(e.toolchains.length > 0 ? listed(e.toolchains, each) : ["nothing beyond /usr"])];
  return [line, ...e.unmet.slice(0, MAX_SHOWN).map(unmetItem)];
}
