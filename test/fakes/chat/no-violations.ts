import { takeInProcessViolations } from "./in-process.js";

// Loaded for every test file (jest.config.js): no test passes with a request a provider would refuse.
afterEach(() => {
  const violations = takeInProcessViolations();
  if (violations.length > 0) throw new Error(`requests broke the chat-completions wire contract:\n${violations.join("\n")}`);
});
