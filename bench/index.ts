/**
 * `npm run bench`: every figure is a ratio measured side by side in one run on this machine,
 * so a noisy neighbour slows both sides alike. Targets are printed next to the numbers, never asserted.
 */
import { benchSandbox } from "./sandbox.js";
import { benchContext } from "./context.js";
import { benchWebhook } from "./webhook.js";
import { benchPromptCache } from "./prompt-cache.js";
import { benchDependencyCache } from "./dependency-cache.js";

const suites: [string, () => Promise<string[]>][] = [
  ["sandbox", benchSandbox],
  ["context", benchContext],
  ["webhook", benchWebhook],
  ["prompt-cache", benchPromptCache],
  ["dependency-cache", benchDependencyCache],
];

const only = process.argv.slice(2);
for (const [name, run] of suites) {
  if (only.length > 0 && !only.includes(name)) continue;
  console.log(`\n## ${name}`);
  for (const line of await run()) console.log(line);
}
