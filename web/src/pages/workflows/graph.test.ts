import { describe, expect, it } from 'vitest';
import type { WorkflowStep, WorkflowTransition } from '../../api/workflows';
import { ancestorsOf, anchorsOf, connectionToTransition, defaultAnchor, freeHandles, handlesOf, nextPosition, nextStepChoices, placeAfter, toFlow } from './graph';

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

describe('adding after a step, and the next-step picker', () => {
  const chain = {
    steps: [step('t', 'TRIGGER', { x: 0, y: 0 }), step('c', 'CONDITION', { x: 0, y: 140 }), step('a', 'DELAY', { x: -130, y: 280 }), step('b', 'EXIT', { x: 500, y: 500 }), step('z', 'DELAY', { x: 900, y: 0 })],
    transitions: [
      { id: '1', fromStepId: 't', toStepId: 'c', branch: null, waitOutcome: null },
      { id: '2', fromStepId: 'c', toStepId: 'a', branch: 'yes', waitOutcome: null },
    ] as WorkflowTransition[],
  };

  it('offers the free outputs, the selected step first, else the last one', () => {
    const anchors = anchorsOf(chain);
    expect(anchors.map((x) => [x.stepId, x.handle])).toEqual([
      ['c', 'no'],
      ['a', 'next'],
      ['z', 'next'],
    ]);
    expect(anchors[0].label).toBe('Condition: ? (no)');
    expect(defaultAnchor(anchors, 'a')?.stepId).toBe('a');
    expect(defaultAnchor(anchors, 't')?.stepId).toBe('z');
    expect(defaultAnchor([], null)).toBeNull();
  });

  it('places a new step below its anchor, under its branch, off the nodes already there', () => {
    // Below the DELAY: nothing there.
    expect(placeAfter(chain.steps, { stepId: 'a', handle: 'next' })).toEqual({ x: -130, y: 420 });
    // The condition's "no" output is its right one; "yes" would land on the DELAY at (-130, 280) and moves down.
    expect(placeAfter(chain.steps, { stepId: 'c', handle: 'no' })).toEqual({ x: 130, y: 280 });
    expect(placeAfter(chain.steps, { stepId: 'c', handle: 'yes' })).toEqual({ x: -130, y: 420 });
    expect(placeAfter(chain.steps, null)).toEqual(nextPosition(chain.steps));
  });

  it('never offers a step that leads back (a loop), the step itself or the trigger', () => {
    expect(nextStepChoices(chain.steps[2], chain).map((s) => s.id)).toEqual(['b', 'z']);
    expect(nextStepChoices(chain.steps[1], chain).map((s) => s.id)).toEqual(['a', 'b', 'z']);
    expect([...ancestorsOf('a', chain.transitions)].sort()).toEqual(['c', 't']);
    const loop = [...chain.transitions, { id: '3', fromStepId: 'a', toStepId: 'c', branch: null, waitOutcome: null }] as WorkflowTransition[];
    expect(ancestorsOf('c', loop).has('c')).toBe(true);
    expect(nextStepChoices(chain.steps[3], { steps: chain.steps, transitions: loop }).map((s) => s.id)).toEqual(['c', 'a', 'z']);
  });
});
