/** The local world for the demo, the end-to-end tests and the webhook benchmark. */
export { startHarness, OWNER, REPO, type Harness, type HarnessOptions } from "./harness.js";
export { startApp, type AppInstance, type AppSettings } from "./app-instance.js";
export { storyScript, storySteps, STORY_FILES, STORY_PERMISSIONS, ISSUE, PLAN } from "./story.js";
