import { Resolver } from 'node:dns/promises';
import type { ApiClient } from './session';
// dns2 ships CommonJS with loose typings; only the server factory and Packet constants are used.
 
const dns2 = require('dns2') as {
  createServer(options: { udp: boolean; tcp: boolean; handle: (request: DnsPacket, send: (response: DnsPacket) => void) => void }): DnsServerHandle;
  Packet: {
    TYPE: Record<string, number>;
    CLASS: { IN: number };
    createResponseFromRequest(request: DnsPacket): DnsPacket;
  };
};

interface DnsPacket {
  header: { rcode: number; aa?: number };
  questions: Array<{ name: string; type: number }>;
  answers: Array<Record<string, unknown>>;
}

interface DnsServerHandle {
  listen(options: { udp: { port: number; address: string }; tcp: { port: number; address: string } }): Promise<{ udp: { port: number }; tcp: { port: number } }>;
  close(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export type DnsRecordType = 'A' | 'AAAA' | 'TXT' | 'MX' | 'CNAME';
/** MX values are `{ exchange, priority }` or `"10 mx.example.com"`; the others are strings. */
export type DnsValue = string | { exchange: string; priority: number };

const NXDOMAIN = 3;
const TTL = 1;

/** Splits a TXT value into the 255-octet character-strings DNS carries (long DKIM keys need several). */
function txtChunks(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const chunks: string[] = [];
  for (let i = 0; i < bytes.length; i += 255) chunks.push(bytes.subarray(i, i + 255).toString('utf8'));
  return chunks.length ? chunks : [''];
}

/**
 * Authoritative-looking DNS server for tests on 127.0.0.1 (UDP and TCP on the same random port).
 * Zones are edited at runtime; answers carry a 1-second TTL and names are case-insensitive.
 * Pass `env()` to `startTestApp` so the app resolves through it.
 */
/** A record as `/domains` responses list it. */
export interface PublishedRecord {
  type: string;
  name: string;
  value: string;
  priority?: number;
  required?: boolean;
  purpose?: string;
}

export class TestDnsServer {
  private readonly zone = new Map<string, Map<DnsRecordType, DnsValue[]>>();
  private server?: DnsServerHandle;
  port = 0;

  static async start(): Promise<TestDnsServer> {
    const dns = new TestDnsServer();
    await dns.listen();
    return dns;
  }

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** Environment for `startTestApp`. */
  env(): { DNS_SERVERS: string } {
    return { DNS_SERVERS: this.address };
  }

  /** Publishes the records of a `/domains` response (MX with its priority); `only` picks some. */
  publish(records: PublishedRecord[], only: (record: PublishedRecord) => boolean = () => true): void {
    for (const r of records.filter(only)) {
      if (r.type === 'MX') this.setRecords(r.name, 'MX', [{ exchange: r.value, priority: r.priority ?? 10 }]);
      else this.setRecords(r.name, r.type as DnsRecordType, [r.value]);
    }
  }

  /** Replaces every record of `type` at `name`; an empty list removes them. */
  setRecords(name: string, type: DnsRecordType, values: DnsValue[]): void {
    const key = name.toLowerCase().replace(/\.$/, '');
    const types = this.zone.get(key) ?? new Map<DnsRecordType, DnsValue[]>();
    if (values.length === 0) types.delete(type);
    else types.set(type, [...values]);
    if (types.size === 0) this.zone.delete(key);
    else this.zone.set(key, types);
  }

  /** Removes one name's records (all types), or the whole zone without an argument. */
  clear(name?: string): void {
    if (name === undefined) this.zone.clear();
    else this.zone.delete(name.toLowerCase().replace(/\.$/, ''));
  }

  /** A resolver with the `dns.promises.resolve(name, rrtype)` shape (what mailauth takes), querying this server. */
  resolver(): (name: string, rrtype: string) => Promise<unknown> {
    const resolver = new Resolver({ timeout: 2_000, tries: 1 });
    resolver.setServers([this.address]);
    return (name: string, rrtype: string) => resolver.resolve(name, rrtype as 'TXT') as Promise<unknown>;
  }

  async close(): Promise<void> {
    await this.server?.close();
    this.server = undefined;
  }

  private async listen(): Promise<void> {
    // UDP and TCP must share a port (resolvers retry truncated answers over TCP on the same one): try a few,
    // below the kernel's ephemeral range (32768-60999), where outgoing connections take their ports.
    for (let attempt = 0; attempt < 20; attempt++) {
      const port = 20_000 + Math.floor(Math.random() * 12_000);
      const server = dns2.createServer({ udp: true, tcp: true, handle: (request, send) => send(this.answer(request)) });
      // A port taken for one protocol is an 'error' event, not a rejection of `listen`: try the next port.
      const failed = new Promise<never>((_, reject) => server.on('error', reject));
      failed.catch(() => undefined);
      try {
        await withTimeout(Promise.race([server.listen({ udp: { port, address: '127.0.0.1' }, tcp: { port, address: '127.0.0.1' } }), failed]), 2_000);
        this.server = server;
        this.port = port;
        return;
      } catch {
        await server.close().catch(() => undefined);
      }
    }
    throw new Error('TestDnsServer: no free port');
  }

  private answer(request: DnsPacket): DnsPacket {
    const response = dns2.Packet.createResponseFromRequest(request);
    response.header.aa = 1;
    const [question] = request.questions;
    if (!question) return response;
    let name = question.name.toLowerCase().replace(/\.$/, '');
    const wanted = Object.entries(dns2.Packet.TYPE).find(([, code]) => code === question.type)?.[0] as DnsRecordType | undefined;
    if (!this.zone.has(name)) {
      response.header.rcode = NXDOMAIN;
      return response;
    }
    // A CNAME answers every type; chase it inside the zone like a recursive resolver would.
    for (let hops = 0; hops < 8 && wanted !== 'CNAME'; hops++) {
      const target = this.zone.get(name)?.get('CNAME')?.[0];
      if (typeof target !== 'string') break;
      response.answers.push(this.resource(question.name, name, 'CNAME', target));
      name = target.toLowerCase().replace(/\.$/, '');
    }
    for (const value of (wanted && this.zone.get(name)?.get(wanted)) || []) {
      response.answers.push(this.resource(question.name, name, wanted!, value));
    }
    return response;
  }

  private resource(questionName: string, name: string, type: DnsRecordType, value: DnsValue): Record<string, unknown> {
    const base = { name: name === questionName.toLowerCase() ? questionName : name, type: dns2.Packet.TYPE[type], class: dns2.Packet.CLASS.IN, ttl: TTL };
    switch (type) {
      case 'A':
      case 'AAAA':
        return { ...base, address: value };
      case 'CNAME':
        return { ...base, domain: value };
      case 'TXT':
        return { ...base, data: txtChunks(String(value)) };
      case 'MX': {
        const mx = typeof value === 'string' ? { priority: Number(value.split(/\s+/)[0]), exchange: value.split(/\s+/)[1] } : value;
        return { ...base, exchange: mx.exchange, priority: mx.priority };
      }
    }
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timeout')), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * Adds `domain` through the API, publishes its records on `dns` and checks it now (expecting
 * `verified`); returns the POST /domains response body (id, records...).
 */
export async function addVerifiedDomain(api: ApiClient, dns: TestDnsServer, domain: string): Promise<{ id: string; records: PublishedRecord[] }> {
  const created = await api.post('/domains', { domain }).expect(201);
  dns.publish(created.body.records);
  const verified = await api.get(`/domains/${created.body.id}/verify`).expect(200);
  if (verified.body.status !== 'verified') throw new Error(`${domain} did not verify: ${JSON.stringify(verified.body)}`);
  return created.body;
}
