import { CopyButton } from '../../components/CopyButton';

/**
 * An endpoint's signing secret, as the API answered it on creation or rotation. Shown here once
 * and kept nowhere (not in the query cache, not in storage): leaving the page loses it.
 */
export function SecretReveal({ secret, rotated = false }: { secret: string; rotated?: boolean }) {
  return (
    <section className="panel wh-section wh-secret" aria-label="Signing secret">
      <h2>Signing secret</h2>
      <p className="banner banner-warn">
        Copy it now: it is shown only this once.
        {rotated ? ' For the next 24 hours both the old and the new secret sign each request, so your receiver can switch without missing one.' : ' If you lose it, rotate the secret.'}
      </p>
      <p>
        <code aria-label="Signing secret value">{secret}</code> <CopyButton value={secret} label="Copy the signing secret" />
      </p>
      <p className="field-hint">
        Your receiver checks the <code>webhook-signature</code> header with it (the Standard Webhooks scheme: for example the npm package <code>standardwebhooks</code>).
      </p>
    </section>
  );
}
