/** The flags of every command that drives a session at the terminal (`run` and `resume`): one meaning each. */
export const SESSION_OPTIONS = {
  "approve-plan": { type: "boolean", default: false },
  "approve-writes": { type: "boolean", default: false },
  out: { type: "string" },
  "data-dir": { type: "string" },
  "mcp-config": { type: "string" },
  settings: { type: "string" },
  /** Every line of setup, test and command output as it comes, instead of the last lines and the counts. */
  verbose: { type: "boolean", default: false },
} as const;
