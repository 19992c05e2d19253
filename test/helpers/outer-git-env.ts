/**
 * Git reads where to work from the environment (GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE…). A suite
 * started from inside git — a hook, `git bisect run`, `git rebase --exec` — inherits them, and every
 * fixture, fake remote and workspace would then act on the repository the suite was started from (it
 * once turned a checkout into a bare repository). Each test file starts without them.
 */
export function dropOuterGitEnv(env: NodeJS.ProcessEnv): string[] {
  const dropped = Object.keys(env).filter((k) => k.startsWith("GIT_"));
  for (const k of dropped) delete env[k];
  return dropped;
}

dropOuterGitEnv(process.env);
