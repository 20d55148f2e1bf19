import { GiftIcon } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import {
  Sidebar,
  SidebarContent,
  SidebarFooter,
  SidebarGroup,
  SidebarGroupLabel,
  SidebarHeader,
} from '@/components/ui/sidebar';
import { useSidebar } from '@/components/ui/sidebar-context';
import { SidebarMenu, SidebarMenuButton, SidebarMenuItem } from '@/components/ui/sidebar-menu';
import { getCurrentUser } from '@/lib/current-user';
import { isNavItemActive, navGroupsFor } from './nav-config';
import { NavUser } from './nav-user';

/** aria-labelledby takes a space-separated list of ids, so the id must not contain spaces. */
function groupLabelId(title: string) {
  return `nav-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
}

export function AppSidebar() {
  const { pathname } = useLocation();
  const { isMobile, setOpenMobile } = useSidebar();
  const closeOnMobile = () => {
    if (isMobile) setOpenMobile(false);
  };

  return (
    <Sidebar label="Navigation">
      <SidebarHeader>
        <div className="flex h-12 items-center gap-2 overflow-hidden px-1 group-data-[collapsible=icon]:px-0">
          <div className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-brand text-brand-foreground">
            <GiftIcon className="size-4" />
          </div>
          <div className="grid flex-1 text-left leading-tight">
            <span className="truncate font-semibold">Loyalty Admin</span>
            <span className="truncate text-xs text-sidebar-foreground/70">Back office</span>
          </div>
        </div>
      </SidebarHeader>
      <SidebarContent>
        <nav aria-label="Main">
          {navGroupsFor(getCurrentUser().role).map((group) => (
            <SidebarGroup key={group.title} role="group" aria-labelledby={groupLabelId(group.title)}>
              <SidebarGroupLabel id={groupLabelId(group.title)}>{group.title}</SidebarGroupLabel>
              <SidebarMenu>
                {group.items.map((item) => {
                  const active = isNavItemActive(item, pathname);
                  return (
                    <SidebarMenuItem key={item.url}>
                      <SidebarMenuButton asChild isActive={active} tooltip={item.title}>
                        <Link
                          to={item.url}
                          aria-current={active ? 'page' : undefined}
                          onClick={closeOnMobile}
                        >
                          <item.icon />
                          <span>{item.title}</span>
                        </Link>
                      </SidebarMenuButton>
                    </SidebarMenuItem>
                  );
                })}
              </SidebarMenu>
            </SidebarGroup>
          ))}
        </nav>
      </SidebarContent>
      <SidebarFooter>
        <NavUser />
      </SidebarFooter>
    </Sidebar>
  );
}
