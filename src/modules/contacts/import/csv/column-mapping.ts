import { validationError, type FieldError } from '../../../../platform/http/app-error';
import { DATA_LIMITS } from '../../data/data-patch';
import { ColumnMapping, DROPPED_KEYS, headerText, headerToKey, MAPPED_KEY } from './csv-values';

const item = (header: string | null, code: string, message: string, received?: unknown): FieldError => ({
  field: header === null ? 'mapping' : `mapping.${header}`,
  code,
  message,
  ...(received === undefined ? {} : { received }),
});

function keyProblem(header: string, key: unknown): FieldError | null {
  if (key === null) return null;
  if (typeof key !== 'string') return item(header, 'invalid_type', 'A column maps to a key (a string) or to null to skip it', typeof key);
  if (key.trim() === '') return item(header, 'too_small', 'The key is empty: give a name, or null to skip the column', key);
  if (key.length > DATA_LIMITS.keyLength) return item(header, 'too_big', `A key is at most ${DATA_LIMITS.keyLength} characters`, key.slice(0, 200));
  if (!MAPPED_KEY.test(key)) {
    return item(header, 'invalid_string', 'A key holds letters, digits, "_", and spaces or dashes between them (no dots, nothing around it)', key);
  }
  if (DROPPED_KEYS.has(key.toLowerCase())) return item(header, 'reserved_key', `"${key}" is reserved for a contact field or a generated variable`, key);
  return null;
}

/**
 * Reads the upload's `mapping` part (a JSON object, header → key or null) against the file's header
 * row. Null when none was sent: the import runs as the spec describes. Throws the 422 with one item
 * per problem: not JSON, a header the file lacks, the email column, a bad or reserved key, or two
 * kept columns ending with the same key.
 */
export function resolveColumnMapping(header: string[], raw: string | undefined): ColumnMapping | null {
  if (raw === undefined || raw === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw validationError([item(null, 'invalid_json', 'mapping is a JSON object: {"First Name": "firstName", "Notes": null}', raw.slice(0, 200))]);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw validationError([item(null, 'invalid_type', 'mapping is a JSON object of header → key (or null to skip)', Array.isArray(parsed) ? 'array' : typeof parsed)]);
  }
  const entries = Object.entries(parsed as Record<string, unknown>);
  const texts = header.map(headerText);
  const emailIndex = header.map(headerToKey).indexOf('email');
  const problems: FieldError[] = [];
  for (const [name, key] of entries) {
    const index = texts.indexOf(name);
    if (index < 0) problems.push(item(name, 'unknown_column', `The file has no column "${name}" (header cells are matched as written, without surrounding spaces)`, name));
    else if (index === emailIndex) problems.push(item(name, 'email_column', 'The email column is the contact\'s address; it cannot be mapped', key as never));
    else {
      const problem = keyProblem(name, key);
      if (problem) problems.push(problem);
    }
  }
  if (problems.length > 0) throw validationError(problems, 'The column mapping is not valid');
  const mapping = Object.fromEntries(entries) as ColumnMapping;
  // Two columns ending with the same key would overwrite each other's cells: refused when the
  // mapping is involved (a file without a mapping keeps the spec's rule, the later cell wins).
  const owners = new Map<string, string>();
  texts.forEach((text, index) => {
    if (index === emailIndex) return;
    const mapped = Object.hasOwn(mapping, text);
    const key = mapped ? mapping[text] : headerToKey(header[index]);
    if (key === null || key === '' || (!mapped && DROPPED_KEYS.has(key))) return;
    const other = owners.get(key);
    if (other !== undefined && other !== text && (mapped || Object.hasOwn(mapping, other))) {
      problems.push(item(mapped ? text : other, 'duplicate_key', `The columns "${other}" and "${text}" would both be stored as "${key}"`, key));
    }
    if (other === undefined) owners.set(key, text);
  });
  if (problems.length > 0) throw validationError(problems, 'The column mapping is not valid');
  return mapping;
}
