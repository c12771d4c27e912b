import { useSyncExternalStore } from 'react';

interface Toast {
  id: number;
  text: string;
}

const SHOWN_MS = 6_000;
let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

/**
 * A short note after an action ("Campaign deleted."), shown for a few seconds by the layout's
 * <Toasts /> and announced politely. Module-level, so it survives the navigation that usually
 * follows a delete.
 */
export function toast(text: string): void {
  const id = nextId++;
  toasts = [...toasts, { id, text }];
  emit();
  setTimeout(() => dismiss(id), SHOWN_MS);
}

function dismiss(id: number): void {
  toasts = toasts.filter((t) => t.id !== id);
  emit();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The live region the toasts appear in; rendered once by the signed-in layout. */
export function Toasts() {
  const shown = useSyncExternalStore(subscribe, () => toasts);
  return (
    <div className="toasts" role="status" aria-live="polite" aria-label="Notifications">
      {shown.map((t) => (
        <div key={t.id} className="toast">
          <span>{t.text}</span>
          <button type="button" className="toast-close" aria-label="Dismiss" onClick={() => dismiss(t.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
