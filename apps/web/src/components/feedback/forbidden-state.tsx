import { ShieldAlertIcon } from 'lucide-react';

/** What a screen shows instead of its data when the server answers 403 for this role. */
export function ForbiddenState({ message }: { message: string }) {
  return (
    <div
      role="status"
      className="flex flex-col items-center gap-3 rounded-xl border border-dashed p-10 text-center text-muted-foreground"
    >
      <ShieldAlertIcon className="size-8" aria-hidden="true" />
      <p className="font-medium text-foreground">{message}</p>
      <p className="text-sm">Ask an administrator if you need access.</p>
    </div>
  );
}
