import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";
import { renderCheckRun } from "../../src/trace/check-run.js";
import { OUTCOMES } from "./fixtures/outcomes.js";

/**
 * The done case as a reviewer sees it: the check run's markdown rendered by a GFM renderer
 * (micromark, raw HTML allowed as GitHub allows <details>), shot in headless Chromium. The PNGs are
 * kept under test-output/report-screenshot/ (gitignored) to be looked at; the test checks they exist
 * and have the page's size. Without Chromium it skips with one line, except under CI (PATCHGATE_CI).
 */
const OUT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "test-output", "report-screenshot");
const CHROMIUM = ["chromium", "chromium-browser"].find((c) => {
  try {
    execFileSync("which", [c], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
});

const STYLE = `body{font:14px/1.5 -apple-system,"Segoe UI",Helvetica,Arial,sans-serif;color:#1f2328;max-width:880px;margin:24px auto;padding:0 16px}
h2,h3{border-bottom:1px solid #d1d9e0;padding-bottom:.3em}code{background:#eff1f3;border-radius:6px;padding:.2em .4em;font-size:85%}
pre{background:#f6f8fa;padding:16px;border-radius:6px}pre code{background:none;padding:0}table{border-collapse:collapse}
td,th{border:1px solid #d1d9e0;padding:6px 13px}blockquote{color:#59636e;border-left:.25em solid #d1d9e0;margin:0;padding:0 1em}
details{margin:4px 0}summary{cursor:pointer}hr{border:0;border-top:1px solid #d1d9e0}`;

/** The check run page: its title (as GitHub shows it above the summary) and the rendered markdown. */
function page(title: string | null, markdown: string): string {
  const body = micromark(markdown, { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml()] });
  return `<!doctype html><html><head><meta charset="utf-8"><style>${STYLE}</style></head><body>${title ? `<h2>${title}</h2>` : ""}${body}</body></html>`;
}

function shoot(html: string, name: string, height: number): string {
  const file = join(OUT, `${name}.html`);
  const png = join(OUT, `${name}.png`);
  writeFileSync(file, html);
  rmSync(png, { force: true });
  const profile = mkdtempSync(join(tmpdir(), "pg-chromium-"));
  try {
    const flags = [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      `--user-data-dir=${profile}`,
    ];
    execFileSync(CHROMIUM!, [...flags, "--hide-scrollbars", `--window-size=1000,${height}`, `--screenshot=${png}`, `file://${file}`], {
      stdio: "ignore",
      timeout: 60_000,
    });
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
  return png;
}

/** Width and height from the PNG's IHDR chunk. */
function pngSize(file: string): { width: number; height: number } {
  const b = readFileSync(file);
  expect(b.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

test("the done check run rendered and shot in headless Chromium", () => {
  if (!CHROMIUM) {
    if (process.env.PATCHGATE_CI) throw new Error("chromium is required under CI (.ci/run installs it)");
    console.log("skipped: the screenshot test needs chromium (apt-get install -y chromium)");
    return;
  }
  mkdirSync(OUT, { recursive: true });
  const s = OUTCOMES.done();
  const out = renderCheckRun(s.state, s.events, { sessionId: s.sessionId });
  const summary = shoot(page(out.title, out.summary), "done-summary", 2000);
  // The timeline as GitHub shows it (steps collapsed), and with every step opened.
  const collapsed = shoot(page(null, out.text), "done-timeline", 700);
  const opened = shoot(page(null, out.text.replace(/<details>/g, "<details open>")), "done-timeline-open", 2300);
  for (const png of [summary, collapsed, opened]) {
    expect(existsSync(png)).toBe(true);
    expect(pngSize(png).width).toBe(1000);
  }
});
