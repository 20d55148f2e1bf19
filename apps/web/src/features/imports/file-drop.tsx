import { FileSpreadsheetIcon, UploadIcon } from 'lucide-react';
import { type DragEvent, useId, useState } from 'react';
import { cn } from '@/lib/utils';

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * Pick or drop one CSV file. The real file input stays in the tab order (visually hidden), so the
 * keyboard opens the picker with Enter or Space and the zone shows its focus ring.
 */
export function FileDrop({
  file,
  onFile,
  disabled,
}: {
  file: File | null;
  onFile: (file: File) => void;
  disabled?: boolean;
}) {
  const id = useId();
  const [dragging, setDragging] = useState(false);
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped && !disabled) onFile(dropped);
  };
  return (
    <label
      htmlFor={id}
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      className={cn(
        'flex cursor-pointer flex-col items-center justify-center gap-2 rounded-lg border-2 border-dashed p-6 text-center',
        'focus-within:ring-2 focus-within:ring-ring focus-within:ring-offset-2 focus-within:ring-offset-background',
        dragging ? 'border-primary bg-primary/5' : 'border-border hover:bg-muted/50',
        disabled && 'cursor-not-allowed opacity-60',
      )}
    >
      <input
        id={id}
        type="file"
        accept=".csv,text/csv"
        className="sr-only"
        disabled={disabled}
        onChange={(event) => {
          const picked = event.target.files?.[0];
          if (picked) onFile(picked);
          // The same file picked again (after fixing it) fires change again.
          event.target.value = '';
        }}
      />
      {file ? (
        <>
          <FileSpreadsheetIcon aria-hidden className="size-8 text-muted-foreground" />
          <span className="font-medium break-all">{file.name}</span>
          <span className="text-sm text-muted-foreground">
            {formatSize(file.size)} · choose or drop another file to replace it
          </span>
        </>
      ) : (
        <>
          <UploadIcon aria-hidden className="size-8 text-muted-foreground" />
          <span className="font-medium">Choose a CSV file or drop it here</span>
          <span className="text-sm text-muted-foreground">UTF-8, with a header row</span>
        </>
      )}
    </label>
  );
}
