import { CreditCardIcon, HistoryIcon, KeyRoundIcon, UsersIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';

const actions = [
  { to: '/accounts', label: 'Manage Accounts', icon: UsersIcon },
  { to: '/cards', label: 'Loyalty Cards', icon: CreditCardIcon },
  { to: '/operations', label: 'Operations History', icon: HistoryIcon },
  { to: '/pos-keys', label: 'POS Keys', icon: KeyRoundIcon },
] as const;

/** Spec section 2: buttons to /accounts, /cards, /operations and /pos-keys. */
export function QuickActions() {
  return (
    <Card className="@container/actions gap-4">
      <CardHeader>
        <CardTitle>Quick Actions</CardTitle>
        <CardDescription>Jump to the everyday tasks.</CardDescription>
      </CardHeader>
      <CardContent>
        <nav
          aria-label="Quick Actions"
          className="grid gap-2 @sm/actions:grid-cols-2 @3xl/actions:grid-cols-4"
        >
          {actions.map(({ to, label, icon: Icon }) => (
            <Button key={to} asChild variant="outline" className="h-11 justify-start">
              <Link to={to}>
                <Icon className="text-muted-foreground" aria-hidden="true" />
                {label}
              </Link>
            </Button>
          ))}
        </nav>
      </CardContent>
    </Card>
  );
}
