import { CopyButton } from '@/components/data-table';
import { ErrorWithRetry } from '@/components/feedback/error-with-retry';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { getServerMessage } from '@/lib/handle-server-error';
import { useReturnFocus } from '@/lib/use-return-focus';

/** What the dialog shows: the secret, or the reveal on its way or failed. */
export interface SecretView {
  /** The endpoint's URL, said in the description; null keeps the dialog closed. */
  url: string | null;
  /** 'created': the answer of Add Endpoint, shown this once; 'revealed': an audited read. */
  origin: 'created' | 'revealed';
  secret: string | null;
  isPending?: boolean;
  error?: unknown;
  retry?: () => void;
  close: () => void;
}

const descriptions = {
  created:
    'Copy the signing secret now: it is not shown again. An administrator can reveal it later (audited).',
  revealed:
    'This reveal is logged for audit. Share the secret only with the system that verifies the signatures.',
};

/** The whsec_ signing secret read-only, with a copy button; the same dialog after Add Endpoint and for a reveal. */
export function WebhookSecretDialog({ view }: { view: SecretView }) {
  const { url, origin, secret, isPending, error } = view;
  const returnFocus = useReturnFocus();
  return (
    <Dialog open={url !== null} onOpenChange={(open) => !open && view.close()}>
      <DialogContent {...returnFocus}>
        <DialogHeader>
          <DialogTitle>{origin === 'created' ? 'Endpoint Added' : 'Signing Secret'}</DialogTitle>
          <DialogDescription>{descriptions[origin]}</DialogDescription>
        </DialogHeader>
        <p className="break-all text-sm">
          <span className="text-muted-foreground">Endpoint: </span>
          {url}
        </p>
        <div className="grid gap-2">
          <Label htmlFor="webhook-secret">Signing secret</Label>
          {isPending ? (
            <Skeleton className="h-9 w-full" aria-label="Loading signing secret" />
          ) : error ? (
            <ErrorWithRetry
              message={`Failed to reveal the signing secret: ${getServerMessage(error)}`}
              onRetry={view.retry}
            />
          ) : (
            <div className="flex items-center gap-2">
              <Input
                id="webhook-secret"
                readOnly
                value={secret ?? ''}
                className="min-w-0 flex-1 font-mono"
                onFocus={(e) => e.currentTarget.select()}
              />
              <CopyButton value={secret ?? ''} label="signing secret" className="size-9" />
            </div>
          )}
        </div>
        <DialogFooter>
          <Button onClick={view.close}>Done</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
