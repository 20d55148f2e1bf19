import type { Account, Card, CardListItem } from '@loyalty/contracts';
import { useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { cardStateColumns } from '@/components/cards/card-columns';
import { CardNumber } from '@/components/cards/card-number';
import { type CardAction, cardActionsColumn, useCardRowActions } from '@/components/cards/card-row-actions';
import { DataTable, fromQuery, useServerTable } from '@/components/data-table';
import { buildUrl } from '@/lib/api-client';
import { getCurrentUser } from '@/lib/current-user';
import { clientCardsQuery } from './client-api';
import { ClientSection } from './client-section';

function cardColumns(onAction: (action: CardAction, card: Card) => void, canManage: boolean) {
  const columns: ColumnDef<CardListItem>[] = [
    {
      id: 'number',
      header: 'Card Number',
      meta: { width: 180 },
      cell: ({ row }) => <CardNumber number={row.original.number} className="font-medium" />,
    },
    ...cardStateColumns<CardListItem>(),
  ];
  if (canManage) columns.push(cardActionsColumn(onAction));
  return columns;
}

/** The account's cards, newest first, with the actions of the Loyalty Cards screen. */
export function ClientCardsSection({ account }: { account: Account }) {
  const table = useServerTable({ pageSize: 5 });
  const query = useQuery(
    clientCardsQuery({ accountId: account.id, page: table.params.page, size: table.params.size }),
  );
  const { canManage } = getCurrentUser();
  const cardActions = useCardRowActions();
  const { onAction } = cardActions;
  const columns = useMemo(() => cardColumns(onAction, canManage), [onAction, canManage]);
  return (
    <ClientSection id="cards" title="Cards" total={query.data?.totalElements}>
      <DataTable
        label={`Cards of ${account.clientId}`}
        exportList={{ name: 'client-cards', url: buildUrl('/api/v1/cards', { accountId: account.id }) }}
        columns={columns}
        controls={table}
        getRowId={(card) => card.id}
        {...fromQuery(query)}
        errorText="Failed to load cards"
        emptyText="No cards yet"
        pageSizeOptions={[5, 10, 20]}
      />
      {cardActions.dialogs}
    </ClientSection>
  );
}
