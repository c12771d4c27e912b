import { notFound, ShortBadRequest } from '../../platform/http/app-error';

export const templateNotFound = () => notFound('Template');

export const missingTemplateField = (field: string) => new ShortBadRequest(`${field} is required`);
