import type { ButtonHTMLAttributes } from 'react';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: 'primary' | 'secondary' | 'danger' | 'ghost';
  /** While true the button is disabled and says `pendingLabel` (a request is in flight). */
  pending?: boolean;
  pendingLabel?: string;
}

export function Button({ variant = 'secondary', pending = false, pendingLabel, disabled, children, className, type = 'button', ...rest }: ButtonProps) {
  return (
    <button
      {...rest}
      type={type}
      className={['btn', `btn-${variant}`, className].filter(Boolean).join(' ')}
      disabled={disabled || pending}
      aria-busy={pending || undefined}
    >
      {pending ? (
        <>
          <span className="spinner" aria-hidden="true" /> {pendingLabel ?? children}
        </>
      ) : (
        children
      )}
    </button>
  );
}
