import { connect as netConnect, Socket } from 'node:net';
import { connect as tlsConnect, TLSSocket } from 'node:tls';

/** A line-oriented SMTP client over a raw socket, for what nodemailer will not do (leave mid-DATA, trickle bytes, send garbage). */
export class RawSmtp {
  private buffer = '';
  private waiters: Array<() => void> = [];
  constructor(readonly socket: Socket | TLSSocket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      for (const wake of this.waiters.splice(0)) wake();
    });
    socket.on('error', () => undefined);
  }

  /** A plain connection (the inbound listener; STARTTLS is the client's choice there), greeted. */
  static async plain(port: number): Promise<RawSmtp> {
    const socket = netConnect({ host: '127.0.0.1', port });
    await new Promise<void>((resolve, reject) => socket.once('connect', () => resolve()).once('error', reject));
    const client = new RawSmtp(socket);
    await client.reply();
    return client;
  }

  static async tls(port: number): Promise<RawSmtp> {
    const socket = tlsConnect({ host: '127.0.0.1', port, rejectUnauthorized: false });
    await new Promise<void>((resolve, reject) => socket.once('secureConnect', () => resolve()).once('error', reject));
    const client = new RawSmtp(socket);
    await client.reply();
    return client;
  }

  /** The next complete reply (its last line starts with "NNN "). */
  async reply(timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = /^(?:\d{3}-.*\r\n)*\d{3} .*\r\n/.exec(this.buffer);
      if (match) {
        this.buffer = this.buffer.slice(match[0].length);
        return match[0].trimEnd();
      }
      if (Date.now() > deadline || this.socket.destroyed) throw new Error(`no SMTP reply; got ${JSON.stringify(this.buffer)}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  async command(line: string): Promise<string> {
    this.socket.write(`${line}\r\n`);
    return this.reply();
  }

  async login(key: string): Promise<void> {
    expect(await this.command('EHLO raw.test')).toMatch(/^250/);
    expect(await this.command(`AUTH PLAIN ${Buffer.from(`\0mailroom\0${key}`).toString('base64')}`)).toMatch(/^235/);
  }

  close(): void {
    this.socket.destroy();
  }
}
