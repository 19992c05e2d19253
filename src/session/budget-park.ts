/** Where a session parked by the operator's budget stands: the ceiling reached, and where it goes on. */
export interface BudgetPark {
  scope: "installation" | "repository";
  unit: "usd" | "tokens";
  ceiling: number;
  spent: number;
  /** The phase the session was in, which it goes back to once the ceiling is raised. */
  resumeIn: "planning" | "executing";
}

export interface SessionBudget {
  /** USD humans added to the operator's ceilings for this session, in total. */
  raisedUsd: number;
  parked: BudgetPark | null;
}
