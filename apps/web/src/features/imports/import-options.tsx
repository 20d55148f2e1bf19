import { type ImportKind, importKinds } from '@loyalty/contracts';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/utils';
import { importKindInfo } from './imports-api';

/**
 * A header line such as `clientId,cardNumber,points`: on a phone it may break after a comma (a `<wbr>`, which a
 * copy of the text leaves out), not inside a column's name.
 */
function ColumnList({ columns }: { columns: string }) {
  return columns.split(',').map((column, i) => (
    // The list is fixed text: its positions are its identity.
    // biome-ignore lint/suspicious/noArrayIndexKey: never reordered
    <span key={i}>
      {i > 0 && (
        <>
          ,<wbr />
        </>
      )}
      {column}
    </span>
  ));
}

/** The kind of file, as native radio buttons: arrow keys move between them, as a radio group should. */
export function KindPicker({
  value,
  onChange,
  disabled,
}: {
  value: ImportKind;
  onChange: (kind: ImportKind) => void;
  disabled?: boolean;
}) {
  return (
    <fieldset className="grid gap-3 sm:grid-cols-2" disabled={disabled}>
      <legend className="mb-2 text-sm font-medium">What the file holds</legend>
      {importKinds.map((kind) => {
        const info = importKindInfo[kind];
        return (
          <label
            key={kind}
            className={cn(
              'flex cursor-pointer gap-3 rounded-lg border p-3 focus-within:ring-2 focus-within:ring-ring',
              value === kind ? 'border-primary bg-primary/5' : 'hover:bg-muted/50',
            )}
          >
            <input
              type="radio"
              name="import-kind"
              value={kind}
              checked={value === kind}
              onChange={() => onChange(kind)}
              className="mt-1 accent-primary"
            />
            <span className="space-y-1">
              <span className="block font-medium">{info.label}</span>
              <span className="block text-sm text-muted-foreground">{info.description}</span>
              <code className="block text-xs wrap-anywhere text-muted-foreground">
                <ColumnList columns={info.columns} />
              </code>
            </span>
          </label>
        );
      })}
    </fieldset>
  );
}

export function SkipInvalidOption({
  checked,
  onChange,
  disabled,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
}) {
  return (
    <div className="flex items-start gap-2">
      <Checkbox
        id="skip-invalid"
        checked={checked}
        disabled={disabled}
        onCheckedChange={(next) => onChange(next === true)}
        aria-describedby="skip-invalid-help"
      />
      <div className="grid gap-1">
        <Label htmlFor="skip-invalid">Skip invalid rows</Label>
        <p id="skip-invalid-help" className="text-sm text-muted-foreground">
          Import the valid rows and report the others. Off: one invalid row and nothing is imported.
        </p>
      </div>
    </div>
  );
}
