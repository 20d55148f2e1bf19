import { blockCardDialogRequest } from '@loyalty/contracts';
import type { ReactNode } from 'react';
import { toast } from 'sonner';
import { FormField } from '@/components/forms/form-field';
import { Textarea } from '@/components/ui/textarea';
import { useZodForm } from '@/lib/form';

/**
 * The reason form shared by Block Card and Block selected: the contract's rule for the reason and the
 * spec's toast for a blank reason (section 5 "Block card"), instead of a message under the field.
 */
export function useBlockReasonForm(onValid: (reason: string) => void) {
  const form = useZodForm(blockCardDialogRequest, { defaultValues: { reason: '' } });
  const onSubmit = form.handleSubmit(
    ({ reason }) => onValid(reason),
    (errors) => {
      if (errors.reason?.message) toast.error(errors.reason.message);
    },
  );
  return { form, onSubmit };
}

export function BlockReasonField({
  id,
  form,
  placeholder,
}: {
  id: string;
  form: ReturnType<typeof useBlockReasonForm>['form'];
  placeholder: string;
}): ReactNode {
  return (
    <FormField id={id} label="Block Reason" invalid={form.formState.errors.reason !== undefined}>
      {(control) => (
        <Textarea
          required
          maxLength={500}
          {...form.register('reason')}
          placeholder={placeholder}
          {...control}
        />
      )}
    </FormField>
  );
}
