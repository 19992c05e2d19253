/**
 * `npm run bench`: every figure is a ratio measured side by side in one run on this machine (or an
 * absolute amount where the goal is one), so a noisy neighbour slows both sides alike. Prints one
 * markdown table (details of each suite go to stderr); `--json` prints the figures as one object;
 * `--only <id>[,<id>…]` runs only the suites of those figures. Goals are printed, never asserted.
 */
import os from "node:os";
import { notMeasured, type FigureResult } from "./figure.js";
import { FIGURE_IDS, SUITES, type Suite } from "./suites.js";
import { renderTable, toJson, type Row } from "./table.js";

const USAGE = `usage: npm run bench -- [--json] [--only <figure-id>[,<figure-id>…]]
figure ids: ${FIGURE_IDS.join(", ")}`;

function parseArgs(argv: string[]): { json: boolean; only: Set<string> | null } | string {
  let json = false;
  let only: Set<string> | null = null;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--json") json = true;
    else if (a === "--only" || a.startsWith("--only=")) {
      const value = a === "--only" ? argv[++i] : a.slice("--only=".length);
      if (!value) return "--only needs one or more figure ids";
      only ??= new Set();
      for (const id of value.split(",").filter(Boolean)) {
        if (!FIGURE_IDS.includes(id)) return `unknown figure id: ${id}`;
        only.add(id);
      }
    } else if (a === "--help" || a === "-h") return "";
    else return `unknown argument: ${a}`;
  }
  return { json, only };
}

async function runSuite(suite: Suite): Promise<Record<string, FigureResult>> {
  const absent = (why: string) => Object.fromEntries(suite.figures.map((f) => [f.id, notMeasured(why, f.goal, f.better)]));
  const started = performance.now();
  try {
    const run = await suite.load();
    if (run === null) return absent("its bench module is not in this checkout yet");
    const got = await run();
    console.error(`bench: ${suite.name} took ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return got;
  } catch (e) {
    // A suite that breaks is reported as such, never as a number.
    console.error(`bench: ${suite.name} failed:`, e);
    return absent(`the suite failed: ${(e as Error).message.split("\n")[0]}`);
  }
}

const args = parseArgs(process.argv.slice(2));
if (typeof args === "string") {
  if (args) console.error(args);
  console.error(USAGE);
  process.exit(args ? 2 : 0);
}
const load = (): string =>
  `load average ${os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")} on ${os.cpus().length} cores`;
console.error(`bench: ${new Date().toISOString()}, ${load()}`);
const rows: Row[] = [];
for (const suite of SUITES) {
  const wanted = suite.figures.filter((f) => args.only === null || args.only.has(f.id));
  if (wanted.length === 0) continue;
  const results = await runSuite(suite);
  for (const f of wanted) {
    const r = results[f.id] ?? notMeasured("the suite returned no value for it", f.goal, f.better);
    // The catalogue's goal is the one judged; a module cannot move its own bar.
    rows.push({ id: f.id, title: f.title, result: { ...r, goal: f.goal, better: f.better ?? "lower" } });
  }
}
console.error(`bench: done, ${load()}`);
if (args.json) console.log(JSON.stringify(toJson(rows), null, 2));
else console.log(renderTable(rows));
