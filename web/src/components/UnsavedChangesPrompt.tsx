import { AlertDialog } from 'radix-ui';
import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { Button } from './Button';

/** Navigation state that leaves an editor without asking (after deleting what it edited). */
export const DISCARD_CHANGES = { discardChanges: true };

/**
 * While `when` (an editor has unsaved changes), leaving asks first: a dialog for a move inside
 * the dashboard, the browser's own prompt for closing the tab or reloading.
 */
export function UnsavedChangesPrompt({ when }: { when: boolean }) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      when && currentLocation.pathname !== nextLocation.pathname && !(nextLocation.state as typeof DISCARD_CHANGES | null)?.discardChanges,
  );
  useEffect(() => {
    if (!when) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [when]);
  return (
    <AlertDialog.Root open={blocker.state === 'blocked'} onOpenChange={(open) => !open && blocker.reset?.()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content className="dialog">
          <AlertDialog.Title>Leave without saving?</AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="dialog-description">Your changes are not saved yet; leaving discards them.</div>
          </AlertDialog.Description>
          <div className="dialog-actions">
            <AlertDialog.Cancel asChild>
              <Button>Keep editing</Button>
            </AlertDialog.Cancel>
            <Button variant="danger" onClick={() => blocker.proceed?.()}>
              Discard changes
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
