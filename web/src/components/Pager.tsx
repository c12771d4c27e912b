import { Button } from './Button';

/** Previous/next for offset lists (`page`, `totalPages`). */
export function Pager({ page, totalPages, total, onPage, busy }: { page: number; totalPages: number; total: number; onPage: (page: number) => void; busy?: boolean }) {
  if (totalPages <= 1) return <p className="pager-summary">{total.toLocaleString()} in all</p>;
  return (
    <nav className="pager" aria-label="Pages">
      <Button onClick={() => onPage(page - 1)} disabled={page <= 1 || busy}>
        Previous
      </Button>
      <span>
        Page {page} of {totalPages} ({total.toLocaleString()} in all)
      </span>
      <Button onClick={() => onPage(page + 1)} disabled={page >= totalPages || busy}>
        Next
      </Button>
    </nav>
  );
}
