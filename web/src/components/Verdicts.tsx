import { Badge } from './Feedback';

const VERDICTS = ['spf', 'dkim', 'dmarc'] as const;

/** SPF, DKIM and DMARC verdicts of a received message (`email.received` data), as badges: pass is good, fail bad, the rest neutral. */
export function Verdicts({ data }: { data: Record<string, unknown> | null | undefined }) {
  return (
    <span className="verdicts">
      {VERDICTS.map((name) => {
        const value = typeof data?.[name] === 'string' ? (data[name] as string) : 'none';
        return (
          <Badge key={name} tone={value === 'pass' ? 'good' : value === 'fail' || value === 'softfail' ? 'bad' : 'neutral'}>
            {name.toUpperCase()} {value}
          </Badge>
        );
      })}
    </span>
  );
}
