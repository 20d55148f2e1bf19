import type { PosKeyStatus } from '@loyalty/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { toast } from 'sonner';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { DialogFormFooter } from '@/components/ui/dialog-form-footer';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import {
  type AddPosKeyValues,
  emptyAddPosKey,
  generateApiKey,
  toCreatePosKeyRequest,
  validateAddPosKey,
} from './add-pos-key-form';
import { ApiKeyInput } from './api-key-input';
import { createPosKey, posKeyStatusOptions, posKeysKeys } from './pos-keys-api';

/** Spec section 2 "POS Keys" and 5 "Create POS key". */
export function AddPosKeyDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const [values, setValues] = useState<AddPosKeyValues>(emptyAddPosKey);
  const [error, setError] = useState<string | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);

  const close = () => {
    onOpenChange(false);
    setValues(emptyAddPosKey);
    setError(null);
  };

  const mutation = useMutation({
    mutationFn: createPosKey,
    meta: { errorTitle: 'Failed to create POS key' },
    onSuccess: () => {
      toast.success('POS key created successfully');
      void queryClient.invalidateQueries({ queryKey: posKeysKeys.all });
      close();
    },
  });

  const set = <K extends keyof AddPosKeyValues>(field: K, value: AddPosKeyValues[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    if (error) setError(null);
  };

  const generate = () => {
    set('apiKey', generateApiKey());
    toast.success('API key generated');
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (mutation.isPending) return;
    const found = validateAddPosKey(values);
    setError(found);
    if (found) {
      nameRef.current?.focus();
      return;
    }
    mutation.mutate(toCreatePosKeyRequest(values));
  };

  const invalid = (value: string) => (error && !value.trim() ? true : undefined);

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : !mutation.isPending && close())}>
      <DialogContent
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          nameRef.current?.focus();
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
          {error && (
            <p role="alert" className="rounded-md bg-destructive/10 px-3 py-2 text-sm text-destructive">
              {error}
            </p>
          )}
          <div className="grid gap-2">
            <Label htmlFor="add-pos-key-name">Name</Label>
            <Input
              id="add-pos-key-name"
              ref={nameRef}
              autoComplete="off"
              maxLength={200}
              placeholder="e.g. Main Street till 1"
              value={values.name}
              onChange={(e) => set('name', e.target.value)}
              aria-invalid={invalid(values.name)}
            />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="add-pos-key-address">Address</Label>
            <Input
              id="add-pos-key-address"
              autoComplete="off"
              maxLength={500}
              placeholder="Optional"
              value={values.address}
              onChange={(e) => set('address', e.target.value)}
            />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="add-pos-key-api-key">API Key</Label>
            <ApiKeyInput
              id="add-pos-key-api-key"
              maxLength={256}
              placeholder="At least 32 characters"
              value={values.apiKey}
              onChange={(e) => set('apiKey', e.target.value)}
              onGenerate={generate}
              aria-invalid={invalid(values.apiKey)}
            />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="add-pos-key-status">Status</Label>
            <Select value={values.status} onValueChange={(status) => set('status', status as PosKeyStatus)}>
              <SelectTrigger id="add-pos-key-status" className="w-full">
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
