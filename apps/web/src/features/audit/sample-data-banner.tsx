import { TriangleAlertIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { getErrorMessage } from '@/lib/handle-server-error';

export function SampleDataBanner({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center gap-3 rounded-lg border border-warning-foreground/30 bg-warning px-4 py-3 text-sm text-warning-foreground"
    >
      <TriangleAlertIcon className="size-5 shrink-0" aria-hidden="true" />
      <div className="min-w-0 flex-1">
        <p className="font-semibold">Sample data — the audit log could not be loaded</p>
        <p>The entries below are examples, not real activity. Reason: {getErrorMessage(error)}</p>
      </div>
      <Button variant="outline" size="sm" onClick={onRetry} className="bg-background text-foreground">
        Retry
      </Button>
    </div>
  );
}
