/** aria attributes of an input whose error is shown by <FieldError id={`${id}-error`} />. */
export function fieldAria(id: string, message: string | undefined) {
  return {
    id,
    'aria-invalid': message ? true : undefined,
    'aria-describedby': message ? `${id}-error` : undefined,
  } as const;
}
