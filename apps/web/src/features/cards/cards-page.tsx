import { type Card, cardListQuery } from '@loyalty/contracts';
import { useQuery } from '@tanstack/react-query';
import { BanIcon } from 'lucide-react';
import { useMemo, useRef, useState } from 'react';
import { useCardRowActions } from '@/components/cards/card-row-actions';
import { DataTable, fromQuery, useServerTable } from '@/components/data-table';
import { PageHeader } from '@/components/layout/page-header';
import { Button } from '@/components/ui/button';
import { buildUrl } from '@/lib/api-client';
import { getCurrentUser } from '@/lib/current-user';
import { BlockCardsDialog } from './block-cards-dialog';
import { CardStatusFilter } from './card-status-filter';
import { type CardFilters, cardsListQuery } from './cards-api';
import { cardColumns, cardCsvColumns } from './cards-columns';

/** Spec section 2 "Loyalty Cards". */
export function CardsPage() {
  const table = useServerTable<CardFilters>({ initialFilters: { status: undefined }, inUrl: cardListQuery });
  const query = useQuery(cardsListQuery(table.params));
  const { canManage } = getCurrentUser();
  const cardActions = useCardRowActions();
  const { onAction } = cardActions;
  const columns = useMemo(() => cardColumns(onAction, canManage), [onAction, canManage]);
  const [bulk, setBulk] = useState<Card[] | null>(null);
  const clearSelection = useRef<() => void>(() => {});

  return (
    <>
      <PageHeader title="Loyalty Cards" description="Every issued card, its status and its block history." />
      <DataTable
        label="Cards"
        errorText="Failed to load cards page"
        exportList={{ name: 'cards', url: buildUrl('/api/v1/cards', table.params) }}
        columns={columns}
        controls={table}
        getRowId={(card) => card.id}
        {...fromQuery(query)}
        exportCsv={{ name: 'cards', columns: cardCsvColumns }}
        bulkActions={
          canManage
            ? (selected, clear) => (
                <Button
                  variant="outline"
                  size="sm"
                  disabled={!selected.some((card) => card.status === 'active')}
                  onClick={() => {
                    clearSelection.current = clear;
                    setBulk(selected);
                  }}
                >
                  <BanIcon />
                  Block selected
                </Button>
              )
            : undefined
        }
        searchable
        searchLabel="Search cards"
        searchPlaceholder="Card number, client ID or account ID"
        filters={
          <CardStatusFilter
            value={table.filters.status}
            onChange={(status) => table.setFilter('status', status)}
          />
        }
      />
      {cardActions.dialogs}
      <BlockCardsDialog
        cards={bulk}
        onClose={() => setBulk(null)}
        onBlocked={() => clearSelection.current()}
      />
    </>
  );
}
