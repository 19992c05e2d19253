import { defaultSlots } from "../../../src/github/scale-out.js";

const GiB = 2 ** 30;

/** PATCHGATE_WORKER_SLOTS' default (README "How much runs at once"): one per core, no more than one per 2 GiB, at least one. */
describe("a worker's default session slots", () => {
  test.each([
    [8, 32 * GiB, 8],
    [16, 24 * GiB, 12],
    [8, 6 * GiB, 3],
    [2, 3 * GiB, 1],
    [4, 1 * GiB, 1],
    [1, 64 * GiB, 1],
  ])("%i cores and %i bytes: %i", (cores, memory, slots) => {
    expect(defaultSlots(cores, memory)).toBe(slots);
  });
});
