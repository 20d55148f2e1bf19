import { GiftIcon } from 'lucide-react';
import { ThemeToggle } from '@/components/layout/theme-toggle';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { LoginForm } from './login-form';

/** Spec section 2 "Login". */
export function LoginPage() {
  return (
    <div className="relative flex min-h-svh flex-col items-center justify-center gap-6 bg-muted/40 p-4 sm:p-6">
      <div className="absolute top-3 right-3">
        <ThemeToggle />
      </div>
      <main className="flex w-full max-w-sm flex-col gap-6">
        <div className="flex flex-col items-center gap-2 text-center">
          <div className="flex size-11 items-center justify-center rounded-xl bg-brand text-brand-foreground shadow-sm">
            <GiftIcon className="size-6" aria-hidden="true" />
          </div>
          <h1 className="text-2xl font-bold tracking-tight">Loyalty Admin</h1>
          <p className="text-sm text-muted-foreground">Sign in to your account</p>
        </div>
        <Card>
          <CardHeader>
            <CardTitle className="text-xl">Sign in</CardTitle>
          </CardHeader>
          <CardContent>
            <LoginForm />
          </CardContent>
        </Card>
        <p className="text-center text-xs text-balance text-muted-foreground">
          Admin access only. Contact your system administrator for support.
        </p>
      </main>
    </div>
  );
}
