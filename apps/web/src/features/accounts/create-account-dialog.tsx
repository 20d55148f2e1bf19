import { createAccountRequest } from '@loyalty/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { FieldError } from '@/components/feedback/field-error';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { DialogFormFooter } from '@/components/ui/dialog-form-footer';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { fieldAria, setServerFieldErrors, useZodForm } from '@/lib/form';
import { useReturnFocus } from '@/lib/use-return-focus';
import { accountErrorContext, accountsKeys, createAccount } from './accounts-api';

/** Spec section 5 "Create account": required and trimmed ('Client ID is required'), by the contract's schema. */
export function CreateAccountDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const form = useZodForm(createAccountRequest, { defaultValues: { clientId: '' } });
  const error = form.formState.errors.clientId?.message;
  const returnFocus = useReturnFocus((event) => {
    event.preventDefault();
    form.setFocus('clientId');
  });

  const close = () => {
    onOpenChange(false);
    form.reset({ clientId: '' });
  };

  const mutation = useMutation({
    mutationFn: createAccount,
    meta: { errorContext: accountErrorContext.create },
    onSuccess: () => {
      toast.success('Account created successfully');
      void queryClient.invalidateQueries({ queryKey: accountsKeys.all });
      close();
    },
    onError: (failure) => setServerFieldErrors(form, failure),
  });

  const onSubmit = form.handleSubmit((values) => {
    if (!mutation.isPending) mutation.mutate(values);
  });

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : !mutation.isPending && close())}>
      <DialogContent {...returnFocus}>
        <DialogHeader>
          <DialogTitle>Create Account</DialogTitle>
          <DialogDescription>
            A loyalty account for one client. Cards are issued to it afterwards.
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={onSubmit} className="grid gap-4">
          <div className="grid gap-2">
            <Label htmlFor="create-account-client-id">Client ID</Label>
            <Input
              autoComplete="off"
              spellCheck={false}
              maxLength={100}
              {...form.register('clientId')}
              {...fieldAria('create-account-client-id', error)}
            />
            <FieldError id="create-account-client-id-error" message={error} />
          </div>
          <DialogFormFooter
            onCancel={close}
            pending={mutation.isPending}
            submitLabel="Create Account"
            pendingLabel="Creating..."
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
