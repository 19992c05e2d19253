import { z } from "zod";
import { INTEGRITY_ALLOWANCES } from "../policy/test-integrity/allowances.js";
import { parseAllowEntry } from "../sandbox/egress/allow-rule.js";
import { AutomationsSchema } from "./automations.js";

/**
 * Without a cap a model stuck in a loop spends until someone notices; every session gets one unless
 * `.github/patchgate.yml` (or the CLI's --max-cost-usd) sets another.
 */
export const DEFAULT_MAX_COST_USD = 5;

/** A session that needs more than a few answers before it can plan needs a better issue. */
const DEFAULT_MAX_QUESTIONS = 3;

/**
 * One `policy.allow_commands` entry: the exact words of a command (`prettier --check`), or those words
 * plus the extra words allowed after them, each matching one of `extra_args`.
 */
const AllowCommandSchema = z.union(
  [
    z.string().min(1),
    z
      .object({
        command: z.string().min(1).describe("The words that start the command, e.g. `prettier --check`."),
        extra_args: z
          .array(
            z
              .string()
              .min(1)
              .refine((p) => !p.startsWith("/") && !p.split("/").includes(".."), { message: "a glob relative to the repository, without `..`" }),
          )
          .min(1)
          .max(50)
          .describe("Globs each extra word must match, e.g. `src/**` or `--cache`; an option is allowed only by a glob that starts with `-`."),
      })
      .strict(),
  ],
  { error: "the words of a command (`prettier --check`), or `{command, extra_args: [globs]}`" },
);

/** A glob of paths in the repository, as `tests.paths` and `tests.golden` take them. */
const RepoGlobSchema = z
  .string()
  .min(1)
  .max(300)
  .refine((p) => !p.startsWith("/") && !p.split("/").includes(".."), { message: "a glob relative to the repository, without `..`" });

/**
 * `tests`: what the test-integrity check reads as tests, and what it may let through. Without it the
 * check uses the ecosystems' conventions and asks about every finding.
 */
const TestsSchema = z
  .object({
    paths: z
      .array(RepoGlobSchema)
      .min(1)
      .max(100)
      .optional()
      .describe(
        "Globs of the test files, instead of the defaults (`**/*.test.*`, `**/*.spec.*`, `**/test/**`, `**/tests/**`, `**/__tests__/**`, `**/*_test.go`, `**/test_*.py`, `**/*_test.py`).",
      ),
    allow: z
      .array(z.enum(INTEGRITY_ALLOWANCES))
      .max(INTEGRITY_ALLOWANCES.length)
      .optional()
      .describe(
        "Changes to the tests expected in every session, published without a test_integrity approval: snapshots, test_config, fewer_tests, skips, deleted_tests.",
      ),
    golden: z.array(RepoGlobSchema).max(100).optional().describe("Globs of golden files, judged like snapshots (`__snapshots__/**`, `*.snap`)."),
  })
  .strict();

/**
 * `.github/patchgate.yml`, read from the default branch only. Every field optional: an empty file is valid.
 * Names are snake_case because maintainers write them in YAML.
 */
