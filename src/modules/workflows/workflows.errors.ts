import { conflict, FieldError, notFound, validationError } from '../../platform/http/app-error';

export const workflowNotFound = () => notFound('Workflow');
export const stepNotFound = () => notFound('Step');
export const transitionNotFound = () => notFound('Transition');
export const executionNotFound = () => notFound('Execution');

export const triggerStepUndeletable = () => conflict('The TRIGGER step of a workflow cannot be deleted');
export const workflowHasActiveExecutions = (count: number) =>
  conflict(`The workflow has ${count} active execution(s); cancel them or let them finish first`, { details: { activeExecutions: count } });
export const transitionSlotTaken = (what: string) => conflict(`The step already has ${what}`);
export const cannotSplice = () => conflict('A step with several outgoing transitions cannot be spliced out; delete its transitions first');
export const executionAlreadyActive = () => conflict('The contact already has an active execution of this workflow');
export const executionNotActive = () => conflict('The execution is not running or waiting');

export const invalidInput = (field: string, code: string, message: string): ReturnType<typeof validationError> =>
  validationError([{ field, code, message } satisfies FieldError]);
