import type { Card, CardListItem } from '@loyalty/contracts';
import type { ColumnDef } from '@tanstack/react-table';
import { cardNumberColumn, cardStateColumns } from '@/components/cards/card-columns';
import { type CardAction, cardActionsColumn } from '@/components/cards/card-row-actions';
import { type CsvColumn, IdCell } from '@/components/data-table';
import { ClientLink } from '@/components/links/client-link';

/** Column ids are the server's sort fields (number, createdAt). */
export function cardColumns(
  onAction: (action: CardAction, card: Card) => void,
  canManage: boolean,
): ColumnDef<CardListItem>[] {
  const columns: ColumnDef<CardListItem>[] = [
    cardNumberColumn<CardListItem>({ linked: true }),
    {
      // The client ID stands for the account (issue 16: no raw UUIDs); its link opens the client page.
      accessorKey: 'clientId',
      header: 'Client ID',
      // A client ID such as 'CL-0042-ANNA-MARIE' whole beside its copy button (at 170 it was cut while the
      // Blocked column had room to spare); a longer one is cut, with its tooltip and copy button.
      meta: { width: 220 },
      cell: ({ row }) => (
        <IdCell value={row.original.clientId || row.original.accountId} label="client ID">
          <ClientLink to={row.original.accountId} className="font-sans text-sm">
            {row.original.clientId || row.original.accountId}
          </ClientLink>
        </IdCell>
      ),
    },
    ...cardStateColumns<CardListItem>({ sortable: true }),
  ];
  if (canManage) columns.push(cardActionsColumn(onAction));
  return columns;
}

/** "Export selected" on Loyalty Cards: raw values (ISO times) a spreadsheet can sort. */
export const cardCsvColumns: CsvColumn<Card>[] = [
  { header: 'Card Number', value: (card) => card.number },
  { header: 'Account ID', value: (card) => card.accountId },
  { header: 'Status', value: (card) => card.status },
  { header: 'Issued At', value: (card) => card.issuedAt },
  { header: 'Blocked At', value: (card) => card.blockedAt },
  { header: 'Block Reason', value: (card) => card.blockedReason },
  { header: 'Replaced By', value: (card) => card.replacedBy },
];
