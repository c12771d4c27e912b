import type { ProjectWithKeys } from '../api/types';
import { CopyButton } from './CopyButton';

/**
 * The project's keys, as the API answered them right after creation or rotation. They are shown
 * here once and kept nowhere (not in the cache, not in storage): leaving the page loses them.
 */
export function KeyReveal({ keys }: { keys: Pick<ProjectWithKeys, 'secret' | 'public' | 'webhookSecret'> }) {
  const rows = [
    { label: 'Secret key', value: keys.secret, note: 'For your servers: sending, contacts, everything. Keep it secret.' },
    { label: 'Public key', value: keys.public, note: 'Safe in browsers and apps: only tracks events (POST /v1/track).' },
    ...(keys.webhookSecret ? [{ label: 'Webhook signing secret', value: keys.webhookSecret, note: 'Verifies the X-Signature of workflow webhooks.' }] : []),
  ];
  return (
    <section className="key-reveal" aria-label="New API keys">
      <p className="banner banner-warn">Copy these keys now. They are shown only once; if you lose them, rotate the keys.</p>
      <dl>
        {rows.map((row) => (
          <div key={row.label} className="key-row">
            <dt>{row.label}</dt>
            <dd>
              <code aria-label={row.label}>{row.value}</code>
              <CopyButton value={row.value} label={`Copy ${row.label.toLowerCase()}`} />
              <p className="field-hint">{row.note}</p>
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
