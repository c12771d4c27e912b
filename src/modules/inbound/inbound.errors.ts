import { notFound } from '../../platform/http/app-error';

export const inboundNotFound = () => notFound('Inbound message');
