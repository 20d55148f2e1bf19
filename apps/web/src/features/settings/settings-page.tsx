import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '@/components/layout/page-header';
import { getCurrentUser } from '@/lib/current-user';
import { settingsQuery } from '@/lib/settings-api';
import { CardManagementSummary } from './card-management-summary';
import { PointHoldsForm } from './point-holds-form';
import { PointsExpiryForm } from './points-expiry-form';
import { ProgrammeForm } from './programme-form';
import { TimeZoneForm } from './time-zone-form';

/** Spec section 2 "Settings": everyone reads them, only an ADMIN changes them. */
export function SettingsPage() {
  const query = useQuery(settingsQuery());
  const canEdit = getCurrentUser().isAdmin;
  // Without the stored values the forms would show defaults (UTC, EUR, empty fields), and a save would
  // overwrite what is stored with them: they stay disabled until the settings load (Try again on the summary).
  const unavailable = query.isPending || (query.isError && !query.data);

  return (
    <>
      <PageHeader
        title="Settings"
        description="Point holds, points expiry, card limits, the currency and the time zone of the whole programme."
      />
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="grid gap-6">
          <PointHoldsForm settings={query.data} loading={unavailable} canEdit={canEdit} />
          <PointsExpiryForm settings={query.data} loading={unavailable} canEdit={canEdit} />
          <ProgrammeForm settings={query.data} loading={unavailable} canEdit={canEdit} />
          <TimeZoneForm settings={query.data} loading={unavailable} canEdit={canEdit} />
        </div>
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
