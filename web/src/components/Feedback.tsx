import type { ReactNode } from 'react';
import { useDocumentTitle } from '../lib/useDocumentTitle';

export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="empty-state">
      <h3>{title}</h3>
      {children && <div className="empty-state-text">{children}</div>}
      {action && <div className="empty-state-action">{action}</div>}
    </div>
  );
}

/** A determinate bar (value 0..max), or an indeterminate one while value is undefined. */
export function ProgressBar({ label, value, max = 100, detail }: { label: string; value?: number; max?: number; detail?: ReactNode }) {
  const percent = value === undefined || max <= 0 ? undefined : Math.max(0, Math.min(100, Math.round((value / max) * 100)));
  return (
    <div className="progress">
      <div className="progress-label">
        <span>{label}</span>
        <span>{percent === undefined ? 'Waiting…' : `${percent}%`}</span>
      </div>
      <div
        className={percent === undefined ? 'progress-track progress-indeterminate' : 'progress-track'}
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <div className="progress-fill" style={{ width: `${percent ?? 30}%` }} />
      </div>
      {detail && <div className="progress-detail">{detail}</div>}
    </div>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="loading" role="status">
      <span className="spinner" aria-hidden="true" /> {label}
    </p>
  );
}

export function PageHeader({ title, description, actions }: { title: string; description?: ReactNode; actions?: ReactNode }) {
  useDocumentTitle(title);
  return (
    <header className="page-header">
      <div>
        <h1>{title}</h1>
        {description && <p className="page-description">{description}</p>}
      </div>
      {actions && <div className="page-actions">{actions}</div>}
    </header>
  );
}

export function Badge({ tone = 'neutral', children }: { tone?: 'neutral' | 'good' | 'warn' | 'bad' | 'info'; children: ReactNode }) {
  return <span className={`badge badge-${tone}`}>{children}</span>;
}

/** A short "done" note after an action, announced politely. */
export function Notice({ children }: { children: ReactNode }) {
  return (
    <p className="notice" role="status">
      {children}
    </p>
  );
}
