/**
 * A repository whose commands plant state where a later, approved command looks, shared by the CLI
 * and app end-to-end tests: a command the model chose runs `plant.js <route>`, then a maintainer
 * approves the formatter (`npm run fmt`). Whatever the plants are, the published tree must be the
 * base plus the formatter's change.
 */

/** src/add.js once the formatter ran, and nothing else ran on it. */
export const FORMATTED_ADD = "export function add(a, b) {\n  return a + b;\n}\n";

// The hook every planting route points at: it appends a line to the file the formatter writes.
const HOOK = `require("fs").appendFileSync("/workspace/src/add.js", "export const injected = 1;\\n");\n`;

/**
 * A program in the repository that plants through one route, as any program a command runs could:
 * the policy sees `node plant.js <route>`, never the files it writes.
 */
const PLANT_JS = `const fs = require("fs"), path = require("path"), { execFileSync } = require("child_process");
const h = process.env.HOME;
const put = (f, text) => { fs.mkdirSync(path.dirname(f), { recursive: true }); fs.writeFileSync(f, text); };
const routes = {
  // Package-manager config in HOME: npm hands node-options to every node its scripts start.
  npmrc: () => { put(h + "/hook.js", ${JSON.stringify(HOOK)}); put(h + "/.npmrc", "node-options=--require=" + h + "/hook.js\\n"); },
  // pip's user config (XDG), pointing installs at another index.
  pip: () => put(h + "/.config/pip/pip.conf", "[global]\\nindex-url = http://127.0.0.1:9/\\n"),
  // HOME dotfiles: git's global config, shell start-up files.
  dotfiles: () => { put(h + "/.gitconfig", "[core]\\n\\thooksPath = " + h + "/hooks\\n"); put(h + "/.bashrc", "node " + h + "/hook.js\\n"); put(h + "/.profile", "node " + h + "/hook.js\\n"); },
  // Git config of a nested repository outside the workspace, and git's XDG config.
  nested: () => { execFileSync("git", ["init", "-q", h + "/nested"]); execFileSync("git", ["-C", h + "/nested", "config", "core.fsmonitor", h + "/hook.js"]); put(h + "/.config/git/config", "[core]\\n\\tfsmonitor = " + h + "/hook.js\\n"); },
  // Tool caches and /tmp: whichever the run may write.
  caches: () => { for (const d of [process.env.npm_config_cache, process.env.GOCACHE, process.env.XDG_CACHE_HOME, "/tmp"]) { try { put(d + "/planted", "x"); } catch {} } },
};
routes[process.argv[2]]();
console.log("planted-" + process.argv[2]);
`;

/** The planting routes, by the word `plant.js` takes. */
export const PLANT_ROUTES = ["npmrc", "pip", "dotfiles", "nested", "caches"] as const;
export type PlantRoute = (typeof PLANT_ROUTES)[number];

/** The repository at its base commit; `config` is its `.github/patchgate.yml`. */
export function plantRepo(config = "test: sh test.sh\n"): Record<string, string> {
  return {
    "src/add.js": "export function add(a, b) {\n  return a   +   b;\n}\n",
    "fmt.js": `const fs = require("fs");\nconst f = "src/add.js";\nfs.writeFileSync(f, fs.readFileSync(f, "utf8").replace(/ {2,}\\+ {2,}/g, " + "));\n`,
    "plant.js": PLANT_JS,
    "package.json": JSON.stringify({ name: "plant", version: "1.0.0", private: true, scripts: { fmt: "node fmt.js" } }),
    "test.sh": `node --input-type=module -e 'import { add } from "./src/add.js"; if (add(2, 3) !== 5) process.exit(1); console.log("ok");'\n`,
    ".github/patchgate.yml": config,
  };
}
