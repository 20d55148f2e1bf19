import { useMutation } from '@tanstack/react-query';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { setServerFieldErrors } from '@/lib/form';
import type { AppRequestMeta } from '@/lib/query-meta';
import { useReturnFocus } from '@/lib/use-return-focus';
import { useLeaveGuard } from './use-leave-guard';

type DialogForm<T extends FieldValues> = Pick<
  UseFormReturn<T, unknown, unknown>,
  'reset' | 'setFocus' | 'getValues' | 'getFieldState' | 'setError' | 'formState'
>;

export interface FormDialogOptions<Vars, Result> {
  mutationFn: (vars: Vars) => Promise<Result>;
  meta?: AppRequestMeta;
  /** The toast and cache updates of a success; the dialog then closes by itself. */
  onSuccess: (result: Result, vars: Vars) => void;
  /**
   * A failure's cache updates; the dialog stays open with what was typed, unless this calls `close` (a failure
   * that says the action can no longer succeed, such as a card blocked meanwhile).
   */
  onError?: (error: Error, vars: Vars, close: () => void) => void;
}

/**
 * What every form dialog does around its form: the first field has focus when it opens and focus goes back
 * to where it came from when it closes; Cancel, Escape and a success close it and drop what was typed;
 * nothing closes it while the request runs and a second submit then is ignored; a 400's field errors land
 * under their inputs; reloading or closing the tab asks first while something is typed or the request runs
 * (useLeaveGuard). Spread `content` on DialogContent, `footer` on DialogFormFooter.
 */
export function useFormDialog<T extends FieldValues, Vars, Result>(
  form: DialogForm<T>,
  firstField: Path<T>,
  onClose: () => void,
  { mutationFn, meta, onSuccess, onError }: FormDialogOptions<Vars, Result>,
) {
  const close = () => {
    onClose();
    form.reset();
  };
  const mutation = useMutation({
    mutationFn,
    meta,
    onSuccess: (result, vars) => {
      onSuccess(result, vars);
      close();
    },
    onError: (error, vars) => {
      setServerFieldErrors(form, error);
      onError?.(error, vars, close);
    },
  });
  // Read in render, so react-hook-form re-renders this dialog when the form becomes dirty or clean again.
  useLeaveGuard(form.formState.isDirty || mutation.isPending);
  const content = useReturnFocus((event) => {
    event.preventDefault();
    form.setFocus(firstField);
  });
  return {
    mutation,
    submit: (vars: Vars) => {
      if (!mutation.isPending) mutation.mutate(vars);
    },
    onOpenChange: (open: boolean) => {
      if (!open && !mutation.isPending) close();
    },
    content,
    footer: { onCancel: close, pending: mutation.isPending },
  };
}
