#!/usr/bin/env node
// Runs the compiled CLI when dist/ is what src/ compiles to now (bin/dist-freshness.js), else the
// TypeScript sources through tsx: never a dist/ older than the sources beside it.
import "./node-version.js";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { staleDist } from "./dist-freshness.js";

const root = fileURLToPath(new URL("..", import.meta.url));
if (existsSync(new URL("../dist/cli/main.js", import.meta.url)) && staleDist(root) === null) {
  await import("../dist/cli/main.js");
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../src/cli/main.ts");
}
