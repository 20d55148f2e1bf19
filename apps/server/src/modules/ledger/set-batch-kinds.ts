import { accrualBatches } from './accrual-batch';
import { captureBatches } from './capture-batch';
import { holdBatches } from './hold-batch';
import type { SetBatches } from './set-batches';

/** Every kind of POS write the app batches set-based across cards (`POS_SET_BATCH_LANES`). */
export const setBatchKinds: ReadonlyArray<SetBatches<never>> = [accrualBatches, holdBatches, captureBatches];
