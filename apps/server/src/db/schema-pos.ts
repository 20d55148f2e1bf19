import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from './schema';

type Decimal = ColumnType<string, string | number, string | number>;

/** The operationId namespace of the POS API, with the first response for replays. */
export interface PosRequestsTable {
  operation_id: string;
  pos_id: string;
  request_hash: string;
  status_code: number;
  response: ColumnType<unknown, string, string>;
  created_at: Timestamp;
}

export interface ReceiptsTable {
  /** The accrual operation (operations.id) the receipt earned. */
  accrual_id: string;
  receipt_id: string;
  pos_id: string;
  card_number: string;
  total_amount: Decimal;
  total_discount: Decimal;
  created_at: Timestamp;
}

export interface ReceiptItemsTable {
  id: Generated<string>;
  accrual_id: string;
  line_no: number;
  sku: string;
  category: string | null;
  quantity: Decimal;
  price: Decimal;
  discount: Decimal;
  line_total: Decimal;
  bonus_points: Decimal;
  returned_quantity: ColumnType<string, string | number | undefined, string | number>;
  returned_points: ColumnType<string, string | number | undefined, string | number>;
}

/** Tables added by the POS API issue. */
export interface PosTables {
  pos_requests: PosRequestsTable;
  receipts: ReceiptsTable;
  receipt_items: ReceiptItemsTable;
}
