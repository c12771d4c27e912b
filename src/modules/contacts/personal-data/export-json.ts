import type { DataSubject, PersonalDataSection } from './personal-data.registry';

/**
 * A contact's export as JSON text, piece by piece: `{"contact": …, <each section>, "exportedAt": …}`.
 * Each piece is one batch of a section, so what is held at a time is one batch, whatever the
 * contact's history (the consumer pulls the next piece when the client has taken the last one).
 */
export async function* contactExportJson(projectId: string, subject: DataSubject, contact: unknown, sections: PersonalDataSection[], exportedAt: Date): AsyncGenerator<string> {
  yield `{"contact":${JSON.stringify(contact)}`;
  for (const section of sections) {
    let open = `,${JSON.stringify(section.name)}:[`;
    for await (const batch of section.export(projectId, subject)) {
      if (batch.length === 0) continue;
      yield open + batch.map((item) => JSON.stringify(item)).join(',');
      open = ',';
    }
    yield open === ',' ? ']' : `${open}]`;
  }
  yield `,"exportedAt":${JSON.stringify(exportedAt.toISOString())}}`;
}

