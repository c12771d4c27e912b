import type * as S3 from '@aws-sdk/client-s3';
import type * as Ses from '@aws-sdk/client-ses';
import type Stripe from 'stripe';

/**
 * Client SDKs that load on first use rather than at start: each weighs 15-20 MB of a process
 * (its code and V8 heap), and a deployment that sends by SMTP, stores uploads on disk and runs
 * without Stripe uses none of them. Import their types only (`import type`) and reach the
 * runtime through these; `test/unit/lazy-sdks.spec.ts` checks that loading the application
 * loads none of them.
 */
export const sdks = {
  ses: (): typeof Ses => require('@aws-sdk/client-ses') as typeof Ses,
  s3: (): typeof S3 => require('@aws-sdk/client-s3') as typeof S3,
  stripe: (): typeof Stripe => require('stripe') as typeof Stripe,
};
