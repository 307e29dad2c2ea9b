/**
 * A loopback "provider" that accepts connections and does not answer (a recording call that
 * hangs). After `dropAfterMs` it drops each connection, so the runner's process can exit: a
 * socket that stays open forever keeps jest and node:test waiting for it.
 */
import * as net from "node:net";

export async function startHangingServer(dropAfterMs = 3000): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    setTimeout(() => s.destroy(), dropAfterMs).unref();
    s.on("close", () => sockets.delete(s));
    s.on("error", () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
