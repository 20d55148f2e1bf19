/**
 * A form-level message above the fields ('Username and password are required'). The light theme uses a
 * darker red than `text-destructive`: on the tinted background that one falls under 4.5:1 contrast.
 */
export function FormAlert({ message }: { message: string }) {
  return (
    <p
      role="alert"
      className="rounded-md bg-destructive/10 px-3 py-2 text-sm text-red-800 dark:text-destructive"
    >
      {message}
    </p>
  );
}
