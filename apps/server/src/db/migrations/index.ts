import type { Migration } from 'kysely';
import * as m001 from './001-foundation';
import * as m002 from './002-loyalty-core';
import * as m003 from './003-pos';
import * as m004 from './004-analytics';
import * as m005 from './005-settings-text';
import * as m007 from './007-ruleset-retirement';
import * as m008 from './008-idempotency-keys';
import * as m009 from './009-account-accruals-index';
import * as m010 from './010-derived-subsystem';
import * as m013 from './013-import-card-numbers';
import * as m014 from './014-events';
import * as m015 from './015-points-lots';
import * as m016 from './016-opening-lots';
import * as m017 from './017-points-flow';
import * as m018 from './018-earning-rules';
import * as m019 from './019-receipts-time-index';
import * as m020 from './020-webhook-claims-index';
import * as m022 from './022-import-rows';
import * as m023 from './023-lots-pending-index';
import * as m026 from './026-finance-rollups';
import * as m027 from './027-receipt-items-fk';
import * as m028 from './028-receipt-lines-text';
import * as m029 from './029-webhook-streams';
import * as m030 from './030-secret-fingerprints';
import * as m031 from './031-login-attempt-keys';
import * as m032 from './032-bulk-credit-keys';
import * as m033 from './033-erased-client-ids';
import * as m034 from './034-webhook-due-per-endpoint';
import * as m035 from './035-audit-list-indexes';
import * as m036 from './036-audit-counts';
import * as m037 from './037-holds-ttl-zero';
import * as m038 from './038-revoked-sessions';
import * as m039 from './039-login-attempts-pruning';
import * as m040 from './040-requested-operation-ids';
import * as m041 from './041-erased-client-keys-keyed';
import * as m042 from './042-audit-short-search';
import * as m043 from './043-webhook-delivery-counts';
import * as m044 from './044-canonical-client-ids';
import * as m045 from './045-bulk-credit-row-fingerprints';
import * as m046 from './046-installation-id';
import * as m047 from './047-event-message-ids';
import * as m048 from './048-keyed-request-digests';

/**
 * Every migration, in order. Forward-only: a shipped migration is never edited; add the next one.
 * Names sort in order, and Kysely refuses to run if an applied migration disappears.
 */
export const migrations: Record<string, Migration> = {
  '001-foundation': m001,
  '002-loyalty-core': m002,
  '003-pos': m003,
  '004-analytics': m004,
  '005-settings-text': m005,
  '007-ruleset-retirement': m007,
  '008-idempotency-keys': m008,
  '009-account-accruals-index': m009,
  '010-derived-subsystem': m010,
  '013-import-card-numbers': m013,
  '014-events': m014,
  '015-points-lots': m015,
  '016-opening-lots': m016,
  '017-points-flow': m017,
  '018-earning-rules': m018,
  '019-receipts-time-index': m019,
  '020-webhook-claims-index': m020,
  '022-import-rows': m022,
  '023-lots-pending-index': m023,
  '026-finance-rollups': m026,
  '027-receipt-items-fk': m027,
  '028-receipt-lines-text': m028,
  '029-webhook-streams': m029,
  '030-secret-fingerprints': m030,
  '031-login-attempt-keys': m031,
  '032-bulk-credit-keys': m032,
  '033-erased-client-ids': m033,
  '034-webhook-due-per-endpoint': m034,
  '035-audit-list-indexes': m035,
  '036-audit-counts': m036,
  '037-holds-ttl-zero': m037,
  '038-revoked-sessions': m038,
  '039-login-attempts-pruning': m039,
  '040-requested-operation-ids': m040,
  '041-erased-client-keys-keyed': m041,
  '042-audit-short-search': m042,
  '043-webhook-delivery-counts': m043,
  '044-canonical-client-ids': m044,
  '045-bulk-credit-row-fingerprints': m045,
  '046-installation-id': m046,
  '047-event-message-ids': m047,
  '048-keyed-request-digests': m048,
};