export const RepoConfigSchema = z
  .object({
    setup: z.string().min(1).optional().describe("Command that installs dependencies, e.g. `npm ci`. Runs before tests."),
    test: z.string().min(1).optional().describe("Command whose exit code 0 means the tests pass, e.g. `npm test`."),
    tests: TestsSchema.optional().describe("What the test-integrity check reads as tests and golden files, and which changes to them it lets through."),
    gate: z
      .enum(["all_pass", "no_new_failures"])
      .default("all_pass")
      .describe("When finish is allowed: every test passes, or no test fails that passed on the base tree (failures named in the output)."),
    timeouts: z
      .object({
        setup_seconds: z.number().int().positive().max(3600).default(600).describe("Wall-clock limit of the setup step."),
        test_seconds: z.number().int().positive().max(3600).default(300).describe("Wall-clock limit of one test run."),
        command_seconds: z.number().int().positive().max(3600).default(120).describe("Wall-clock limit of run_command."),
      })
      .strict()
      .default({ setup_seconds: 600, test_seconds: 300, command_seconds: 120 }),
    sandbox: z
      .object({
        backend: z.enum(["auto", "bubblewrap", "docker"]).default("auto").describe("auto = docker if an engine answers, else bubblewrap."),
        network_for_setup: z
          .boolean()
          .default(true)
          .describe(
            "Network access for the setup step only, through the egress proxy: the package registries and allow_hosts. false keeps setup offline (package managers then fail at once instead of retrying).",
          ),
        allow_hosts: z
          .array(z.string().refine((h) => parseAllowEntry(h) !== null, { message: "not a host name, `*.domain` or `host:port`" }))
          .max(100)
          .default([])
          .describe(
            "Hosts a networked setup may reach besides the package registries, e.g. `nodejs.org` or `*.githubusercontent.com`; private and loopback addresses are refused anyway.",
          ),
        image: z.string().default("node:20-bookworm").describe("Image for the docker backend."),
        max_processes: z.number().int().positive().default(256).describe("Process limit inside the sandbox."),
        memory_mb: z.number().int().positive().default(2048).describe("Memory limit inside the sandbox."),
        disk_mb: z
          .number()
          .int()
          .positive()
          .default(2048)
          .describe(
            "Disk a run may fill: /tmp's size, the largest file, what one run may write to the workspace (a run over it keeps nothing), and what the session's runs may leave there in all.",
          ),
        cpu_seconds: z.number().int().positive().default(300).describe("CPU time per process; beyond it the process gets SIGXCPU."),
        max_output_kb: z.number().int().positive().default(1024).describe("Output cap per stream; head and tail are kept."),
      })
      .strict()
      .default({
        backend: "auto",
        network_for_setup: true,
        allow_hosts: [],
        image: "node:20-bookworm",
        max_processes: 256,
        memory_mb: 2048,
        disk_mb: 2048,
        cpu_seconds: 300,
        max_output_kb: 1024,
      }),
    policy: z
      .object({
        allow_commands: z
          .array(AllowCommandSchema)
          .default([])
          .describe(
            "Commands run without asking: exactly these words (`prettier --check`), or `{command, extra_args}` to allow extra words matching the globs. Shells, xargs, env -S, env -C, find -exec, make, git -c/-C and package-manager scripts ask anyway.",
          ),
        deny_commands: z.array(z.string()).default([]).describe("Command prefixes always refused."),
        protected_paths: z.array(z.string()).default([]).describe("Extra globs the agent may never write."),
        executable_config: z
          .array(z.string())
          .default([])
          .describe("Extra globs of executable configuration: writing one needs its own approval, like the built-in table (which no entry here can shrink)."),
      })
      .strict()
      .default({ allow_commands: [], deny_commands: [], protected_paths: [], executable_config: [] }),
    approvals: z
      .object({
        plan: z
          .enum(["any", "not_requester"])
          .default("any")
          .describe("not_requester: whoever asked for the session cannot approve its plan; another person with write access must."),
        writes: z
          .enum(["any", "not_requester"])
          .default("any")
          .describe("not_requester: whoever asked for the session cannot approve its writes (a batch, or the agent:writes-approved label)."),
        grants: z
          .enum(["any", "not_requester"])
          .default("any")
          .describe(
            "not_requester: whoever asked for the session cannot approve a grant the agent asks for (a host, budget or time); another person with write access must.",
          ),
      })
      .strict()
      .default({ plan: "any", writes: "any", grants: "any" }),
    instructions: z
      .string()
      .regex(/^(?!\/)(?!.*(?:^|\/)\.\.?(?:\/|$))[\w./-]+$/, "a relative path inside the repository, e.g. docs/agents.md")
      .max(300)
      .optional()
      .describe(
        "The file of instructions for agents, read from the default branch, instead of .github/patchgate/instructions.md, AGENTS.md, .github/copilot-instructions.md, CLAUDE.md.",
      ),
    limits: z
      .object({
        max_steps: z.number().int().positive().optional().describe("Model calls per session."),
        max_tokens: z.number().int().positive().optional().describe("Prompt + completion tokens per session."),
        max_cost_usd: z.number().positive().default(DEFAULT_MAX_COST_USD).describe("Estimated cost per session (judged where the model's price is known)."),
        max_questions: z
          .number()
          .int()
          .min(0)
          .max(20)
          .default(DEFAULT_MAX_QUESTIONS)
          .describe("Questions the agent may ask the maintainers while planning (ask_human); 0 turns the tool off."),
        monthly_cost_usd: z.number().positive().optional().describe("This repository's monthly spend ceiling; lowers the operator's, never raises it."),
        monthly_tokens: z.number().int().positive().optional().describe("This repository's monthly token ceiling; lowers the operator's, never raises it."),
        daily_sessions_per_requester: z
          .number()
          .int()
          .positive()
          .optional()
          .describe("Sessions one person may start here in a UTC day; lowers the operator's, never raises it."),
      })
      .strict()
      .default({ max_cost_usd: DEFAULT_MAX_COST_USD, max_questions: DEFAULT_MAX_QUESTIONS }),
    automations: AutomationsSchema.optional(),
  })
  .strict();

export type RepoConfig = z.infer<typeof RepoConfigSchema>;

export { REPO_CONFIG_PATH } from "../policy/well-known-paths.js";

export const DEFAULT_REPO_CONFIG: RepoConfig = RepoConfigSchema.parse({});
