// Outside services the service can use: Stripe for billing, S3-compatible storage for uploads.
import { Env, bool, str, url } from './env';

export interface IntegrationsConfig {
  stripeSecretKey?: string;
  /** `STRIPE_WEBHOOK_SECRET` (whsec_…): verifies `POST /webhooks/incoming/stripe`. */
  stripeWebhookSecret?: string;
  /** `STRIPE_PRICE_ID`: the price a checkout session subscribes to. */
  stripePriceId?: string;
  /** `STRIPE_API_URL`: another base for Stripe's API (a proxy, or a local fake in tests). */
  stripeApiUrl?: string;
  /** Image uploads go to S3-compatible storage when `S3_BUCKET` is set, else under `$DATA_DIR/uploads`. */
  s3?: { bucket: string; region: string; endpoint?: string; accessKeyId?: string; secretAccessKey?: string; forcePathStyle: boolean };
}

export function integrationsConfig(env: Env): IntegrationsConfig {
  return {
    stripeSecretKey: str(env, 'STRIPE_SECRET_KEY'),
    stripeWebhookSecret: str(env, 'STRIPE_WEBHOOK_SECRET'),
    stripePriceId: str(env, 'STRIPE_PRICE_ID'),
    stripeApiUrl: url(env, 'STRIPE_API_URL', ['http:', 'https:']),
    s3: s3Config(env),
  };
}

function s3Config(env: Env): IntegrationsConfig['s3'] {
  const bucket = str(env, 'S3_BUCKET');
  if (bucket === undefined) return undefined;
  return {
    bucket,
    region: str(env, 'S3_REGION') ?? 'us-east-1',
    endpoint: url(env, 'S3_ENDPOINT', ['http:', 'https:']),
    accessKeyId: str(env, 'S3_ACCESS_KEY_ID'),
    secretAccessKey: str(env, 'S3_SECRET_ACCESS_KEY'),
    forcePathStyle: bool(env, 'S3_FORCE_PATH_STYLE', false),
  };
}
