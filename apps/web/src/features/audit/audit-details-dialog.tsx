import { type AuditEntry, auditTargetLabels } from '@loyalty/contracts';
import { useId } from 'react';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { formatTimestamp } from '@/lib/format';
import { useReturnFocus } from '@/lib/use-return-focus';

function JsonBlock({ title, value }: { title: string; value: unknown }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="grid min-w-0 content-start gap-2">
      <h3 id={id} className="text-sm font-semibold">
        {title}
      </h3>
      {value === null || value === undefined ? (
        <p className="rounded-md border border-dashed p-3 text-sm text-muted-foreground">No data</p>
      ) : (
        <pre className="max-h-72 overflow-auto whitespace-pre-wrap rounded-md border bg-muted/50 p-3 font-mono text-xs leading-relaxed [overflow-wrap:anywhere]">
          {JSON.stringify(value, null, 2)}
        </pre>
      )}
    </section>
  );
}

export function AuditDetailsDialog({ entry, onClose }: { entry: AuditEntry | null; onClose: () => void }) {
  // Opened from a row's 'View Details', not a Radix Trigger: without this, closing leaves focus on <body>.
  const returnFocus = useReturnFocus();
  return (
    <Dialog open={entry !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-3xl" {...returnFocus}>
        <DialogHeader>
          <DialogTitle>Audit Entry Details</DialogTitle>
          <DialogDescription>{entry?.message}</DialogDescription>
        </DialogHeader>
        {entry && (
          <>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
              <dt className="text-muted-foreground">Time</dt>
              <dd>{formatTimestamp(entry.executedAt)}</dd>
              <dt className="text-muted-foreground">User</dt>
              <dd>{entry.username ?? '—'}</dd>
              <dt className="text-muted-foreground">Type</dt>
              <dd>{auditTargetLabels[entry.targetType]}</dd>
              <dt className="text-muted-foreground">Target ID</dt>
              <dd className="break-all font-mono text-xs leading-5">{entry.targetId ?? '—'}</dd>
            </dl>
            <div className="grid gap-4 md:grid-cols-2">
              <JsonBlock title="Before" value={entry.source} />
              <JsonBlock title="After" value={entry.dest} />
            </div>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
