import { AlertDialog, Dialog } from 'radix-ui';
import { type ReactNode, useState } from 'react';
import { Button } from './Button';
import { ErrorMessage } from './ErrorMessage';
import { toast } from './Toasts';

/**
 * A button that asks before doing something destructive. `onConfirm` runs the request; the
 * dialog stays open (showing the API's error) until it succeeds.
 */
export function ConfirmButton({
  label,
  title,
  description,
  confirmLabel,
  onConfirm,
  variant = 'danger',
  disabled,
  doneMessage,
}: {
  label: string;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
  variant?: 'danger' | 'primary' | 'secondary';
  disabled?: boolean;
  /** A toast once it is done ("Campaign deleted."). */
  doneMessage?: string;
}) {
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async () => {
    if (pending) return;
    setPending(true);
    setError(null);
    try {
      await onConfirm();
      setOpen(false);
      if (doneMessage) toast(doneMessage);
    } catch (err) {
      setError(err);
    } finally {
      setPending(false);
    }
  };
  return (
    <AlertDialog.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setError(null);
      }}
    >
      <AlertDialog.Trigger asChild>
        <Button variant={variant === 'danger' ? 'danger' : 'secondary'} disabled={disabled}>
          {label}
        </Button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content className="dialog">
          <AlertDialog.Title>{title}</AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="dialog-description">{description}</div>
          </AlertDialog.Description>
          <ErrorMessage error={error} />
          <div className="dialog-actions">
            <AlertDialog.Cancel asChild>
              <Button>Cancel</Button>
            </AlertDialog.Cancel>
            <Button variant={variant} onClick={run} pending={pending}>
              {confirmLabel}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

/** A titled modal; `children` is the body (usually a form). */
export function Modal({ open, onOpenChange, title, description, children }: { open: boolean; onOpenChange: (open: boolean) => void; title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title>{title}</Dialog.Title>
          {description ? (
            <Dialog.Description asChild>
              <div className="dialog-description">{description}</div>
            </Dialog.Description>
          ) : (
            <Dialog.Description className="visually-hidden">{title}</Dialog.Description>
          )}
          {children}
          <Dialog.Close asChild>
            <button type="button" className="dialog-close" aria-label="Close">
              ×
            </button>
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
