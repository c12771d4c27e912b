import { describe, expect, it } from 'vitest';
import type { WorkflowStep, WorkflowTransition } from '../../api/workflows';
import { connectionToTransition, freeHandles, handlesOf, nextPosition, toFlow } from './graph';

const step = (id: string, type: WorkflowStep['type'], position: WorkflowStep['position'] = null): WorkflowStep => ({ id, type, name: null, config: {}, position });
const steps = [step('t', 'TRIGGER', { x: 0, y: 0 }), step('c', 'CONDITION'), step('w', 'WAIT_FOR_EVENT'), step('e', 'EXIT'), step('d', 'DELAY')];
const transitions: WorkflowTransition[] = [
  { id: 'x1', fromStepId: 't', toStepId: 'c', branch: null, waitOutcome: null },
  { id: 'x2', fromStepId: 'c', toStepId: 'w', branch: 'yes', waitOutcome: null },
];
const wf = { steps, transitions };

describe('workflow graph', () => {
  it('maps steps to nodes (stored or default positions) and transitions to labelled edges', () => {
    const { nodes, edges } = toFlow(wf);
    expect(nodes[0].position).toEqual({ x: 0, y: 0 });
    expect(nodes[1].position).toEqual({ x: 80, y: 180 });
    expect(nodes[1].data.handles.map((h) => h.id)).toEqual(['yes', 'no']);
    expect(edges).toEqual([
      { id: 'x1', source: 't', target: 'c', sourceHandle: 'next' },
      { id: 'x2', source: 'c', target: 'w', sourceHandle: 'yes', label: 'yes' },
    ]);
    expect(nextPosition(steps).y).toBe(40 + 4 * 140 + 140);
  });

  it('turns connections into transition bodies with branch / waitOutcome', () => {
    expect(connectionToTransition({ source: 'c', target: 'e', sourceHandle: 'no' }, wf)).toEqual({ body: { fromStepId: 'c', toStepId: 'e', branch: 'no' } });
    expect(connectionToTransition({ source: 'w', target: 'd', sourceHandle: 'TIMEOUT' }, wf)).toEqual({ body: { fromStepId: 'w', toStepId: 'd', waitOutcome: 'TIMEOUT' } });
    expect(connectionToTransition({ source: 'd', target: 'e', sourceHandle: null }, wf)).toEqual({ body: { fromStepId: 'd', toStepId: 'e' } });
  });

  it('refuses what the API would refuse, in words', () => {
    expect(connectionToTransition({ source: 'c', target: 'e', sourceHandle: 'yes' }, wf)).toEqual({ error: expect.stringMatching(/already connected/) });
    expect(connectionToTransition({ source: 't', target: 'd', sourceHandle: 'next' }, wf)).toEqual({ error: expect.stringMatching(/already has a next step/) });
    expect(connectionToTransition({ source: 'e', target: 'd' }, wf)).toEqual({ error: expect.stringMatching(/exit/) });
    expect(connectionToTransition({ source: 'd', target: 'd' }, wf)).toEqual({ error: expect.stringMatching(/itself/) });
    expect(connectionToTransition({ source: 'd', target: 't' }, wf)).toEqual({ error: expect.stringMatching(/trigger/) });
    expect(connectionToTransition({ source: 'c', target: 'e', sourceHandle: null }, wf)).toEqual({ error: expect.stringMatching(/yes or no/) });
  });

  it('lists the free output handles', () => {
    expect(freeHandles(steps[1], transitions).map((h) => h.id)).toEqual(['no']);
    expect(freeHandles(steps[0], transitions)).toEqual([]);
    expect(handlesOf('EXIT')).toEqual([]);
  });
});
