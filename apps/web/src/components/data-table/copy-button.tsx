import { CheckIcon, CopyIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { copyText } from '@/lib/copy-text';
import { cn } from '@/lib/utils';

const COPIED_ICON_MS = 1500;

/** A small icon button copying `value`; "Copied" is announced by the toast (a live region). */
export function CopyButton({
  value,
  label,
  className,
}: {
  value: string;
  label: string;
  className?: string;
}) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    // Only the icon goes back: nothing waits on this timer.
    const timer = setTimeout(() => setCopied(false), COPIED_ICON_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await copyText(value);
      setCopied(true);
      toast.success('Copied', { description: value, id: 'copied' });
    } catch {
      toast.error('Could not copy', { description: 'Select the text and copy it instead.', id: 'copied' });
    }
  };

  return (
    <Button
      variant="ghost"
      size="icon-sm"
      className={cn('size-6 shrink-0 text-muted-foreground hover:text-foreground', className)}
      aria-label={`Copy ${label}`}
      onClick={copy}
    >
      {copied ? <CheckIcon className="size-3.5" /> : <CopyIcon className="size-3.5" />}
    </Button>
  );
}
