import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '@/components/layout/page-header';
import { getCurrentUser } from '@/lib/current-user';
import { CardManagementSummary } from './card-management-summary';
import { PointHoldsForm } from './point-holds-form';
import { settingsQuery } from './settings-api';

/** Spec section 2 "Settings": everyone reads them, only an ADMIN changes them. */
export function SettingsPage() {
  const query = useQuery(settingsQuery());
  const canEdit = getCurrentUser().isAdmin;

  return (
    <>
      <PageHeader title="Settings" description="Point holds and card limits for the whole programme." />
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <PointHoldsForm settings={query.data} loading={query.isPending} canEdit={canEdit} />
        <CardManagementSummary
          settings={query.data}
          loading={query.isPending}
          failed={query.isError}
          onRetry={() => void query.refetch()}
        />
      </div>
    </>
  );
}
