import type { User } from '@loyalty/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ConfirmDialog } from '@/components/feedback/confirm-dialog';
import { isStaleDataError } from '@/lib/api-client';
import { deleteUser, usersKeys } from './users-api';

export function DeleteUserDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: deleteUser,
    meta: { errorTitle: 'Failed to delete user' },
    onSuccess: () => toast.success('User deleted successfully'),
    // Also after a 404 (deleted by someone else meanwhile): the row must not stay listed.
    onSettled: (_result, error) => {
      if (!error || isStaleDataError(error)) void queryClient.invalidateQueries({ queryKey: usersKeys.all });
      onClose();
    },
  });

  return (
    <ConfirmDialog
      open={user !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Delete User"
      description="Are you sure you want to delete this user?"
      confirmLabel="Delete"
      pendingLabel="Deleting..."
      pending={mutation.isPending}
      destructive
      onConfirm={() => user && mutation.mutate(user.id)}
    >
      {user && (
        // A username can be 100 characters without a break: it wraps rather than widen the dialog on a phone.
        <p className="text-center text-sm wrap-anywhere sm:text-left">
          <span className="font-medium">{user.username}</span> will no longer be able to sign in.
        </p>
      )}
    </ConfirmDialog>
  );
}
