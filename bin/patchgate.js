#!/usr/bin/env node
// Runs the compiled CLI when built (npm run build), else the TypeScript sources through tsx.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const built = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
if (existsSync(built)) {
  await import(built);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../src/cli/main.ts");
}
