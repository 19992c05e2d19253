import { z } from "zod";

/**
 * A variable of the operator's environment: what it does (with its unit) and what applies when it is
 * unset. The value is the raw string; the reader that owns its meaning (llm-config, resource-limits,
 * housekeeping-env…) checks it and fails with one line naming the variable, and the app runs those
 * readers once at start (startup-env.ts).
 */
function variable(meaning: string, unset: string) {
  return z.string().optional().describe(meaning).meta({ unset });
}

/**
 * Every variable Patchgate (and Probot, for the app) reads from its environment, in the order the
 * configuration table lists them; docs/configuration.md's table is generated from it
 * (`npm run docs:env`) and test/docs/operator-env-doc.test.ts keeps the two equal. The app does not
 * load it (an idle app loads no schema library): operator-env.ts reads the variables it names.
 */
export const OperatorEnvSchema = z.object({
  APP_ID: variable("the GitHub App's id (Probot reads it; without it `npm start` runs the app's manifest setup flow)", "setup flow"),
  PRIVATE_KEY: variable("the GitHub App's private key, PEM (Probot reads it; literal `\\n` accepted)", "setup flow"),
  WEBHOOK_SECRET: variable("the secret GitHub signs deliveries with (Probot checks it)", "setup flow"),
  GHE_HOST: variable("GitHub Enterprise Server's host: the API and git both use it", "github.com"),
  GHE_PROTOCOL: variable("the protocol for `GHE_HOST`", "`https`"),
  OPENAI_API_KEY: variable("key for the chat-completions endpoint", "required"),
  OPENAI_BASE_URL: variable("any OpenAI-compatible server", "OpenAI"),
  PATCHGATE_MODEL: variable("model name", "`gpt-4.1-mini`"),
  PATCHGATE_DATA_DIR: variable("SQLite file (`patchgate.sqlite`) and workspaces", "`~/.patchgate`"),
  DATABASE_URL: variable(
    "`postgres://…` (or `postgresql://…`): the store is that PostgreSQL database instead of the SQLite file; its schema is migrated at start (`patchgate_migrations` records the steps); any other scheme stops the app. See [Scaling out](scaling-out.md)",
    "SQLite",
  ),
  PATCHGATE_WORKER_SLOTS: variable(
    "sessions one `patchgate worker` drives at once (a session's lane held under a lease); beyond it sessions wait in PostgreSQL, fairly by installation; a parked session holds no slot. `npm start` has no such limit (see [How much runs at once](scaling-out.md#how-much-runs-at-once))",
    "one per core, at most one per 2 GiB of memory, at least 1",
  ),
  PATCHGATE_MAX_CLONES: variable(
    "clones (and workspace rebuilds) one process runs at once, across all its sessions (`npm start` and each worker alike)",
    "one per core, at least 2",
  ),
  PATCHGATE_MAX_SANDBOX_RUNS: variable(
    "sandboxed runs (setup, tests, commands) one process runs at once, across all its sessions; a run waits for a slot, a stopped session stops waiting",
    "one per core, at least 2",
  ),
  PATCHGATE_LEASE_SECONDS: variable("how long a worker's lease on a session lasts without a heartbeat (renewed every second while it runs)", "15"),
  PATCHGATE_WORKSPACE_RETENTION_HOURS: variable(
    "how long the workspace and per-session cache of an ended session (done, failed, cancelled, blocked) stay on disk for a retry to reuse; then they are removed (see [Housekeeping](scaling-out.md#housekeeping)); `0`: at the next pass",
    "`72`",
  ),
  PATCHGATE_MIRROR_MAX_AGE_DAYS: variable(
    "one bare mirror per repository under `<data dir>/mirrors`, fetched (with the job's token, never stored) when a session starts; sessions clone by reference to it, so a second session on a large repository takes about a checkout's time. A mirror unused this long is removed; `0` turns mirrors off (every session clones in full)",
    "`14`",
  ),
  PATCHGATE_MIRROR_MAX_GB: variable("beyond this total size the least recently used mirrors are removed", "`20`"),
  PATCHGATE_MIN_FREE_DISK_GB: variable(
    "the disk-low guard: while less than this many GiB are free under the data directory, a new session is refused with a comment (running sessions go on); `0` turns it off",
    "`2`",
  ),
  PATCHGATE_HEALTH_TOKEN: variable(
    "bearer token for the details of [`GET /patchgate/health`](scaling-out.md#health); without it the route answers counts only",
    "none (counts only)",
  ),
  PATCHGATE_PRICES: variable(
    'JSON price table merged over the built-in one, e.g. `{"my-model": {"promptPerMTok": 1, "completionPerMTok": 3}}`; unknown models get cost `null`, never a guess',
    "built-in table",
  ),
  PATCHGATE_MCP_CONFIG: variable("the operator's [MCP servers](mcp.md) (a JSON file); a broken file stops the app, naming the field", "none"),
  PATCHGATE_SETTINGS: variable(
    "the operator's settings (YAML or JSON; the CLI's `--settings` too): what widens the sandbox, which a repository never may — see [Toolchains](toolchains.md); a broken file stops the app, naming the field",
    "none",
  ),
  PATCHGATE_CA_BUNDLE: variable(
    "a PEM file of the CA certificates networked setups trust (behind a TLS-intercepting proxy: its CA plus the public roots, since npm, pip and OpenSSL replace their roots with it); copied at start to `<data dir>/ca-bundle.pem` and bound read-only into setup, see [Setup and tests](setup-and-tests.md#the-operators-ca-certificates); a missing or empty file stops the start, naming it",
    "the host's `NODE_EXTRA_CA_CERTS` file and system bundle",
  ),
  PATCHGATE_PRIVATE_DESTINATIONS: variable(
    "names networked runs and private registries may reach although they resolve to a loopback, private or the host's own address: exact `host` or `host:port` entries (no wildcards; without a port, 443 and 80), separated by commas or spaces. It allows no host by itself: a run still reaches one only when its allow list or a grant names it, see [Setup and tests](setup-and-tests.md#private-destinations); a bad entry stops the start, naming it",
    "none: every private address is refused",
  ),
  PATCHGATE_RECONCILE_MINUTES: variable("how often failed webhook deliveries are asked for again (`0`: never)", "`10`"),
  PATCHGATE_CHECK_RUN_THROTTLE_MS: variable("between milestones, a session's check run is updated at most once in this many milliseconds", "`5000`"),
  PATCHGATE_LLM_PROVIDER: variable(
    "`openai`, `azure` or `compatible` (anything else OpenAI-compatible); decides the `max_tokens` field name and Azure's URL and auth",
    "from `OPENAI_BASE_URL`'s host",
  ),
  OPENAI_API_VERSION: variable("Azure OpenAI's `api-version`", "`2024-10-21`"),
  PATCHGATE_LLM_TIMEOUT_S: variable("longest wait for the answer to start and between two streamed chunks; a stalled stream is retried", "60"),
  PATCHGATE_LLM_TOTAL_TIMEOUT_S: variable("cap on one model request, however steadily it streams", "600"),
  PATCHGATE_LLM_RETRIES: variable(
    "retries of a transient failure (timeout, 408, 409, 429, 5xx, a 200 carrying an error, a broken stream), with backoff and `retry-after`",
    "4",
  ),
  PATCHGATE_LLM_MAX_TOKENS: variable("output cap per answer (`max_completion_tokens` for OpenAI/Azure, `max_tokens` elsewhere)", "provider's default"),
  PATCHGATE_LLM_MAX_TOKENS_RAISED: variable("after an answer is cut at the cap, later requests ask for this many instead (raised once)", "no raise"),
  PATCHGATE_LLM_CONTEXT_TOKENS: variable(
    "the model's context window; compaction's thresholds derive from it (about 1k tokens of conversation for an 8k window, 16k for 32k)",
    "compaction at 24k tokens, estimated from bytes (3 per token: about 18k–20k o200k tokens of code)",
  ),
  PATCHGATE_LLM_REASONING_EFFORT: variable("`reasoning_effort` sent with every request (`minimal`…`high`; DeepSeek also `max`)", "not sent"),
  PATCHGATE_LLM_PARALLEL_TOOL_CALLS: variable("`parallel_tool_calls` sent with every request (`true`/`false`)", "not sent"),
  PATCHGATE_LLM_STRICT_TOOLS: variable(
    "`true`: tool schemas made strict-compatible (every property required, optional ones nullable, no extra properties) and sent with `strict: true`",
    "`false`",
  ),
  PATCHGATE_LLM_STREAM: variable("`false` for a server that cannot stream; answers are then read whole", "`true`"),
  PATCHGATE_REASONING_KEY: variable(
    "64 hex characters: the key that seals provider reasoning in the ledger (set it where several machines share one store)",
    "a key file `reasoning.key` in `PATCHGATE_DATA_DIR`",
  ),
  PATCHGATE_SIGNING_KEY: variable(
    "the Ed25519 private key (PEM; literal `\\n` accepted) that signs the receipt of every published commit (see [Receipts](receipts.md)); set it, or the file below, where several machines publish. Never the GitHub App's key",
    "a key created on first use in `PATCHGATE_DATA_DIR/signing-key/`",
  ),
  PATCHGATE_SIGNING_KEY_FILE: variable("a file holding that key (PEM), instead of the variable", "as above"),
  PATCHGATE_PUBLIC_URL: variable(
    "the app's public base URL (`https://patchgate.example.com`): the check run's receipt section points verifiers at `<it>/patchgate/keys`; a value that is not an http(s) URL stops the app",
    "the section says to take the key from `patchgate keys --json` on the deployment",
  ),
  OTEL_EXPORTER_OTLP_ENDPOINT: variable("OpenTelemetry collector to export spans to (`/v1/traces` is appended); unset, no tracing is loaded", "no tracing"),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: variable("the traces URL itself, used as given (wins over `OTEL_EXPORTER_OTLP_ENDPOINT`)", "no tracing"),
  OTEL_SERVICE_NAME: variable("the service name on exported spans", "`patchgate`"),
  PATCHGATE_HEARTBEAT_MS: variable("how often the CLI's status line on a terminal is redrawn, in milliseconds", "`5000`"),
});

/** The operator's variables, each the raw string or absent; nothing else of the process's environment. */
export type OperatorEnv = Readonly<z.infer<typeof OperatorEnvSchema>>;
