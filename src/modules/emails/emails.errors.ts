import { notFound } from '../../platform/http/app-error';

export const emailNotFound = () => notFound('Email');
