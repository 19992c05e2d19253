// @ts-check
/**
 * The layers of src/, from the bottom up: the one source that ESLint's import zones are generated
 * from (eslint.config.js), that ARCHITECTURE.md's "## Layers" section draws (`node layers.js --write`),
 * and that test/architecture/ compares with the real import graph.
 *
 * The rule is strict on purpose: a folder imports only folders of the layers below its own, never a
 * folder beside it. So a cycle between folders cannot be written without the lint refusing it, and
 * the table says who may use whom. A top-level file (`index.ts`) is named as it is; a folder as `x/`.
 */

import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

/** @typedef {{ name: string, folders: readonly string[], about: string }} Layer */

/** @type {readonly Layer[]} */
export const LAYERS = [
  { name: "errors", folders: ["errors/"], about: "the error base: a kind, and whether the error ends the session" },
  { name: "core", folders: ["session/"], about: "events, reducer, phases (pure, no I/O)" },
  { name: "rules", folders: ["policy/", "safety/"], about: "decide, never act: allow/ask/deny and the gates; redaction, sanitising, inert text" },
  { name: "processes", folders: ["process/"], about: "every child process starts here, forked by the spawn helper" },
  { name: "records", folders: ["store/", "toolchain/"], about: "the ledger and effect records; the toolchains this host has" },
  { name: "places", folders: ["workspace/", "sandbox/", "queue/"], about: "the clone the agent edits; where commands run; one job per session at a time" },
  { name: "settings", folders: ["config/"], about: "the repository's .github/patchgate.yml and the operator's settings" },
  { name: "caches", folders: ["depcache/"], about: "installed dependencies kept across sessions" },
  { name: "receipts", folders: ["receipt/"], about: "signed receipts of published commits: the key, the DSSE envelope, git notes, verification" },
  { name: "work", folders: ["runs/", "publish/"], about: "sandboxed runs (setup, tests, baseline); what publishing is, whoever publishes" },
  { name: "services", folders: ["tools/", "trace/"], about: "what the model may call; what a session leaves behind (report, spans)" },
  { name: "mcp", folders: ["mcp/"], about: "MCP servers beside the loop, and Patchgate's own server" },
  { name: "loop", folders: ["agent/"], about: "the agent loop: every call goes through call-handler.ts" },
  { name: "apps", folders: ["github/", "eval/"], about: "the GitHub App; the eval runner" },
  { name: "entries", folders: ["cli/", "index.ts"], about: "the command line; Probot's app function" },
  { name: "boot", folders: ["main.ts"], about: "starts the app process" },
];

/**
 * The index in LAYERS of the layer holding `folder` (`agent/` or `index.ts`); -1 when none does.
 * @param {string} folder
 */
export function layerOf(folder) {
  return LAYERS.findIndex((layer) => layer.folders.includes(folder));
}

/**
 * `agent/` → `./src/agent`, `index.ts` → `./src/index.ts`: the paths ESLint's zones take.
 * @param {string} folder
 */
function srcPath(folder) {
  return `./src/${folder.replace(/\/$/, "")}`;
}

/**
 * ESLint `import-x/no-restricted-paths` zones: each folder may import neither a folder of a higher
 * layer nor one beside it in its own (the top layer's only entry has nothing to be kept from).
 */
export function layerZones() {
  return LAYERS.flatMap((layer, level) =>
    layer.folders.map((folder) => ({
      target: srcPath(folder),
      from: LAYERS.flatMap((other, otherLevel) => (otherLevel < level ? [] : other.folders.filter((f) => f !== folder))).map(srcPath),
      message: `src/${folder} is in the layer "${layer.name}": it imports only folders of the layers below it (layers.js).`,
    })),
  ).filter((zone) => zone.from.length > 0);
}

/**
 * Zones for the folders that have a face (`src/<folder>/index.ts`): other folders import them only
 * through it, and a folder never imports its own face (that would be a cycle through it).
 * @param {readonly string[]} faced folders as LAYERS names them (`policy/`)
 */
export function faceZones(faced) {
  const entries = LAYERS.flatMap((layer) => layer.folders);
  return faced.flatMap((folder) => [
    {
      target: entries.filter((f) => f !== folder).map(srcPath),
      from: srcPath(folder),
      except: ["./index.ts"],
      message: `import src/${folder} through its face, src/${folder}index.ts.`,
    },
    { target: srcPath(folder), from: `${srcPath(folder)}/index.ts`, message: `inside src/${folder}, import the defining file, not the folder's own face.` },
  ]);
}

/** ARCHITECTURE.md's "## Layers" section, drawn from LAYERS (top layer first, as imports point down). */
export function layersSection() {
  const width = Math.max(...LAYERS.map((l) => l.name.length)) + 2;
  const cells = LAYERS.map((l) => l.folders.join("  "));
  const cellWidth = Math.max(...cells.map((c) => c.length)) + 2;
  const rows = LAYERS.map((l, i) => ` ${l.name.padEnd(width)}${cells[i].padEnd(cellWidth)}${l.about}`).reverse();
  return [
    "## Layers",
    "",
    "Imports point down, and only down: a folder imports folders of the layers below its own, never one",
    "beside it in its layer, so no two folders import each other. The table is `layers.js`; `eslint.config.js`",
    "generates its import zones from it (`npm run lint`), `test/architecture/import-graph.test.ts` checks",
    "the real imports against it (no upward import, no folder cycle, no file cycle), and this drawing is",
    "generated from it (`node layers.js --write`). Nothing in `src/` imports `test/` or `demo/`.",
    "",
    "A folder may have one face, `src/<folder>/index.ts`, re-exporting what other folders use of it; other",
    "folders then import it only through the face (lint). A folder whose face would load, in an idle app,",
    "what it keeps lazy (`import()`: the model's SDK, the PostgreSQL driver, the schema library, the session",
    "work) has none, and its files are imported by their paths.",
    "",
    "```",
    rows.join(`\n ${"".padEnd(width)}│\n`),
    "```",
    "",
    "The same runtime serves the GitHub App (`github/`), the command line (`cli/`) and the eval runner",
    "(`eval/`): each builds a `ResumeOptions` (`src/agent/runtime-options.ts`) and calls the loop.",
    "",
    "",
  ].join("\n");
}

/**
 * `doc` with its "## Layers" section (up to the next "## ") replaced by the drawing of LAYERS.
 * @param {string} doc
 */
export function withLayersSection(doc) {
  const start = doc.indexOf("## Layers\n");
  const end = doc.indexOf("\n## ", start + 1);
  if (start === -1 || end === -1) throw new Error('ARCHITECTURE.md: no "## Layers" section followed by another section');
  return `${doc.slice(0, start)}${layersSection()}${doc.slice(end + 1)}`;
}

// `node layers.js --write` redraws ARCHITECTURE.md's section; without it, prints the section.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const doc = new URL("ARCHITECTURE.md", import.meta.url);
  if (process.argv.includes("--write")) writeFileSync(doc, withLayersSection(readFileSync(doc, "utf8")));
  else process.stdout.write(layersSection());
}
