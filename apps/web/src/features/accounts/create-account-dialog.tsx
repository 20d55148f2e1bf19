import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { toast } from 'sonner';
import { FieldError } from '@/components/feedback/field-error';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { DialogFormFooter } from '@/components/ui/dialog-form-footer';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useReturnFocus } from '@/lib/use-return-focus';
import { accountErrorContext, accountsKeys, createAccount } from './accounts-api';

/** Spec section 5 "Create account": required, trimmed, '{field} is required' with the label 'Client ID'. */
export function validateClientId(value: string): string | null {
  return value.trim() ? null : 'Client ID is required';
}

export function CreateAccountDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const [clientId, setClientId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const returnFocus = useReturnFocus((event) => {
    event.preventDefault();
    inputRef.current?.focus();
  });

  const close = () => {
    onOpenChange(false);
    setClientId('');
    setError(null);
  };

  const mutation = useMutation({
    mutationFn: createAccount,
    meta: { errorContext: accountErrorContext.create },
    onSuccess: () => {
      toast.success('Account created successfully');
      void queryClient.invalidateQueries({ queryKey: accountsKeys.all });
      close();
    },
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (mutation.isPending) return;
    const found = validateClientId(clientId);
    setError(found);
    if (found) {
      inputRef.current?.focus();
      return;
    }
    mutation.mutate({ clientId: clientId.trim() });
  };

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
              id="create-account-client-id"
              ref={inputRef}
              autoComplete="off"
              spellCheck={false}
              value={clientId}
              maxLength={100}
              onChange={(e) => {
                setClientId(e.target.value);
                if (error) setError(null);
              }}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'create-account-client-id-error' : undefined}
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
