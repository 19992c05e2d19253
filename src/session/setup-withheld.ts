import type { SetupWithheld } from "./types.js";

/** Why the setup ran offline, in one clause: for the timeline, the check run and the model. */
export function withheldText(w: SetupWithheld): string {
  switch (w.reason) {
    case "workspace_changed":
      return "the session had already changed the workspace, so the setup would run files nobody reviewed";
    case "setup_inputs_changed":
      return `its inputs differ from the default branch's (${(w.paths ?? []).join(", ")}), so they are not the maintainer's`;
    case "default_branch_unknown":
      return "the clone has no default branch to compare its inputs with";
  }
}
