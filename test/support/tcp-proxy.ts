import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A loopback TCP proxy in front of a real server (PostgreSQL, Redis), to make an outage on
 * demand. `cut()` resets every open connection and refuses new ones (a dependency that refuses);
 * `stall()` makes it silent instead (a black hole or a partition): new connections are accepted
 * and never forwarded, open ones stop carrying bytes either way. A stalled connection stays
 * silent for good (as after a partition whose connection state the network lost): `restore()`
 * forwards only connections opened after it, and the client must notice and reconnect.
 */
export class TcpProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private stalled = false;
  /** Connections held silent since a `stall()` (both ends of open ones, the client end of new ones). */
  private readonly held = new Set<Socket>();

  private constructor(
    private readonly target: { host: string; port: number },
    readonly port: number,
  ) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const probe = createServer();
    const port = await new Promise<number>((resolve) => probe.listen(0, '127.0.0.1', () => resolve((probe.address() as AddressInfo).port)));
    await new Promise((resolve) => probe.close(resolve));
    const proxy = new TcpProxy(target, port);
    await proxy.restore();
    return proxy;
  }

  /** Forwards new connections again (after `cut()` or `stall()`); connections held by a stall stay silent. */
  async restore(): Promise<void> {
    this.stalled = false;
    if (this.server) return;
    const server = createServer((client) => {
      client.on('error', () => undefined);
      if (this.stalled) return this.hold(client);
      const upstream = createConnection(this.target);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
  }

  /** Every connection reset, new ones refused (ECONNREFUSED) until `restore()`. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of [...this.sockets, ...this.held]) s.resetAndDestroy();
    this.sockets.clear();
    this.held.clear();
    if (server) await new Promise((resolve) => server.close(resolve));
  }

  /**
   * Silence without refusal: open connections stop carrying bytes (what was in flight is
   * dropped), new ones are accepted and never forwarded. Nothing is closed by the proxy; a
   * client that gives up closes its own end.
   */
  stall(): void {
    this.stalled = true;
    for (const s of this.sockets) {
      s.unpipe();
      s.removeAllListeners('data');
      s.removeAllListeners('close');
      s.on('close', () => this.held.delete(s));
      this.hold(s);
    }
    this.sockets.clear();
  }

  /** Reads and drops whatever the socket receives, so the peer's writes never block on a full window. */
  private hold(socket: Socket): void {
    this.held.add(socket);
    socket.on('close', () => this.held.delete(socket));
    socket.on('data', () => undefined);
    socket.resume();
  }

  async close(): Promise<void> {
    await this.cut();
  }
}
