import { blockCardDialogRequest } from '@loyalty/contracts';
import type { ReactNode } from 'react';
import { toast } from 'sonner';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { useZodForm } from '@/lib/form';
import { useReturnFocus } from '@/lib/use-return-focus';

/**
 * The reason form shared by Block Card and Block selected: the contract's rule for the reason, focus to the
 * textarea when the dialog opens, and the spec's toast for a blank reason (section 5 "Block card").
 */
export function useBlockReasonForm(onValid: (reason: string) => void) {
  const form = useZodForm(blockCardDialogRequest, { defaultValues: { reason: '' } });
  const returnFocus = useReturnFocus((event) => {
    event.preventDefault();
    form.setFocus('reason');
  });
  const onSubmit = form.handleSubmit(
    ({ reason }) => onValid(reason),
    (errors) => {
      if (errors.reason?.message) toast.error(errors.reason.message);
    },
  );
  const reset = () => form.reset({ reason: '' });
  return { form, returnFocus, onSubmit, reset };
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
    <div className="grid gap-2">
      <Label htmlFor={id}>Block Reason</Label>
      <Textarea
        id={id}
        required
        maxLength={500}
        {...form.register('reason')}
        placeholder={placeholder}
        aria-invalid={form.formState.errors.reason ? true : undefined}
      />
    </div>
  );
}
