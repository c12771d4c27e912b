/**
 * A step that no retry can run (what it needs is gone): the engine FAILS the execution with the
 * message instead of failing the job.
 */
export class StepRefused extends Error {}

/** The execution's contact was deleted while it ran. */
export class ContactGone extends StepRefused {
  constructor() {
    super('the contact no longer exists');
  }
}
