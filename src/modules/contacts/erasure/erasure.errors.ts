import { notFound } from '../../../platform/http/app-error';

export const erasureNotFound = () => notFound('Erasure');
