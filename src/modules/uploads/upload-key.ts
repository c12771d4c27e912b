import { randomBytes } from 'node:crypto';

/** The accepted image types (docs/decisions.md#billing-security-uploads), by the type detected from the bytes. */
export const IMAGE_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };

const KEY = /^img_[0-9a-f]{32}\.(png|jpg|gif|webp)$/;

export const newUploadKey = (ext: string): string => `img_${randomBytes(16).toString('hex')}.${ext}`;
export const isUploadKey = (value: string): boolean => KEY.test(value);
export const contentTypeOfKey = (key: string): string => IMAGE_TYPES[key.slice(key.lastIndexOf('.') + 1)] ?? 'application/octet-stream';
