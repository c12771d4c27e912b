import { AppError, badRequest, forbidden } from '../../../platform/http/app-error';

export const malformedSnsMessage = (reason: string) => badRequest(`Malformed SNS message: ${reason}`);
export const snsCertificateRefused = () =>
  forbidden('SigningCertURL is not an allowed SNS certificate location', { suggestion: 'Allowed hosts are configured with SNS_CERT_HOSTS.' });
export const snsCertificateUnavailable = () => forbidden('The SNS signing certificate could not be fetched or is not valid');
export const snsSignatureInvalid = () => forbidden('SNS message signature does not verify');
export const snsSubscribeUrlRefused = () => forbidden('SubscribeURL is not an allowed SNS host');
export const snsConfirmationFailed = (status: number | string) => new AppError(502, 'BAD_GATEWAY', `Confirming the SNS subscription failed (${status})`);
