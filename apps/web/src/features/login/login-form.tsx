import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LoaderCircleIcon } from 'lucide-react';
import { type FormEvent, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { handleServerError } from '@/lib/handle-server-error';
import { storeSession } from '@/lib/session';
import { login } from './login-api';
import { type LoginFieldError, validateLogin } from './validate-login';

export function LoginForm() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [fieldError, setFieldError] = useState<LoginFieldError | null>(null);
  const usernameRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  const mutation = useMutation({
    mutationFn: login,
    meta: { silent: true },
    onSuccess: (data) => {
      storeSession(data.token, data.expiresInSeconds);
      // Nothing cached for a previous user may show to this one.
      queryClient.clear();
      toast.success('Welcome back!');
      navigate('/', { replace: true });
    },
    // Invalid credentials → 'Invalid username or password'; 429 → the server's message.
    onError: (error) => handleServerError(error),
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (mutation.isPending) return;
    const error = validateLogin({ username, password });
    setFieldError(error);
    if (error) {
      // Shown inline only: a toast with the same words would make the message appear twice.
      (error.field === 'username' ? usernameRef : passwordRef).current?.focus();
      return;
    }
    mutation.mutate({ username: username.trim(), password });
  };

  const errorFor = (field: LoginFieldError['field']) => (fieldError?.field === field ? fieldError : null);

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-4">
      <div className="grid gap-2">
        <Label htmlFor="login-username">Username</Label>
        <Input
          ref={usernameRef}
          id="login-username"
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          autoFocus
          value={username}
          onChange={(event) => setUsername(event.target.value)}
          aria-invalid={errorFor('username') ? true : undefined}
          aria-describedby={errorFor('username') ? 'login-username-error' : undefined}
        />
        {errorFor('username') && (
          <p id="login-username-error" className="text-sm text-destructive">
            {errorFor('username')?.message}
          </p>
        )}
      </div>
      <div className="grid gap-2">
        <Label htmlFor="login-password">Password</Label>
        <Input
          ref={passwordRef}
          id="login-password"
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          aria-invalid={errorFor('password') ? true : undefined}
          aria-describedby={errorFor('password') ? 'login-password-error' : undefined}
        />
        {errorFor('password') && (
          <p id="login-password-error" className="text-sm text-destructive">
            {errorFor('password')?.message}
          </p>
        )}
      </div>
      <Button type="submit" className="w-full" disabled={mutation.isPending}>
        {mutation.isPending && <LoaderCircleIcon className="animate-spin" />}
        {mutation.isPending ? 'Signing in...' : 'Sign in'}
      </Button>
    </form>
  );
}
