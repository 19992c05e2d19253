import { allowProcessesAndSockets } from "./process-and-socket-guard.js";

// The integration and slow tiers' setup (jest.config.js): real processes and sockets, even in a
// worker whose previous file was a unit test.
allowProcessesAndSockets();
