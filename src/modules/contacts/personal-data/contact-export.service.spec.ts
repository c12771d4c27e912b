import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { automock } from '../../../../test/support/automock';
import { ContactsService } from '../contacts.service';
import { contactNotFound } from '../contacts.errors';
import type { Contact } from '../entities/contact.entity';
import { ContactExportService } from './contact-export.service';
import { PersonalDataRegistry } from './personal-data.registry';

const ann = { id: 'cnt_0123456789abcdef0123456789abcdef', email: 'ann@example.com', subscribed: true, data: {}, topics: {}, createdAt: new Date(0), updatedAt: new Date(0) } as unknown as Contact;

function setUp(batches: number) {
  const pulled = { count: 0 };
  const registry = new PersonalDataRegistry();
  registry.register({
    name: 'events',
    erase: async () => {},
    export: async function* () {
      for (let b = 0; b < batches; b++) {
        pulled.count += 1;
        yield Array.from({ length: 100 }, (_, i) => ({ n: b * 100 + i }));
      }
    },
  });
  const contacts = automock(ContactsService, {
    getById: async (_projectId: string, id: string) => {
      if (id !== ann.id) throw contactNotFound();
      return ann;
    },
  });
  return { service: new ContactExportService(contacts, registry), pulled };
}

describe('ContactExportService', () => {
  it('refuses an unknown contact before any section is read', async () => {
    const { service, pulled } = setUp(3);
    await expect(service.open('p1', 'cnt_nope')).rejects.toMatchObject({ status: 404 });
    expect(pulled.count).toBe(0);
  });

  it('reads the sections only as fast as the response takes the document', async () => {
    const { service, pulled } = setUp(1_000);
    const { json } = await service.open('p1', ann.id);
    let taken = 0;
    let release: () => void = () => {};
    const slow = new Writable({
      highWaterMark: 1,
      write(_chunk, _encoding, done) {
        taken += 1;
        if (taken === 5) release = done;
        else done();
      },
    });
    const piping = pipeline(json, slow);
    // The consumer stalls at its fifth piece: the sections are not read on ahead.
    await new Promise<void>((resolve) => {
      const check = () => (taken >= 5 ? resolve() : setImmediate(check));
      check();
    });
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(pulled.count).toBeLessThanOrEqual(8);
    release();
    await piping;
    expect(pulled.count).toBe(1_000);
  });

  it('writes one JSON document of every section', async () => {
    const { service } = setUp(30);
    const { json } = await service.open('p1', ann.id);
    let text = '';
    for await (const piece of json) text += piece as string;
    const parsed = JSON.parse(text) as { contact: { id: string }; events: unknown[]; emails: unknown[]; exportedAt: string };
    expect(parsed.contact.id).toBe(ann.id);
    expect(parsed.events).toHaveLength(3_000);
    expect(parsed.emails).toEqual([]);
  });
});
