/**
 * A running import: the server answers once the whole file is in, so the bar is indeterminate (it says
 * the work goes on, not how far it is).
 */
export function ImportProgress({ label }: { label: string }) {
  return (
    <div className="space-y-2" role="status">
      <p className="text-sm text-muted-foreground">{label}</p>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuetext={label}
        className="h-2 overflow-hidden rounded-full bg-muted"
      >
        <div className="h-full w-full animate-pulse rounded-full bg-primary/70" />
      </div>
    </div>
  );
}
