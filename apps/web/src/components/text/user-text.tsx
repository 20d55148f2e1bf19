import { cn } from '@/lib/utils';

/**
 * Text a person typed (a POS name, a client ID, a category) on one line, cut with an ellipsis where the
 * column is narrower; the whole value in the title. `dir="auto"` gives it the direction of its own first
 * strong character: a Hebrew or Arabic name laid out left-to-right lost its beginning to the ellipsis (its
 * start is at the right), and it is isolated from the text around it.
 */
export function TruncatedText({ text, className }: { text: string; className?: string }) {
  return (
    <span dir="auto" title={text} className={cn('block min-w-0 truncate', className)}>
      {text}
    </span>
  );
}

/**
 * Text a person typed that wraps instead, broken anywhere if a word (an address, a 60-character SKU) needs it:
 * two similar long values stay told apart. With `lines`, it is clamped to that many lines and the whole value
 * is in the title.
 */
export function WrappedText({ text, lines, className }: { text: string; lines?: 2 | 3; className?: string }) {
  return (
    <span
      dir="auto"
      title={lines ? text : undefined}
      className={cn(
        'block whitespace-normal [overflow-wrap:anywhere]',
        lines === 2 && 'line-clamp-2',
        lines === 3 && 'line-clamp-3',
        className,
      )}
    >
      {text}
    </span>
  );
}
