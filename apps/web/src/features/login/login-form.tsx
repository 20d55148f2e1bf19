import type { LoginRequest } from '@loyalty/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LoaderCircleIcon } from 'lucide-react';
import { useLocation, useNavigate } from 'react-router';
import { FormField } from '@/components/forms/form-field';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { handleServerError } from '@/lib/handle-server-error';
import { returnPath } from '@/lib/login-return';
import { storeSession } from '@/lib/session';
import { notify } from '@/lib/toast';
import { login } from './login-api';
import { useLoginForm } from './use-login-form';

export function LoginForm() {
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: login,
    meta: { silent: true },
    onSuccess: (data) => {
      storeSession(data.token, data.expiresInSeconds);
      // Nothing cached for a previous user may show to this one.
      queryClient.clear();
      notify.success('Welcome back!');
      // Back to where the session ended or the deep link pointed (lib/login-return.ts), else the dashboard.
      navigate(returnPath(location.state), { replace: true });
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
      <FormField id="login-username" label="Username" error={messageFor('username')}>
        {(control) => (
          <Input
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            autoFocus
            {...form.field('username')}
            {...control}
          />
        )}
      </FormField>
      <FormField id="login-password" label="Password" error={messageFor('password')}>
        {(control) => (
          <Input type="password" autoComplete="current-password" {...form.field('password')} {...control} />
        )}
      </FormField>
      <Button type="submit" className="w-full" pending={mutation.isPending}>
        {mutation.isPending && <LoaderCircleIcon className="animate-spin" />}
        {mutation.isPending ? 'Signing in...' : 'Sign in'}
      </Button>
    </form>
  );
}
