// Module hooks (node --import …/module-recorder.mjs): every module URL this process resolves is
// appended, one per line, to the file named by PATCHGATE_TEST_LOADED. Only ESM resolution passes here
// (a CommonJS require inside a package does not), which names each package by its entry at least.
import { appendFileSync } from "node:fs";
import { isMainThread } from "node:worker_threads";

export async function resolve(specifier, context, next) {
  const found = await next(specifier, context);
  if (process.env.PATCHGATE_TEST_LOADED) appendFileSync(process.env.PATCHGATE_TEST_LOADED, `${found.url}\n`);
  return found;
}

if (isMainThread) {
  const { register } = await import("node:module");
  register(import.meta.url);
}
