import type { CSSProperties } from 'react';
import { Toaster as Sonner, type ToasterProps } from 'sonner';
import { useTheme } from '@/lib/theme';

/**
 * Spec section 9: top-center, 4000 ms, 3 visible, gap 14 px. Width 356 px and swipe threshold 45 px are
 * sonner's own defaults, so they need no setting here.
 */
export function Toaster(props: ToasterProps) {
  const theme = useTheme();
  return (
    <Sonner
      theme={theme}
      position="top-center"
      duration={4000}
      visibleToasts={3}
      gap={14}
      className="toaster group"
      style={
        {
          '--normal-bg': 'var(--popover)',
          '--normal-text': 'var(--popover-foreground)',
          '--normal-border': 'var(--border)',
        } as CSSProperties
      }
      {...props}
    />
  );
}
