import { useId, useRef, useState } from 'react';
import { data } from '../api/client';
import { ApiError } from '../api/errors';
import { useApi } from '../lib/project';
import { Button } from './Button';

/** PNG, JPEG, GIF and WebP, at most 5 MB: what `POST /uploads/image` keeps (it checks the bytes). */
const ACCEPT = 'image/png,image/jpeg,image/gif,image/webp';
const MAX_BYTES = 5 * 1024 * 1024;

/** The tag inserted for an uploaded image; `alt` is left empty for the author to describe it. */
export function imageTag(url: string): string {
  return `<img src="${url.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}" alt="">`;
}

function problem(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 413) return 'The image is larger than 5 MB.';
    if (error.status === 415) return 'Only PNG, JPEG, GIF and WebP images can be uploaded.';
    return error.message;
  }
  return 'The upload failed. Try again.';
}

/**
 * "Insert image" for the body editors (templates, campaigns): uploads the chosen image with the
 * dashboard session and hands `<img src="…" alt="">` to `onInsert`, which puts it at the cursor.
 */
export function ImageUpload({ onInsert, disabled = false }: { onInsert: (html: string) => void; disabled?: boolean }) {
  const api = useApi();
  const input = useRef<HTMLInputElement>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<string>();
  const statusId = useId();

  const upload = async (file: File | undefined) => {
    if (!file) return;
    setError(undefined);
    setDone(undefined);
    if (file.size > MAX_BYTES) return setError('The image is larger than 5 MB.');
    const form = new FormData();
    form.append('file', file);
    setPending(true);
    try {
      // Multipart: openapi-fetch sends FormData as it is (the browser sets the boundary).
      const answer = await data(api.POST('/uploads/image', { body: form as never }));
      onInsert(imageTag(answer.url));
      setDone(`Inserted ${file.name}.`);
    } catch (err) {
      setError(problem(err));
    } finally {
      setPending(false);
      if (input.current) input.current.value = '';
    }
  };

  return (
    <div className="image-upload">
      <input ref={input} type="file" accept={ACCEPT} aria-label="Image to insert" className="visually-hidden" tabIndex={-1} disabled={disabled || pending} onChange={(e) => void upload(e.target.files?.[0])} />
      <Button onClick={() => input.current?.click()} disabled={disabled} pending={pending} pendingLabel="Uploading…" aria-describedby={statusId}>
        Insert image
      </Button>
      <span id={statusId} role="status" className={error ? 'field-error' : 'muted'}>
        {error ?? done ?? ''}
      </span>
    </div>
  );
}
