import { createPosKeyRequest, type PosKeyStatus } from '@loyalty/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Controller } from 'react-hook-form';
import { toast } from 'sonner';
import { FieldError } from '@/components/feedback/field-error';
import { FormAlert } from '@/components/feedback/form-alert';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { DialogFormFooter } from '@/components/ui/dialog-form-footer';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { fieldAria, setServerFieldErrors, useZodForm } from '@/lib/form';
import { ApiKeyInput } from './api-key-input';
import { generateApiKey } from './generate-api-key';
import { createPosKey, posKeyStatusOptions, posKeysKeys } from './pos-keys-api';

const REQUIRED = 'Name and API Key are required';
const empty = { name: '', address: '', apiKey: '', status: 'active' as PosKeyStatus };

/** Spec section 2 "POS Keys" and 5 "Create POS key", checked by the contract's schema. */
export function AddPosKeyDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const form = useZodForm(createPosKeyRequest, { defaultValues: empty });
  const { errors } = form.formState;

  const close = () => {
    onOpenChange(false);
    form.reset(empty);
  };

  const mutation = useMutation({
    mutationFn: createPosKey,
    meta: { errorTitle: 'Failed to create POS key' },
    onSuccess: () => {
      toast.success('POS key created successfully');
      void queryClient.invalidateQueries({ queryKey: posKeysKeys.all });
      close();
    },
    onError: (error) => setServerFieldErrors(form, error),
  });

  const generate = () => {
    form.setValue('apiKey', generateApiKey(), { shouldValidate: form.formState.isSubmitted });
    toast.success('API key generated');
  };

  const onSubmit = form.handleSubmit((values) => {
    if (!mutation.isPending) mutation.mutate(values);
  });

  // The spec's one message for a blank name or key, said once above the fields.
  const required = errors.name?.message === REQUIRED || errors.apiKey?.message === REQUIRED;
  const messageOf = (name: keyof typeof empty) => {
    const message = errors[name]?.message;
    return message === REQUIRED ? undefined : message;
  };
  const aria = (name: keyof typeof empty) => {
    const own = fieldAria(`add-pos-key-${name === 'apiKey' ? 'api-key' : name}`, messageOf(name));
    return errors[name] ? { ...own, 'aria-invalid': true as const } : own;
  };

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : !mutation.isPending && close())}>
      <DialogContent
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          form.setFocus('name');
        }}
      >
        <DialogHeader>
          <DialogTitle>Add POS Key</DialogTitle>
          <DialogDescription>
            A till sends this key in the X-API-Key header. Keep a copy: only an administrator can view it
            later.
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={onSubmit} className="grid gap-4">
          {required && <FormAlert message={REQUIRED} />}
          <div className="grid gap-2">
            <Label htmlFor="add-pos-key-name">Name</Label>
            <Input
              autoComplete="off"
              maxLength={200}
              placeholder="e.g. Main Street till 1"
              {...form.register('name')}
              {...aria('name')}
            />
            <FieldError id="add-pos-key-name-error" message={messageOf('name')} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="add-pos-key-address">Address</Label>
            <Input
              autoComplete="off"
              maxLength={500}
              placeholder="Optional"
              {...form.register('address')}
              {...aria('address')}
            />
            <FieldError id="add-pos-key-address-error" message={messageOf('address')} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="add-pos-key-api-key">API Key</Label>
            <ApiKeyInput
              maxLength={256}
              placeholder="At least 32 characters"
              onGenerate={generate}
              {...form.register('apiKey')}
              {...aria('apiKey')}
            />
            <FieldError id="add-pos-key-api-key-error" message={messageOf('apiKey')} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="add-pos-key-status">Status</Label>
            <Controller
              control={form.control}
              name="status"
              render={({ field }) => (
                <Select
                  value={field.value}
                  onValueChange={(status) => field.onChange(status as PosKeyStatus)}
                >
                  <SelectTrigger id="add-pos-key-status" ref={field.ref} className="w-full">
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    {posKeyStatusOptions.map((option) => (
                      <SelectItem key={option.value} value={option.value}>
                        {option.label}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              )}
            />
          </div>
          <DialogFormFooter
            onCancel={close}
            pending={mutation.isPending}
            submitLabel="Create POS Key"
            pendingLabel="Creating..."
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
