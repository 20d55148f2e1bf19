import { type CreateUserRequest, createUserRequest, type Role } from '@loyalty/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Controller } from 'react-hook-form';
import { toast } from 'sonner';
import { FieldError } from '@/components/feedback/field-error';
import { FormAlert } from '@/components/feedback/form-alert';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { DialogFormFooter } from '@/components/ui/dialog-form-footer';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { fieldAria, setServerFieldErrors, useZodForm } from '@/lib/form';
import { roleOptions } from './role-labels';
import { createUser, usersKeys } from './users-api';

const REQUIRED = 'Username and password are required';

const emptyUser = { username: '', password: '', email: '', fullName: '', role: 'VIEWER' as Role };

/** Spec section 5 "Create user": the contract's schema checks everything the server checks, in the browser. */
export function AddUserDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const form = useZodForm(createUserRequest, { defaultValues: emptyUser });
  const { errors } = form.formState;

  const close = () => {
    onOpenChange(false);
    form.reset(emptyUser);
  };

  const mutation = useMutation({
    mutationFn: (body: CreateUserRequest) => createUser(body),
    meta: { errorTitle: 'Failed to create user' },
    onSuccess: () => {
      toast.success('User created successfully');
      void queryClient.invalidateQueries({ queryKey: usersKeys.all });
      close();
    },
    onError: (error) => setServerFieldErrors(form, error),
  });

  const onSubmit = form.handleSubmit((values) => {
    if (!mutation.isPending) mutation.mutate(values);
  });

  // One blank field or both: the spec's single message, said once above the fields.
  const required = errors.username?.message === REQUIRED || errors.password?.message === REQUIRED;
  const messageOf = (name: keyof typeof emptyUser) => {
    const message = errors[name]?.message;
    return message === REQUIRED ? undefined : message;
  };
  const aria = (name: keyof typeof emptyUser) => {
    const own = fieldAria(`add-user-${name}`, messageOf(name));
    return errors[name] ? { ...own, 'aria-invalid': true as const } : own;
  };

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : !mutation.isPending && close())}>
      <DialogContent
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          form.setFocus('username');
        }}
      >
        <DialogHeader>
          <DialogTitle>Add User</DialogTitle>
          <DialogDescription>The new user can sign in immediately.</DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={onSubmit} className="grid gap-4">
          {required && <FormAlert message={REQUIRED} />}
          <div className="grid gap-2">
            <Label htmlFor="add-user-username">Username</Label>
            <Input
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              {...form.register('username')}
              {...aria('username')}
            />
            <FieldError id="add-user-username-error" message={messageOf('username')} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="add-user-password">Password</Label>
            <Input
              type="password"
              autoComplete="new-password"
              {...form.register('password')}
              {...aria('password')}
            />
            <FieldError id="add-user-password-error" message={messageOf('password')} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="add-user-email">Email</Label>
            <Input type="email" autoComplete="off" {...form.register('email')} {...aria('email')} />
            <FieldError id="add-user-email-error" message={messageOf('email')} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="add-user-fullName">Full Name</Label>
            <Input autoComplete="off" {...form.register('fullName')} {...aria('fullName')} />
            <FieldError id="add-user-fullName-error" message={messageOf('fullName')} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="add-user-role">Role</Label>
            <Controller
              control={form.control}
              name="role"
              render={({ field }) => (
                <Select value={field.value} onValueChange={(value) => field.onChange(value as Role)}>
                  <SelectTrigger className="w-full" ref={field.ref} {...aria('role')}>
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    {roleOptions.map((option) => (
                      <SelectItem key={option.value} value={option.value}>
                        {option.label}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              )}
            />
            <FieldError id="add-user-role-error" message={messageOf('role')} />
          </div>
          <DialogFormFooter
            onCancel={close}
            pending={mutation.isPending}
            submitLabel="Create User"
            pendingLabel="Creating..."
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
