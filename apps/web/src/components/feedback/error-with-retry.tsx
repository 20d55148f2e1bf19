import { Button } from '@/components/ui/button';

/** A failed load inside a dialog or drawer: what failed, said as an alert, and a way to ask again. */
export function ErrorWithRetry({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div role="alert" className="grid gap-2 rounded-md bg-destructive/10 px-3 py-2 text-sm text-destructive">
      <p>{message}</p>
      {onRetry && (
        <Button variant="outline" size="sm" className="w-fit" onClick={onRetry}>
          Try again
        </Button>
      )}
    </div>
  );
}
