import { CheckIcon, CopyIcon, MonitorCheckIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { toast } from 'sonner';
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
import { copyText } from '@/lib/copy-text';
import { formatDateTime } from '@/lib/format';
import { getServerMessage } from '@/lib/handle-server-error';
import { getStoredPosApiKey, storePosApiKey } from '@/lib/pos-api-key';
import { useReturnFocus } from '@/lib/use-return-focus';
import { PosKeyStatusBadge } from './pos-key-status';
import type { RevealState } from './use-reveal-pos-key';

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="break-words text-sm font-medium">{children}</dd>
    </div>
  );
}

/** Spec section 2 "POS Keys" → View API Key: the key read-only, a copy button, and the key's details. */
export function RevealPosKeyDialog({ reveal }: { reveal: RevealState }) {
  const { posKey, key, isPending, error } = reveal;
  const returnFocus = useReturnFocus();
  const stored = key !== null && getStoredPosApiKey() === key;

  const copy = async () => {
    if (!key) return;
    try {
      await copyText(key);
      toast.success('API key copied to clipboard');
    } catch {
      toast.error('Failed to copy to clipboard');
    }
  };

  const useForPosApi = () => {
    if (!key) return;
    storePosApiKey(key);
    toast.success('API key stored for the POS API page');
    reveal.close();
  };

  return (
    <Dialog open={posKey !== null} onOpenChange={(open) => !open && reveal.close()}>
      <DialogContent {...returnFocus}>
        <DialogHeader>
          <DialogTitle>View API Key</DialogTitle>
          <DialogDescription>
            This reveal is logged for audit. Share the key only with the till it belongs to.
          </DialogDescription>
        </DialogHeader>
        <div className="grid gap-2">
          <Label htmlFor="reveal-pos-key">API Key</Label>
          {isPending ? (
            <Skeleton className="h-9 w-full" aria-label="Loading API key" />
          ) : error ? (
            <ErrorWithRetry
              message={`Failed to reveal API key: ${getServerMessage(error)}`}
              onRetry={reveal.retry}
            />
          ) : (
            <div className="flex gap-2">
              <Input
                id="reveal-pos-key"
                readOnly
                value={key ?? ''}
                className="min-w-0 flex-1 font-mono"
                onFocus={(e) => e.currentTarget.select()}
              />
              <Button
                variant="outline"
                size="icon"
                aria-label="Copy API key"
                title="Copy API key"
                onClick={copy}
              >
                <CopyIcon />
              </Button>
            </div>
          )}
        </div>
        {posKey && (
          <dl className="grid grid-cols-2 gap-3">
            <Detail label="Name">{posKey.name}</Detail>
            <Detail label="Address">
              {posKey.address || <span className="font-normal text-muted-foreground">Not set</span>}
            </Detail>
            <Detail label="Status">
              <PosKeyStatusBadge status={posKey.status} />
            </Detail>
            <Detail label="Created">{formatDateTime(posKey.createdAt)}</Detail>
          </dl>
        )}
        <DialogFooter>
          {key && (
            <Button variant="outline" onClick={useForPosApi} disabled={stored}>
              {stored ? <CheckIcon /> : <MonitorCheckIcon />}
              {stored ? 'Used for POS API' : 'Use for POS API'}
            </Button>
          )}
          <Button onClick={reveal.close}>Close</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
