import { TERMINAL_PHASES } from "../../session/types.js";
import { clip } from "../../safety/markdown.js";
import { MAX_LISTED, pathsToPublish } from "../publish-list.js";
import { bullets, code, heading, link, para, strong, type Block, type Inline } from "./doc.js";
import { fileChanges } from "./file-changes.js";
import { provenance } from "./provenance.js";
import type { SessionView } from "./session-view.js";
import { plural, pushesToGitHub, shortSha } from "./words.js";

const MAX_FILES = 50;
const MAX_PATH_CHARS = 300;

/**
 * The paths that reach (or may reach) the branch, read from the ledger (src/session/publishable.ts):
 * the published tree is the base plus exactly these, whatever else the workspace holds.
 */
function introFor(v: SessionView): Inline[] {
  const { phase, finishedPaths, published } = v.state;
  if (published) return [strong("Published paths"), " (as finish accepted them; the commit is the base plus exactly these):"];
  const ended = TERMINAL_PHASES.includes(phase);
  if (finishedPaths) return [strong("Paths to publish"), ` (as finish accepted them)${ended ? "; the session ended before they were published" : ""}:`];
  if (ended) return [strong("Paths the session had written"), " (with file tools or approved commands; nothing was published):"];
  return [strong("Paths the session may publish so far"), " (written with file tools or changed by approved commands):"];
}

function publishedPaths(v: SessionView): Block[] {
  const paths = pathsToPublish(v.state);
  if (paths.length === 0 && !v.state.finishedPaths) return [];
  const intro = introFor(v);
  const items = paths.slice(0, MAX_LISTED).map((p): Inline[] => [code(clip(p, MAX_PATH_CHARS))]);
  if (paths.length > MAX_LISTED) items.push([`… and ${paths.length - MAX_LISTED} more`]);
  return [para(...intro), paths.length === 0 ? para("none") : bullets(items)];
}

/** Change: the files of the latest diff with their line counts, where to read the diff itself, and the paths published. */
export function changeBlocks(v: SessionView, pullUrl?: string): Block[] {
  const d = v.state.latestDiff;
  if (!d || d.patch.trim() === "") return [heading(3, "Change"), para("No changes yet."), ...publishedPaths(v)];
  const files = fileChanges(d.patch);
  const url = pullUrl ?? v.state.published?.url;
  const total: Inline[] = [`${files.length} file${files.length === 1 ? "" : "s"} changed, +${d.insertions} −${d.deletions}`];
  if (url) total.push(" · ", link(`${url.replace(/\/+$/, "")}/files`, "the diff in the pull request's Files tab"));
  const rows = files.slice(0, MAX_FILES).map((f): Inline[][] => {
    const name: Inline[] = f.from ? [code(f.from), " → ", code(f.path)] : [code(f.path)];
    return [name, [f.status], [f.binary ? "binary" : `+${f.added}`], [f.binary ? "" : `−${f.deleted}`]];
  });
  const blocks: Block[] = [
    heading(3, "Change"),
    para(...total),
    { kind: "table", head: ["file", "status", "added", "removed"], right: [false, false, true, true], rows },
  ];
  if (files.length > MAX_FILES) blocks.push(para(`… and ${files.length - MAX_FILES} more files.`));
  blocks.push(...publishedPaths(v));
  const published = v.state.published;
  // Provenance annotations exist only on a GitHub check run.
  if (v.state.phase === "done" && published && pushesToGitHub(v)) {
    const p = provenance(v);
    const summarised =
      p.annotations.length < p.ranges
        ? ` (${p.ranges} changed ranges, summarised to fit GitHub's limits${p.omitted > 0 ? `; ${p.omitted} left out` : ""})`
        : "";
    blocks.push(
      para(
        `${plural(p.annotations.length, "provenance annotation")} on the changed lines of `,
        code(shortSha(published.commit)),
        ` ${p.annotations.length === 1 ? "says" : "say"} which step wrote each line and who allowed it${summarised}.`,
      ),
    );
  }
  return blocks;
}
