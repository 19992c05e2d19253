/**
 * The process's own environment, for what is not the operator's configuration
 * (src/config/operator-env.ts has that): the variables a child process inherits (git, docker, MCP
 * servers), what describes the host (HOME, PATH, the version managers' roots, the package
 * registries' settings) and the secret-looking values to redact. With operator-env.ts, the only
 * place in src/ that touches `process.env` (ESLint holds the rest of src/ to it).
 */
export function hostEnvironment(): NodeJS.ProcessEnv {
  return process.env;
}

/** Sets `vars` in this process's environment; returns the undo, which restores what was there. */
export function setHostVariables(vars: Readonly<Record<string, string>>): () => void {
  const before = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  return () => {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
}
