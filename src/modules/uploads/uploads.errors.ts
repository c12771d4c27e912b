import { AppError, badRequest, notFound } from '../../platform/http/app-error';

/** docs/decisions.md#billing-security-uploads: at most 5 MB (413 above). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

export const missingImage = () => badRequest('Send the image as the multipart part "file"');
export const unsupportedImage = (detected: string | null) =>
  new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Only PNG, JPEG, GIF and WebP images are accepted', {
    details: { detected },
    suggestion: 'The type is read from the file content, not its name or Content-Type; SVG is not accepted.',
  });
export const imageNotFound = () => notFound('Image');
