import type { Account, CardListItem, Operation } from '@loyalty/contracts';
import { CardNumber } from '@/components/cards/card-number';
import { ClientLink } from '@/components/links/client-link';
import { OperationStatusBadge } from '@/components/operations/operation-status-badge';
import { OperationType } from '@/components/operations/operation-type';
import { SignedPoints } from '@/components/operations/signed-points';
import { Badge } from '@/components/ui/badge';
import { formatDate, formatDateTime } from '@/lib/format';
import { formatPoints } from '@/lib/points';
import type { LookupColumn } from './lookup-section';

function Dash() {
  return <span className="text-muted-foreground">—</span>;
}

/** Spec section 4: in client lookup, completed or active show as Active, blocked or failed as Blocked. */
export function lookupCardStatus(status: string | null | undefined): {
  label: string;
  tone: 'active' | 'blocked' | 'other';
} {
  switch (status) {
    case 'completed':
    case 'active':
      return { label: 'Active', tone: 'active' };
    case 'blocked':
    case 'failed':
      return { label: 'Blocked', tone: 'blocked' };
    case 'pending':
      return { label: 'Pending', tone: 'other' };
    default:
      return { label: 'Unknown', tone: 'other' };
  }
}

function LookupCardStatus({ status }: { status: string }) {
  const { label, tone } = lookupCardStatus(status);
  const variant = tone === 'active' ? 'success' : tone === 'blocked' ? 'destructive' : 'outline';
  return <Badge variant={variant}>{label}</Badge>;
}

export const accountLookupColumns: LookupColumn<Account>[] = [
  {
    header: 'Client ID',
    cell: (a) => (
      <ClientLink to={a.id} className="block max-w-48 truncate font-medium">
        <span title={a.clientId}>{a.clientId}</span>
      </ClientLink>
    ),
  },
  { header: 'Balance', className: 'text-right tabular-nums', cell: (a) => formatPoints(a.balance) },
  { header: 'Held', className: 'text-right tabular-nums', cell: (a) => formatPoints(a.heldBalance) },
  { header: 'Active Card', cell: (a) => <CardNumber number={a.activeCardNumber} masked /> },
  { header: 'Created', cell: (a) => formatDate(a.createdAt) },
];

export const cardLookupColumns: LookupColumn<CardListItem>[] = [
  {
    header: 'Card Number',
    cell: (c) => (
      <ClientLink to={c.accountId}>
        <CardNumber number={c.number} masked empty="—" />
      </ClientLink>
    ),
  },
  { header: 'Status', cell: (c) => <LookupCardStatus status={c.status} /> },
  { header: 'Issued', cell: (c) => formatDate(c.issuedAt ?? c.createdAt) },
  { header: 'Blocked At', cell: (c) => (c.blockedAt ? formatDate(c.blockedAt) : <Dash />) },
];

export const operationLookupColumns: LookupColumn<Operation>[] = [
  { header: 'Type', cell: (o) => <OperationType type={o.type} /> },
  { header: 'Points', className: 'text-right', cell: (o) => <SignedPoints value={o.points} /> },
  { header: 'Status', cell: (o) => <OperationStatusBadge status={o.status} /> },
  {
    header: 'Card',
    cell: (o) =>
      o.accountId && o.cardNumber ? (
        <ClientLink to={o.accountId}>
          <CardNumber number={o.cardNumber} masked />
        </ClientLink>
      ) : (
        <CardNumber number={o.cardNumber} masked empty="—" />
      ),
  },
  { header: 'Date', cell: (o) => formatDateTime(o.createdAt) },
];
