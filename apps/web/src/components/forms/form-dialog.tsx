import type { FormEventHandler, ReactNode } from 'react';
import { FormAlert } from '@/components/feedback/form-alert';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { DialogFormFooter } from '@/components/ui/dialog-form-footer';
import type { useFormDialog } from './use-form-dialog';

/** The props of a dialog opened by a button of its screen: whether it is open, and how it closes. */
export interface DialogOpenProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

type FormDialogState = Pick<ReturnType<typeof useFormDialog>, 'onOpenChange' | 'content' | 'footer'>;

/**
 * The shape of a console form dialog: title and description, the fields, Cancel and the submit button
 * (which says what is happening while the request runs). `dialog` comes from useFormDialog; `intro` sits
 * between the description and the form (e.g. the cards about to be blocked); `alert` is a form-level
 * message above the fields (see formLevelMessage).
 */
export function FormDialog({
  open,
  dialog,
  title,
  description,
  intro,
  alert,
  onSubmit,
  submitLabel,
  pendingLabel,
  submitDisabled,
  destructive,
  children,
}: {
  open: boolean;
  dialog: FormDialogState;
  title: ReactNode;
  description: ReactNode;
  intro?: ReactNode;
  alert?: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  submitLabel: string;
  pendingLabel: string;
  submitDisabled?: boolean;
  destructive?: boolean;
  children: ReactNode;
}) {
  return (
    <Dialog open={open} onOpenChange={dialog.onOpenChange}>
      <DialogContent {...dialog.content}>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        {intro}
        <form noValidate onSubmit={onSubmit} className="grid gap-4">
          {alert && <FormAlert message={alert} />}
          {children}
          <DialogFormFooter
            {...dialog.footer}
            submitLabel={submitLabel}
            pendingLabel={pendingLabel}
            submitDisabled={submitDisabled}
            destructive={destructive}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
