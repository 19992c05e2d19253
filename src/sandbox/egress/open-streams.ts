import type { Server } from "node:http";
import type { Duplex } from "node:stream";

/**
 * Every connection a host-side server of a run opened: the ones it accepted and the upstream ones it
 * made. A run's clients may keep theirs alive, so closing must end them all, not wait for them.
 */
export class OpenStreams {
  private readonly open = new Set<Duplex>();

  readonly track = (s: Duplex): void => {
    this.open.add(s);
    s.once("close", () => this.open.delete(s));
  };

  /** Listens on `socketPath` with every accepted connection tracked; the function returned closes the server and ends them all. */
  async listen(server: Server, socketPath: string): Promise<() => Promise<void>> {
    server.on("connection", this.track);
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(socketPath, () => resolve());
    });
    return () =>
      new Promise<void>((resolve) => {
        for (const s of this.open) s.destroy();
        server.close(() => resolve());
      });
  }
}
