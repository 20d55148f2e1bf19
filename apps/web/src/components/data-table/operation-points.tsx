import { SignedPoints } from '@/components/operations/signed-points';
import { formatSignedPoints, NOT_APPLIED_HINT, pointsApplied } from '@/lib/points';

/**
 * An operation's signed points, the one way every operations table shows them (/operations, the client page,
 * the account's Operations dialog): green or red when they moved a balance; muted, with a title and a
 * screen-reader hint, when the operation failed and nothing moved (lib/points.ts pointsApplied).
 */
export function OperationPoints({ value, status }: { value: number | string; status: string }) {
  if (pointsApplied(status)) return <SignedPoints value={value} />;
  return (
    <span
      className="tabular-nums text-muted-foreground"
      title={`${formatSignedPoints(value)}: ${NOT_APPLIED_HINT}`}
    >
      {formatSignedPoints(value)}
      <span className="sr-only"> {NOT_APPLIED_HINT}</span>
    </span>
  );
}
