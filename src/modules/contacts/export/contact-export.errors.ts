import { conflict, notFound } from '../../../platform/http/app-error';

/** Files and rows of an export are kept this long after it was requested. */
export const EXPORT_RETENTION_DAYS = 7;

export const exportNotFound = () => notFound('Export');
export const exportNotReady = (status: string) => conflict(`The export is ${status}: its file can be downloaded once it is completed`);
