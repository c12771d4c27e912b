import { useEffect } from 'react';

/** The tab's title: "<page> · Mailroom" (what screen readers announce and history lists). */
export function useDocumentTitle(title: string | undefined): void {
  useEffect(() => {
    if (title) document.title = `${title} · Mailroom`;
  }, [title]);
}
