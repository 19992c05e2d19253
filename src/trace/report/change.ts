import { code, heading, link, para, type Block, type Inline } from "./doc.js";
import { fileChanges } from "./file-changes.js";
import { provenance } from "./provenance.js";
import type { SessionView } from "./session-view.js";
import { plural, shortSha } from "./words.js";

/** Change: the files of the latest diff with their line counts, and where to read the diff itself. */
const MAX_FILES = 50;

export function changeBlocks(v: SessionView, pullUrl?: string): Block[] {
  const d = v.state.latestDiff;
  if (!d || d.patch.trim() === "") return [heading(3, "Change"), para("No changes yet.")];
  const files = fileChanges(d.patch);
  const url = pullUrl ?? v.state.published?.url;
  const total: Inline[] = [`${files.length} file${files.length === 1 ? "" : "s"} changed, +${d.insertions} −${d.deletions}`];
  if (url) total.push(" · ", link(`${url.replace(/\/+$/, "")}/files`, "the diff in the pull request's Files tab"));
  const rows = files.slice(0, MAX_FILES).map((f): Inline[][] => {
    const name: Inline[] = f.from ? [code(f.from), " → ", code(f.path)] : [code(f.path)];
    return [name, [f.status], [f.binary ? "binary" : `+${f.added}`], [f.binary ? "" : `−${f.deleted}`]];
  });
  const blocks: Block[] = [heading(3, "Change"), para(...total), { kind: "table", head: ["file", "status", "added", "removed"], right: [false, false, true, true], rows }];
  if (files.length > MAX_FILES) blocks.push(para(`… and ${files.length - MAX_FILES} more files.`));
  const published = v.state.published;
  if (v.state.phase === "done" && published) {
    const p = provenance(v);
    const summarised = p.annotations.length < p.ranges ? ` (${p.ranges} changed ranges, summarised to fit GitHub's limits${p.omitted > 0 ? `; ${p.omitted} left out` : ""})` : "";
    blocks.push(para(`${plural(p.annotations.length, "provenance annotation")} on the changed lines of `, code(shortSha(published.commit)), ` ${p.annotations.length === 1 ? "says" : "say"} which step wrote each line and who allowed it${summarised}.`));
  }
  return blocks;
}
