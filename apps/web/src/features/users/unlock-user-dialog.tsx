import type { User } from '@loyalty/contracts';
import { useMutation } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/feedback/confirm-dialog';
import { unlockUser } from './users-api';

/** Lifts the sign-in throttle of a user who was locked out by failed attempts (their own or someone's). */
export function UnlockUserDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  const mutation = useMutation({
    mutationFn: unlockUser,
    meta: { errorTitle: 'Failed to unlock sign-in' },
    onSuccess: () => toast.success(`Sign-in unlocked for ${user?.username ?? 'the user'}`),
    onSettled: onClose,
  });

  return (
    <ConfirmDialog
      open={user !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Unlock Sign-In"
      description="Clears this user's failed sign-in attempts from every address, so they can sign in at once."
      confirmLabel="Unlock"
      pendingLabel="Unlocking..."
      pending={mutation.isPending}
      onConfirm={() => user && mutation.mutate(user.id)}
    >
      {user && (
        // A username can be 100 characters without a break: it wraps rather than widen the dialog on a phone.
        <p className="text-sm wrap-anywhere">
          User <span className="font-medium">{user.username}</span>
        </p>
      )}
    </ConfirmDialog>
  );
}
