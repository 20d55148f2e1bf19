import type { Ruleset } from '@loyalty/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { toast } from 'sonner';
import { FieldError } from '@/components/feedback/field-error';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { DialogFormFooter } from '@/components/ui/dialog-form-footer';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { rulesetLabel } from './ruleset-chooser';
import { addExcludedSku, skuKeys } from './sku-exclusions-api';

interface SkuValues {
  sku: string;
  description: string;
  category: string;
}

const empty: SkuValues = { sku: '', description: '', category: '' };

/** Spec section 5 "Add SKU exclusion": SKU required, values trimmed, description and category optional. */
export function AddSkuDialog({
  ruleset,
  categories,
  open,
  onOpenChange,
}: {
  ruleset: Ruleset;
  categories: string[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const [values, setValues] = useState<SkuValues>(empty);
  const [skuError, setSkuError] = useState<string | null>(null);
  const skuRef = useRef<HTMLInputElement>(null);

  const close = () => {
    onOpenChange(false);
    setValues(empty);
    setSkuError(null);
  };

  const mutation = useMutation({
    mutationFn: (body: SkuValues) =>
      addExcludedSku(ruleset.id, {
        sku: body.sku.trim(),
        description: body.description.trim() || null,
        category: body.category.trim() || null,
      }),
    onSuccess: () => {
      toast.success('SKU added to exclusions');
      void queryClient.invalidateQueries({ queryKey: skuKeys.ruleset(ruleset.id) });
      close();
    },
  });

  const set = (name: keyof SkuValues) => (value: string) => setValues((v) => ({ ...v, [name]: value }));

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (mutation.isPending) return;
    if (!values.sku.trim()) {
      setSkuError('SKU is required');
      skuRef.current?.focus();
      return;
    }
    setSkuError(null);
    mutation.mutate(values);
  };

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : !mutation.isPending && close())}>
      <DialogContent
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          skuRef.current?.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>Add SKU</DialogTitle>
          <DialogDescription>
            Purchases of this SKU earn no points under {rulesetLabel(ruleset)}.
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={onSubmit} className="grid gap-4">
          <div className="grid gap-2">
            <Label htmlFor="add-sku-sku">SKU</Label>
            <Input
              id="add-sku-sku"
              ref={skuRef}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              maxLength={100}
              value={values.sku}
              onChange={(e) => set('sku')(e.target.value)}
              aria-invalid={skuError ? true : undefined}
              aria-describedby={skuError ? 'add-sku-sku-error' : undefined}
            />
            <FieldError id="add-sku-sku-error" message={skuError} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="add-sku-description">Description</Label>
            <Input
              id="add-sku-description"
              autoComplete="off"
              maxLength={500}
              placeholder="Optional"
              value={values.description}
              onChange={(e) => set('description')(e.target.value)}
            />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="add-sku-category">Category</Label>
            <Input
              id="add-sku-category"
              autoComplete="off"
              maxLength={100}
              placeholder="Optional"
              list="add-sku-categories"
              value={values.category}
              onChange={(e) => set('category')(e.target.value)}
            />
            <datalist id="add-sku-categories">
              {categories.map((category) => (
                <option key={category} value={category} />
              ))}
            </datalist>
          </div>
          <DialogFormFooter
            onCancel={close}
            pending={mutation.isPending}
            submitLabel="Add SKU"
            pendingLabel="Adding..."
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
