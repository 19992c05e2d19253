#!/usr/bin/env node
// `npm start`: builds only when dist/ is not what src/ compiles to now, then runs the app from dist/.
import "./node-version.js";
import { fileURLToPath } from "node:url";
import { build } from "./build.js";
import { staleDist } from "./dist-freshness.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const stale = staleDist(root);
if (stale !== null) {
  console.error(`building: ${stale}`);
  if (!build(root)) process.exit(1);
}
await import("../dist/main.js");
