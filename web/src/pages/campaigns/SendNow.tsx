import { AlertDialog } from 'radix-ui';
import { useEffect, useState } from 'react';
import { type Campaign, useCampaignAudiencePreview } from '../../api/campaigns';
import { Button } from '../../components/Button';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Loading } from '../../components/Feedback';
import { toast } from '../../components/Toasts';
import type { useApiMutation } from '../../lib/forms';
import { formatNumber } from '../../lib/format';

/**
 * "Send now" is a send scheduled this far ahead through the API, so the cancel window lives on
 * the server: closing the page during it cannot send early, and cancelling (SCHEDULED → DRAFT)
 * sends nothing.
 */
export const CANCEL_WINDOW_MS = 10_000;

type SendMutation = ReturnType<typeof useApiMutation<unknown, string | null>>;
type CancelMutation = ReturnType<typeof useApiMutation<unknown, void>>;

/** Seconds left before a SCHEDULED campaign starts, when it starts within the cancel window (else undefined). */
export function useSecondsLeft(campaign: Campaign): number | undefined {
  const due = campaign.status === 'SCHEDULED' && campaign.scheduledFor ? new Date(campaign.scheduledFor).getTime() : undefined;
  const [now, setNow] = useState(() => Date.now());
  // The clock ticks while the campaign is scheduled at all (a send scheduled for later enters the
  // window too); its first tick replaces the time read at mount.
  const scheduled = due !== undefined;
  useEffect(() => {
    if (!scheduled) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [scheduled]);
  return due !== undefined && due - now <= CANCEL_WINDOW_MS + 2_000 ? Math.max(0, Math.ceil((due - now) / 1000)) : undefined;
}

/** The cancel window after "Send now": a countdown and the button that takes the send back. */
export function CancelWindow({ secondsLeft, cancel }: { secondsLeft: number; cancel: CancelMutation }) {
  return (
    <div className="banner banner-warn">
      <span>{secondsLeft > 0 ? `Sending in ${secondsLeft} s…` : 'Starting…'}</span>
      <Button
        onClick={() => void cancel.submit().then((done) => done !== undefined && toast('Send cancelled: nothing was sent.'))}
        pending={cancel.isPending}
        pendingLabel="Cancelling…"
        disabled={secondsLeft === 0}
      >
        Cancel sending
      </Button>
    </div>
  );
}

/** The "Send now" button and its confirmation: the audience after skips, the sender and the subject. */
export function SendNow({ campaign, send }: { campaign: Campaign; send: SendMutation }) {
  const [open, setOpen] = useState(false);
  return (
    <AlertDialog.Root open={open} onOpenChange={setOpen}>
      <AlertDialog.Trigger asChild>
        <Button variant="primary">Send now</Button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content className="dialog">
          <AlertDialog.Title>Send {campaign.name} now?</AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="dialog-description">It starts {CANCEL_WINDOW_MS / 1000} seconds after you confirm; until then you can cancel and nothing is sent.</div>
          </AlertDialog.Description>
          <SendSummary campaign={campaign} />
          <ErrorMessage error={send.error} title="Could not send" />
          <div className="dialog-actions">
            <AlertDialog.Cancel asChild>
              <Button>Cancel</Button>
            </AlertDialog.Cancel>
            <Button
              variant="primary"
              pending={send.isPending}
              pendingLabel="Scheduling…"
              onClick={() =>
                void send.submit(new Date(Date.now() + CANCEL_WINDOW_MS).toISOString()).then((done) => {
                  if (done !== undefined) setOpen(false);
                })
              }
            >
              Send
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

function SendSummary({ campaign }: { campaign: Campaign }) {
  const preview = useCampaignAudiencePreview(campaign.id);
  return (
    <dl className="dl-grid" aria-label="What will be sent">
      <dt>Recipients</dt>
      <dd>
        {preview.isPending && <Loading label="Counting…" />}
        {preview.isError && <ErrorMessage error={preview.error} title="Could not count the audience" />}
        {preview.data && (
          <>
            <strong>{formatNumber(preview.data.totalRecipients - preview.data.skippedCount)}</strong> contacts
            {preview.data.skippedCount > 0 && ` (${formatNumber(preview.data.skippedCount)} of ${formatNumber(preview.data.totalRecipients)} skipped)`}
          </>
        )}
      </dd>
      <dt>From</dt>
      <dd>{campaign.fromName ? `${campaign.fromName} <${campaign.from}>` : campaign.from}</dd>
      <dt>Subject</dt>
      <dd>{campaign.subject}</dd>
    </dl>
  );
}
