import { getCurrentUser } from '@/lib/current-user';

/** Who is signed in; the Logout action lives in the top bar (spec "Shell"). */
export function NavUser() {
  const { username } = getCurrentUser();
  if (!username) return null;
  // Collapsed, the footer leaves 31 px (a 48 px rail less its border and padding) for the 32 px avatar, which
  // this box's padding and clipping cut. Without them (the name is hidden then) it overhangs by 1 px into the
  // rail's own width, as the 32 px menu buttons above do, and shows whole in line with their icons.
  return (
    <div className="flex items-center gap-2 overflow-hidden rounded-md p-1 text-sm group-data-[collapsible=icon]:overflow-visible group-data-[collapsible=icon]:p-0">
      <div
        aria-hidden="true"
        className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-sidebar-accent font-medium uppercase"
      >
        {username.slice(0, 2)}
      </div>
      <div className="grid flex-1 leading-tight group-data-[collapsible=icon]:hidden">
        <span className="truncate text-xs text-sidebar-foreground/70">Signed in as</span>
        <span className="truncate font-medium">{username}</span>
      </div>
    </div>
  );
}
