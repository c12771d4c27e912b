import { reputationVerdict } from './security.service';

describe('reputationVerdict', () => {
  it('never suspends below 100 emails', () => {
    expect(reputationVerdict({ emails: 99, bounces: 99, complaints: 99 }).exceeded).toBe(false);
  });

  it('suspends above a 10% bounce rate, not at it', () => {
    expect(reputationVerdict({ emails: 100, bounces: 10, complaints: 0 })).toEqual({ bounceRate: 0.1, complaintRate: 0, exceeded: false });
    expect(reputationVerdict({ emails: 100, bounces: 11, complaints: 0 }).exceeded).toBe(true);
  });

  it('suspends above a 0.5% complaint rate, not at it', () => {
    expect(reputationVerdict({ emails: 200, bounces: 0, complaints: 1 }).exceeded).toBe(false);
    expect(reputationVerdict({ emails: 200, bounces: 0, complaints: 2 }).exceeded).toBe(true);
    expect(reputationVerdict({ emails: 100, bounces: 0, complaints: 1 })).toEqual({ bounceRate: 0, complaintRate: 0.01, exceeded: true });
  });

  it('reports zero rates without emails', () => {
    expect(reputationVerdict({ emails: 0, bounces: 0, complaints: 0 })).toEqual({ bounceRate: 0, complaintRate: 0, exceeded: false });
  });
});
