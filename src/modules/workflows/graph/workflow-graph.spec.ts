import { toSegmentFilter } from './condition';
import { checkStepConfig } from './step-config';
import { nextStepId, slotTaken, spliceTransitions, transitionProblems, WorkflowGraph } from './workflow-graph';

const T = (from: string, to: string, branch: 'yes' | 'no' | null = null, waitOutcome: 'EVENT' | 'TIMEOUT' | null = null) => ({ from, to, branch, waitOutcome });

describe('workflow graph rules', () => {
  it('requires branch from CONDITION, waitOutcome from WAIT_FOR_EVENT, neither elsewhere', () => {
    expect(transitionProblems({ fromType: 'CONDITION', toType: 'EXIT' }).map((p) => p.field)).toEqual(['branch']);
    expect(transitionProblems({ fromType: 'CONDITION', toType: 'EXIT', branch: 'maybe' }).map((p) => p.field)).toEqual(['branch']);
    expect(transitionProblems({ fromType: 'CONDITION', toType: 'EXIT', branch: 'yes' })).toEqual([]);
    expect(transitionProblems({ fromType: 'WAIT_FOR_EVENT', toType: 'EXIT' }).map((p) => p.field)).toEqual(['waitOutcome']);
    expect(transitionProblems({ fromType: 'WAIT_FOR_EVENT', toType: 'EXIT', waitOutcome: 'TIMEOUT' })).toEqual([]);
    expect(transitionProblems({ fromType: 'DELAY', toType: 'EXIT', branch: 'yes' }).map((p) => p.field)).toEqual(['branch']);
    expect(transitionProblems({ fromType: 'DELAY', toType: 'EXIT', waitOutcome: 'EVENT' }).map((p) => p.field)).toEqual(['waitOutcome']);
    expect(transitionProblems({ fromType: 'EXIT', toType: 'DELAY' }).map((p) => p.field)).toEqual(['fromStepId']);
    expect(transitionProblems({ fromType: 'DELAY', toType: 'TRIGGER' }).map((p) => p.field)).toEqual(['toStepId']);
  });

  it('allows one transition per branch, per outcome, or one in all', () => {
    expect(slotTaken([{ branch: 'yes', waitOutcome: null }], 'CONDITION', 'no')).toBe(false);
    expect(slotTaken([{ branch: 'yes', waitOutcome: null }], 'CONDITION', 'yes')).toBe(true);
    expect(slotTaken([{ branch: null, waitOutcome: 'EVENT' }], 'WAIT_FOR_EVENT', null, 'TIMEOUT')).toBe(false);
    expect(slotTaken([{ branch: null, waitOutcome: 'EVENT' }], 'WAIT_FOR_EVENT', null, 'EVENT')).toBe(true);
    expect(slotTaken([], 'DELAY')).toBe(false);
    expect(slotTaken([{ branch: null, waitOutcome: null }], 'DELAY')).toBe(true);
  });

  it('splices predecessors (keeping their branch) to the single successor', () => {
    const edges = [T('a', 'x', 'yes'), T('b', 'x', null, 'EVENT'), T('x', 'c'), T('c', 'd')];
    expect(spliceTransitions(edges, 'x')).toEqual([T('a', 'c', 'yes'), T('b', 'c', null, 'EVENT')]);
    expect(spliceTransitions([T('a', 'x'), T('x', 'y', 'yes'), T('x', 'z', 'no')], 'x')).toBeNull();
    expect(spliceTransitions([T('a', 'x')], 'x')).toEqual([]);
  });

  it('follows the edge of the exit taken; none left completes', () => {
    const graph: WorkflowGraph = {
      steps: [],
      transitions: [T('c', 'y', 'yes'), T('c', 'n', 'no'), T('w', 'e', null, 'EVENT'), T('d', 'x')],
    };
    expect(nextStepId(graph, 'c', { branch: 'no' })).toBe('n');
    expect(nextStepId(graph, 'w', { waitOutcome: 'EVENT' })).toBe('e');
    expect(nextStepId(graph, 'w', { waitOutcome: 'TIMEOUT' })).toBeNull();
    expect(nextStepId(graph, 'd', null)).toBe('x');
    expect(nextStepId(graph, 'x', null)).toBeNull();
  });
});

describe('step configs', () => {
  it('accepts valid configs and keeps only known keys', () => {
    expect(checkStepConfig('DELAY', { amount: 365, unit: 'days' }).problems).toEqual([]);
    expect(checkStepConfig('WEBHOOK', { url: 'https://example.com/{{contact.id}}' })).toEqual({ config: { url: 'https://example.com/{{contact.id}}', method: 'POST' }, problems: [] });
    expect(checkStepConfig('UPDATE_CONTACT', { subscriptionAction: 'subscribe' }).problems).toEqual([]);
    expect(checkStepConfig('CONDITION', { field: 'contact.subscribed', operator: 'exists' }).problems).toEqual([]);
    expect(checkStepConfig('CONDITION', { field: 'workflow.score', operator: 'gte', value: 3 }).problems).toEqual([]);
  });

  it('names the field of each problem', () => {
    const fields = (type: Parameters<typeof checkStepConfig>[0], config: unknown) => checkStepConfig(type, config).problems.map((p) => p.field);
    expect(fields('DELAY', { amount: 8761, unit: 'hours' })).toEqual(['config.amount']);
    expect(fields('DELAY', { amount: 1.5, unit: 'minutes' })).toEqual(['config.amount']);
    expect(fields('WAIT_FOR_EVENT', { eventName: 'x', timeout: 0 })).toEqual(['config.timeout']);
    expect(fields('CONDITION', { field: 'event.x', operator: 'triggered' })).toEqual(['config.operator']);
    expect(fields('CONDITION', { field: 'segment.x', operator: 'equals', value: 1 })).toEqual(['config.field']);
    expect(fields('WEBHOOK', { url: 'javascript:alert(1)' })).toEqual(['config.url']);
    expect(fields('WEBHOOK', { url: 'https://e.com', headers: { 'X-A': 'a\r\nb' } })).toEqual(['config.headers']);
    expect(fields('UPDATE_CONTACT', { updates: {}, subscriptionAction: 'none' })).toEqual(['config']);
    expect(fields('EXIT', 'nope')).toEqual(['config']);
  });
});

describe('CONDITION as a segment filter', () => {
  it('maps contact fields to the contact row and event/workflow keys to data over their own row', () => {
    expect(toSegmentFilter({ field: 'contact.email', operator: 'contains', value: 'X' })).toEqual({ source: 'contact', filter: { field: 'email', operator: 'contains', value: 'X' } });
    expect(toSegmentFilter({ field: 'contact.subscribed', operator: 'equals', value: true })).toEqual({ source: 'contact', filter: { field: 'subscribed', operator: 'equals', value: true } });
    expect(toSegmentFilter({ field: 'data.profile.tier', operator: 'equals', value: 'a' }).filter.field).toBe('data.profile.tier');
    expect(toSegmentFilter({ field: 'event.plan', operator: 'exists' })).toEqual({ source: 'event', filter: { field: 'data.plan', operator: 'exists', value: undefined } });
    expect(toSegmentFilter({ field: 'workflow.a.b', operator: 'lt', value: 2 })).toEqual({ source: 'workflow', filter: { field: 'data.a.b', operator: 'lt', value: 2 } });
  });
});
