import type { Role } from '@loyalty/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { toast } from 'sonner';
import { FieldError } from '@/components/feedback/field-error';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { DialogFormFooter } from '@/components/ui/dialog-form-footer';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { isApiError } from '@/lib/api-client';
import {
  type AddUserErrors,
  type AddUserValues,
  emptyAddUser,
  serverFieldErrors,
  toCreateUserRequest,
  validateAddUser,
} from './add-user-form';
import { roleOptions } from './role-labels';
import { createUser, usersKeys } from './users-api';

export function AddUserDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const [values, setValues] = useState<AddUserValues>(emptyAddUser);
  const [errors, setErrors] = useState<AddUserErrors>({});
  const usernameRef = useRef<HTMLInputElement>(null);

  const close = () => {
    onOpenChange(false);
    setValues(emptyAddUser);
    setErrors({});
  };

  const mutation = useMutation({
    mutationFn: createUser,
    meta: { errorTitle: 'Failed to create user' },
    onSuccess: () => {
      toast.success('User created successfully');
      void queryClient.invalidateQueries({ queryKey: usersKeys.all });
      close();
    },
    onError: (error) => setErrors(isApiError(error) ? serverFieldErrors(error.details) : {}),
  });

  const set = (field: keyof AddUserValues) => (value: string) => setValues((v) => ({ ...v, [field]: value }));

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (mutation.isPending) return;
    const found = validateAddUser(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    mutation.mutate(toCreateUserRequest(values));
  };

  const field = (name: keyof AddUserValues) => ({
    id: `add-user-${name}`,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `add-user-${name}-error` : undefined,
  });

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? onOpenChange(true) : close())}>
      <DialogContent
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          usernameRef.current?.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>Add User</DialogTitle>
          <DialogDescription>The new user can sign in immediately.</DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={onSubmit} className="grid gap-4">
          {errors.form && (
            <p role="alert" className="rounded-md bg-destructive/10 px-3 py-2 text-sm text-destructive">
              {errors.form}
            </p>
          )}
          <div className="grid gap-2">
            <Label htmlFor="add-user-username">Username</Label>
            <Input
              ref={usernameRef}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              value={values.username}
              onChange={(e) => set('username')(e.target.value)}
              {...field('username')}
            />
            <FieldError id="add-user-username-error" message={errors.username} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="add-user-password">Password</Label>
            <Input
              type="password"
              autoComplete="new-password"
              value={values.password}
              onChange={(e) => set('password')(e.target.value)}
              {...field('password')}
            />
            <FieldError id="add-user-password-error" message={errors.password} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="add-user-email">Email</Label>
            <Input
              type="email"
              autoComplete="off"
              value={values.email}
              onChange={(e) => set('email')(e.target.value)}
              {...field('email')}
            />
            <FieldError id="add-user-email-error" message={errors.email} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="add-user-fullName">Full Name</Label>
            <Input
              autoComplete="off"
              value={values.fullName}
              onChange={(e) => set('fullName')(e.target.value)}
              {...field('fullName')}
            />
            <FieldError id="add-user-fullName-error" message={errors.fullName} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="add-user-role">Role</Label>
            <Select value={values.role} onValueChange={(value) => set('role')(value as Role)}>
              <SelectTrigger className="w-full" {...field('role')}>
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
            <FieldError id="add-user-role-error" message={errors.role} />
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
