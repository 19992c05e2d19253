import { forbidProcessesAndSockets, takeRefusals } from "./process-and-socket-guard.js";

// The unit tier's setup (jest.config.js): before the test file loads, processes and sockets are
// refused; a test that tried one fails even if the code under test caught the refusal.
forbidProcessesAndSockets();

afterEach(() => {
  const refusals = takeRefusals();
  if (refusals.length > 0) throw new Error([...new Set(refusals)].join("\n"));
});
