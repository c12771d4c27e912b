import { data } from '../../api/client';
import type { Contact } from '../../api/types';
import { Button } from '../../components/Button';
import { ErrorMessage } from '../../components/ErrorMessage';
import { toast } from '../../components/Toasts';
import { useApiMutation } from '../../lib/forms';
import { useApi } from '../../lib/project';

/** The export's file name: the contact's address, or its id when the address makes no usable name. */
export function exportFileName(contact: Pick<Contact, 'id' | 'email'>): string {
  const safe = contact.email.toLowerCase().replace(/[^a-z0-9@._+-]/g, '_').replace(/^\.+/, '');
  return `contact-${safe.length > 0 && safe.length <= 200 ? safe : contact.id}.json`;
}

/** Hands a file to the browser's download. */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // After the click has started the download.
  queueMicrotask(() => URL.revokeObjectURL(url));
}

/** "Export data": everything held about the contact, as the JSON file `GET /contacts/:id/export` writes. */
export function ExportContactButton({ contact }: { contact: Pick<Contact, 'id' | 'email'> }) {
  const api = useApi();
  const exporting = useApiMutation({
    mutationFn: () => data(api.GET('/contacts/{id}/export', { params: { path: { id: contact.id } }, parseAs: 'blob' })),
    onSuccess: (file) => {
      saveFile(file as Blob, exportFileName(contact));
      toast('Contact data exported.');
    },
  });
  return (
    <>
      <ErrorMessage error={exporting.error} title="Could not export the contact's data" />
      <Button onClick={() => exporting.submit()} pending={exporting.isPending} pendingLabel="Exporting…">
        Export data
      </Button>
    </>
  );
}
