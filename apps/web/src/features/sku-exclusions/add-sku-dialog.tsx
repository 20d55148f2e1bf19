import { type CreateExcludedSkuRequest, createExcludedSkuRequest, type Ruleset } from '@loyalty/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { FieldError } from '@/components/feedback/field-error';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { DialogFormFooter } from '@/components/ui/dialog-form-footer';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { fieldAria, setServerFieldErrors, useZodForm } from '@/lib/form';
import { rulesetLabel } from './ruleset-chooser';
import { addExcludedSku, skuKeys } from './sku-exclusions-api';

const empty = { sku: '', description: '', category: '' };

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
  const form = useZodForm(createExcludedSkuRequest, { defaultValues: empty });
  const skuError = form.formState.errors.sku?.message;

  const close = () => {
    onOpenChange(false);
    form.reset(empty);
  };

  const mutation = useMutation({
    mutationFn: (body: CreateExcludedSkuRequest) => addExcludedSku(ruleset.id, body),
    onSuccess: () => {
      toast.success('SKU added to exclusions');
      void queryClient.invalidateQueries({ queryKey: skuKeys.ruleset(ruleset.id) });
      close();
    },
    onError: (error) => setServerFieldErrors(form, error),
  });

  // The contract trims the values and turns blank description and category into null.
  const onSubmit = form.handleSubmit((values) => {
    if (!mutation.isPending) mutation.mutate(values);
  });

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : !mutation.isPending && close())}>
      <DialogContent
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          form.setFocus('sku');
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
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              maxLength={100}
              {...form.register('sku')}
              {...fieldAria('add-sku-sku', skuError)}
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
              {...form.register('description')}
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
              {...form.register('category')}
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
