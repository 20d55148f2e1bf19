import { type CreateUserRequest, createUserRequest, type Role } from '@loyalty/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { type DialogOpenProps, FormDialog } from '@/components/forms/form-dialog';
import { FormField } from '@/components/forms/form-field';
import { SelectField } from '@/components/forms/select-field';
import { useFormDialog } from '@/components/forms/use-form-dialog';
import { Input } from '@/components/ui/input';
import { formLevelMessage, useZodForm } from '@/lib/form';
import { roleOptions } from './role-labels';
import { createUser, usersKeys } from './users-api';

const REQUIRED = 'Username and password are required';

const emptyUser = { username: '', password: '', email: '', fullName: '', role: 'VIEWER' as Role };

/** Spec section 5 "Create user": the contract's schema checks everything the server checks, in the browser. */
export function AddUserDialog({ open, onOpenChange }: DialogOpenProps) {
  const queryClient = useQueryClient();
  const form = useZodForm(createUserRequest, { defaultValues: emptyUser });
  const dialog = useFormDialog(form, 'username', () => onOpenChange(false), {
    mutationFn: (body: CreateUserRequest) => createUser(body),
    meta: { errorTitle: 'Failed to create user' },
    onSuccess: () => {
      toast.success('User created successfully');
      void queryClient.invalidateQueries({ queryKey: usersKeys.all });
    },
  });
  // One blank field or both: the spec's single message, said once above the fields.
  const { formMessage, field } = formLevelMessage(form.formState.errors, REQUIRED);

  return (
    <FormDialog
      open={open}
      dialog={dialog}
      alert={formMessage}
      title="Add User"
      description="The new user can sign in immediately."
      onSubmit={form.handleSubmit(dialog.submit)}
      submitLabel="Create User"
      pendingLabel="Creating..."
    >
      <FormField id="add-user-username" label="Username" {...field('username')}>
        {(control) => (
          <Input
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            {...form.register('username')}
            {...control}
          />
        )}
      </FormField>
      <FormField id="add-user-password" label="Password" {...field('password')}>
        {(control) => (
          <Input type="password" autoComplete="new-password" {...form.register('password')} {...control} />
        )}
      </FormField>
      <FormField id="add-user-email" label="Email" {...field('email')}>
        {(control) => <Input type="email" autoComplete="off" {...form.register('email')} {...control} />}
      </FormField>
      <FormField id="add-user-fullName" label="Full Name" {...field('fullName')}>
        {(control) => <Input autoComplete="off" {...form.register('fullName')} {...control} />}
      </FormField>
      <SelectField
        control={form.control}
        name="role"
        id="add-user-role"
        label="Role"
        error={field('role').error}
        options={roleOptions}
      />
    </FormDialog>
  );
}
