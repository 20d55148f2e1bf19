import { Button } from './button';
import { DialogFooter } from './dialog';

interface DialogFormFooterProps {
  onCancel: () => void;
  pending: boolean;
  /** The submit button's label, e.g. 'Create User'. */
  submitLabel: string;
  /** Shown while the request runs, e.g. 'Creating...'. */
  pendingLabel: string;
  /** Extra reason to keep submit disabled (e.g. an empty amount). */
  submitDisabled?: boolean;
  destructive?: boolean;
}

/**
 * Cancel + submit for a dialog form: both disabled while saving, the submit says what is happening. The
 * submit is `pending` rather than disabled: pressed with Enter it keeps focus, so a failure (the dialog stays
 * open) does not leave focus on <body> outside the dialog.
 */
export function DialogFormFooter({
  onCancel,
  pending,
  submitLabel,
  pendingLabel,
  submitDisabled = false,
  destructive = false,
}: DialogFormFooterProps) {
  return (
    <DialogFooter>
      <Button variant="outline" onClick={onCancel} disabled={pending}>
        Cancel
      </Button>
      <Button
        type="submit"
        variant={destructive ? 'destructive' : 'default'}
        pending={pending}
        disabled={!pending && submitDisabled}
      >
        {pending ? pendingLabel : submitLabel}
      </Button>
    </DialogFooter>
  );
}
