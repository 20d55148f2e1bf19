import {
  type CreateExcludedSkuRequest,
  createExcludedSkuRequest,
  type Ruleset,
  SKU_MAX_LENGTH,
} from '@loyalty/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { FormDialog } from '@/components/forms/form-dialog';
import { FormField } from '@/components/forms/form-field';
import { useFormDialog } from '@/components/forms/use-form-dialog';
import { Input } from '@/components/ui/input';
import { useZodForm } from '@/lib/form';
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
  // The contract trims the values and turns blank description and category into null.
  const dialog = useFormDialog(form, 'sku', () => onOpenChange(false), {
    mutationFn: (body: CreateExcludedSkuRequest) => addExcludedSku(ruleset.id, body),
    onSuccess: () => {
      toast.success('SKU added to exclusions');
      void queryClient.invalidateQueries({ queryKey: skuKeys.ruleset(ruleset.id) });
    },
  });
  const { errors } = form.formState;

  return (
    <FormDialog
      open={open}
      dialog={dialog}
      title="Add SKU"
      description={<>Purchases of this SKU earn no points under {rulesetLabel(ruleset)}.</>}
      onSubmit={form.handleSubmit(dialog.submit)}
      submitLabel="Add SKU"
      pendingLabel="Adding..."
    >
      <FormField id="add-sku-sku" label="SKU" error={errors.sku?.message}>
        {(control) => (
          <Input
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={SKU_MAX_LENGTH}
            {...form.register('sku')}
            {...control}
          />
        )}
      </FormField>
      <FormField id="add-sku-description" label="Description" error={errors.description?.message}>
        {(control) => (
          <Input
            autoComplete="off"
            maxLength={500}
            placeholder="Optional"
            {...form.register('description')}
            {...control}
          />
        )}
      </FormField>
      <FormField id="add-sku-category" label="Category" error={errors.category?.message}>
        {(control) => (
          <Input
            autoComplete="off"
            maxLength={100}
            placeholder="Optional"
            list="add-sku-categories"
            {...form.register('category')}
            {...control}
          />
        )}
      </FormField>
      <datalist id="add-sku-categories">
        {categories.map((category) => (
          <option key={category} value={category} />
        ))}
      </datalist>
    </FormDialog>
  );
}
