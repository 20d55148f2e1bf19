import type { LoginRequest } from '@loyalty/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LoaderCircleIcon } from 'lucide-react';
import { useNavigate } from 'react-router';
import { FieldError } from '@/components/feedback/field-error';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { fieldAria } from '@/lib/field-aria';
import { handleServerError } from '@/lib/handle-server-error';
import { storeSession } from '@/lib/session';
import { notify } from '@/lib/toast';
import { login } from './login-api';
import { useLoginForm } from './use-login-form';

export function LoginForm() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: login,
    meta: { silent: true },
    onSuccess: (data) => {
      storeSession(data.token, data.expiresInSeconds);
      // Nothing cached for a previous user may show to this one.
      queryClient.clear();
      notify.success('Welcome back!');
      navigate('/', { replace: true });
    },
    // Invalid credentials → 'Invalid username or password'; 429 → the server's message.
    onError: (error) => handleServerError(error),
  });

  // Blank fields are shown inline only: a toast with the same words would make the message appear twice.
  const form = useLoginForm((values: LoginRequest) => {
    if (!mutation.isPending) mutation.mutate(values);
  });
  const { messageFor } = form;

  return (
    <form
      noValidate
      onSubmit={form.onSubmit}
      onKeyDownCapture={form.preload}
      onPointerDownCapture={form.preload}
      className="grid gap-4"
    >
      <div className="grid gap-2">
        <Label htmlFor="login-username">Username</Label>
        <Input
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          autoFocus
          {...form.field('username')}
          {...fieldAria('login-username', messageFor('username'))}
        />
        <FieldError id="login-username-error" message={messageFor('username')} />
      </div>
      <div className="grid gap-2">
        <Label htmlFor="login-password">Password</Label>
        <Input
          type="password"
          autoComplete="current-password"
          {...form.field('password')}
          {...fieldAria('login-password', messageFor('password'))}
        />
        <FieldError id="login-password-error" message={messageFor('password')} />
      </div>
      <Button type="submit" className="w-full" disabled={mutation.isPending}>
        {mutation.isPending && <LoaderCircleIcon className="animate-spin" />}
        {mutation.isPending ? 'Signing in...' : 'Sign in'}
      </Button>
    </form>
  );
}
