import type { User } from '@loyalty/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { deleteUser, usersKeys } from './users-api';

export function DeleteUserDialog({ user, onClose }: { user: User | null; onClose: () => void }) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: deleteUser,
    meta: { errorTitle: 'Failed to delete user' },
    onSuccess: () => {
      toast.success('User deleted successfully');
      void queryClient.invalidateQueries({ queryKey: usersKeys.all });
    },
    onSettled: onClose,
  });

  return (
    <AlertDialog open={user !== null} onOpenChange={(open) => !open && !mutation.isPending && onClose()}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Delete user</AlertDialogTitle>
          <AlertDialogDescription>Are you sure you want to delete this user?</AlertDialogDescription>
        </AlertDialogHeader>
        {user && (
          <p className="text-center text-sm sm:text-left">
            <span className="font-medium">{user.username}</span> will no longer be able to sign in.
          </p>
        )}
        <AlertDialogFooter>
          <AlertDialogCancel disabled={mutation.isPending}>Cancel</AlertDialogCancel>
          <Button
            variant="destructive"
            disabled={mutation.isPending}
            onClick={() => user && mutation.mutate(user.id)}
          >
            {mutation.isPending ? 'Deleting...' : 'Delete'}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
