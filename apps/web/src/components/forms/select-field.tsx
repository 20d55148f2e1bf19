import { type Control, Controller, type FieldValues, type Path } from 'react-hook-form';
import { OptionSelect, type SelectOption } from '@/components/ui/option-select';
import { FormField } from './form-field';

/** A form's choice from a fixed list (a role, a status): a labelled OptionSelect bound to the form's field. */
export function SelectField<T extends FieldValues>({
  control,
  name,
  id,
  label,
  error,
  options,
}: {
  control: Control<T, unknown, unknown>;
  name: Path<T>;
  id: string;
  label: string;
  error?: string;
  options: readonly SelectOption<string>[];
}) {
  return (
    <FormField id={id} label={label} error={error}>
      {(aria) => (
        <Controller
          control={control}
          name={name}
          render={({ field }) => (
            <OptionSelect
              ref={field.ref}
              className="w-full"
              value={field.value}
              onChange={field.onChange}
              options={options}
              {...aria}
            />
          )}
        />
      )}
    </FormField>
  );
}
