import {
  ArrowDownCircleIcon,
  ArrowUpCircleIcon,
  CircleHelpIcon,
  LockIcon,
  SlidersHorizontalIcon,
  TimerOffIcon,
} from 'lucide-react';
import type { ComponentType, SVGProps } from 'react';

const types: Record<string, { label: string; Icon: ComponentType<SVGProps<SVGSVGElement>>; tone: string }> = {
  accrual: { label: 'Accrual', Icon: ArrowUpCircleIcon, tone: 'text-emerald-600 dark:text-emerald-400' },
  redemption: { label: 'Redemption', Icon: ArrowDownCircleIcon, tone: 'text-red-600 dark:text-red-400' },
  hold: { label: 'Hold', Icon: LockIcon, tone: 'text-amber-600 dark:text-amber-400' },
  adjustment: { label: 'Adjustment', Icon: SlidersHorizontalIcon, tone: 'text-sky-600 dark:text-sky-400' },
  // Issue 9: points that lapsed, a debit like a redemption.
  expiry: { label: 'Expiry', Icon: TimerOffIcon, tone: 'text-red-600 dark:text-red-400' },
};

/** An operation type with its icon (spec: "type with icon"); unknown types keep their raw name. */
export function OperationType({ type }: { type: string }) {
  const known = Object.hasOwn(types, type) ? types[type] : undefined;
  const Icon = known?.Icon ?? CircleHelpIcon;
  return (
    <span className="inline-flex items-center gap-1.5">
      <Icon className={`size-4 shrink-0 ${known?.tone ?? 'text-muted-foreground'}`} aria-hidden="true" />
      <span>{known?.label ?? type}</span>
    </span>
  );
}
