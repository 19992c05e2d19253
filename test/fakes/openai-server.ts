// The one fake chat-completions provider, with OpenAI's wire rules (and each provider's own): every
// test, the demo and the eval tests use it.
export { startFakeOpenAI, type FakeOpenAIOptions, type FakeOpenAIServer, type RecordedChatRequest, type RecordedViolation } from "./chat/server.js";
export type { FakeStep, FakeTurn } from "./chat/turns.js";
export type { ProviderName } from "./chat/providers.js";
export { scriptAnswerTurns } from "./chat/script-answers.js";
