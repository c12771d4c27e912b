import type { StepType } from '../entities/workflow-step.entity';
import { checkStepConfig, STEP_CONFIG_SCHEMA, STEP_CONFIGS, STORED_STEP_CONFIG_SCHEMA } from './step-config';

/** A step's config is written once (STEP_CONFIGS): the keys the checker accepts are the ones the document shows. */
describe('step config: one table for the checker and the OpenAPI document', () => {
  const types = Object.keys(STEP_CONFIGS) as StepType[];

  it.each(types)('%s: every documented key is accepted, any other refused naming config.<key>', (type) => {
    const documented = Object.keys(STEP_CONFIGS[type].properties);
    const raw = Object.fromEntries([...documented.map((key) => [key, 'x']), ['notAKey', 1]]);
    const unrecognized = checkStepConfig(type, raw)
      .problems.filter((p) => p.code === 'unrecognized_keys')
      .map((p) => p.field);
    expect(unrecognized).toEqual(['config.notAKey']);
  });

  it('the request schema offers the addable types, the response schema every type', () => {
    const titles = (schema: { oneOf?: Array<{ title?: string }> }) => (schema.oneOf ?? []).map((s) => s.title);
    expect(titles(STEP_CONFIG_SCHEMA as never)).toEqual(['SEND_EMAIL', 'DELAY', 'WAIT_FOR_EVENT', 'CONDITION', 'WEBHOOK', 'UPDATE_CONTACT', 'EXIT']);
    expect(titles(STORED_STEP_CONFIG_SCHEMA as never)).toEqual(types);
  });
});
