import { useQueryClient } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { accountApi, useProject, usePublicConfig } from '../../api/account';
import { qk } from '../../api/queryKeys';
import type { ProjectWithKeys } from '../../api/types';
import { ConfirmButton } from '../../components/Dialogs';
import { KeyReveal } from '../../components/KeyReveal';
import { QueryView } from '../../components/QueryView';
import { useProjectId } from '../../lib/project';

export default function KeysSettings() {
  const projectId = useProjectId();
  const project = useProject(projectId);
  const queryClient = useQueryClient();
  // The rotated keys live only in this component's state: gone when the page is left.
  const [rotated, setRotated] = useState<ProjectWithKeys | null>(null);
  return (
    <QueryView query={project}>
      {(p) => (
        <>
          <section className="panel">
            <h2>API keys</h2>
            <p>Keys are shown in full only once, when they are made. Here are their first characters, to tell which ones you have.</p>
            <dl className="dl-grid">
              <dt>Secret key</dt>
              <dd>
                <code>{p.secretPrefix}…</code> for your servers (Authorization: Bearer sk_…)
              </dd>
              <dt>Public key</dt>
              <dd>
                <code>{p.publicPrefix}…</code> for browsers and apps, only POST /v1/track
              </dd>
            </dl>
          </section>
          <SmtpCredentials />
          {rotated && <KeyReveal keys={rotated} />}
          <section className="panel">
            <h2>Rotate the keys</h2>
            <p>Makes a new secret key, public key and webhook signing secret. The old ones stop working at once: update your servers right after.</p>
            {p.role === 'MEMBER' ? (
              <p className="muted">Only owners and admins rotate keys.</p>
            ) : (
              <ConfirmButton
                label="Rotate keys"
                title="Rotate the API keys?"
                description="The current keys stop working immediately. The new ones are shown once."
                confirmLabel="Rotate now"
                onConfirm={async () => {
                  const keys = await accountApi.regenerateKeys(projectId);
                  setRotated(keys);
                  const { public: _p, secret: _s, webhookSecret: _w, ...withoutKeys } = keys;
                  queryClient.setQueryData(qk.project(projectId), withoutKeys);
                }}
              />
            )}
          </section>
        </>
      )}
    </QueryView>
  );
}

/** The submission relay's settings for mail clients and SMTP libraries; shown only when the deployment runs it. */
export function SmtpCredentials() {
  const config = usePublicConfig();
  const smtp = config.data?.smtp;
  const publicUrl = config.data?.publicUrl;
  if (!smtp?.submission || !publicUrl) return null;
  const host = new URL(publicUrl).hostname;
  const ports: Array<[string, number]> = [];
  if (smtp.submissionPort !== null) ports.push(['Port (STARTTLS)', smtp.submissionPort]);
  if (smtp.submissionTlsPort !== null) ports.push(['Port (TLS)', smtp.submissionTlsPort]);
  return (
    <section className="panel" aria-labelledby="smtp-credentials">
      <h2 id="smtp-credentials">SMTP relay</h2>
      <p>Apps and mail clients that speak SMTP send through this project with these settings. Each recipient gets its own email, as with the API.</p>
      <dl className="dl-grid">
        <dt>Host</dt>
        <dd>
          <code>{host}</code>
        </dd>
        {ports.map(([label, port]) => (
          <Fragment key={label}>
            <dt>{label}</dt>
            <dd>
              <code>{port}</code>
            </dd>
          </Fragment>
        ))}
        <dt>Username</dt>
        <dd>
          <code>mailroom</code>
        </dd>
        <dt>Password</dt>
        <dd>your secret key (sk_…)</dd>
      </dl>
      <p className="muted">The sender address must be on one of the project&apos;s verified domains.</p>
    </section>
  );
}
