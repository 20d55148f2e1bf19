import {
  currencyCode,
  type Settings,
  timeZoneName,
  type UpdateSettingsRequest,
  updateSettingsRequest,
} from '@loyalty/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { z } from 'zod';
import { optionalNumberFromInput } from '@/lib/form';
import { saveSettings, settingsKeys } from '@/lib/settings-api';

const { holds, cards, points } = updateSettingsRequest.shape;

/** A stored whole number as its input's text; unset is an empty input. */
const text = (value: number | null | undefined) =>
  value === null || value === undefined ? '' : String(value);

/**
 * The 'Point Holds Configuration' inputs as typed, checked by the contract's own fields (their messages
 * name the field). Spec section 5: only the non-empty values are sent; an empty input keeps the stored value.
 * Of those, the card sends only the ones changed (onlyChanged).
 */
export const pointHoldsSchema = z
  .object({
    ttlMinutes: optionalNumberFromInput(holds.unwrap().shape.ttl_minutes, undefined),
    cardsLimit: optionalNumberFromInput(cards.unwrap().shape.limit_per_account, undefined),
  })
  .transform(({ ttlMinutes, cardsLimit }): UpdateSettingsRequest => {
    const body: UpdateSettingsRequest = {};
    if (ttlMinutes !== undefined && ttlMinutes !== null) body.holds = { ttl_minutes: ttlMinutes };
    if (cardsLimit !== undefined && cardsLimit !== null) body.cards = { limit_per_account: cardsLimit };
    return body;
  });

export function toPointHoldsValues(settings: Settings | undefined) {
  return {
    ttlMinutes: text(settings?.holds.ttl_minutes),
    cardsLimit: text(settings?.cards.limit_per_account),
  };
}

/**
 * The 'Points Expiry' inputs (issue 9), checked by the contract's fields; as above, only the values typed
 * are sent and an empty input keeps the stored one. `neverExpire` (the 'Points never expire' box) sends
 * `expiry_days: null`: without it an expiry, once set, could not be taken back from the console.
 */
export const pointsExpirySchema = z
  .object({
    expiryDays: optionalNumberFromInput(points.unwrap().shape.expiry_days, undefined),
    pendingDays: optionalNumberFromInput(points.unwrap().shape.pending_days, undefined),
    neverExpire: z.boolean(),
  })
  .transform(({ expiryDays, pendingDays, neverExpire }): UpdateSettingsRequest => {
    const sent: { expiry_days?: number | null; pending_days?: number } = {};
    if (neverExpire) sent.expiry_days = null;
    else if (expiryDays !== undefined && expiryDays !== null) sent.expiry_days = expiryDays;
    if (pendingDays !== undefined && pendingDays !== null) sent.pending_days = pendingDays;
    return Object.keys(sent).length > 0 ? { points: sent } : {};
  });

export function toPointsExpiryValues(settings: Settings | undefined) {
  const expiry = settings?.points?.expiry_days;
  return {
    expiryDays: text(expiry),
    pendingDays: text(settings?.points?.pending_days),
    // Unset is "never" (PROGRAMME-API §1); while the settings load, the box waits with them.
    neverExpire: settings !== undefined && (expiry === null || expiry === undefined),
  };
}

/** The programme's currency: an ISO 4217 code, upper-cased by the contract. */
export const programmeSchema = z
  .object({ currency: currencyCode })
  .transform(({ currency }): UpdateSettingsRequest => ({ programme: { currency } }));

export function toProgrammeValues(settings: Settings | undefined) {
  return { currency: settings?.programme?.currency ?? '' };
}

/** The programme's time zone: an IANA name, checked by the contract as the server checks it. */
export const timeZoneSchema = z
  .object({ timezone: timeZoneName })
  .transform(({ timezone }): UpdateSettingsRequest => ({ programme: { timezone } }));

export function toTimeZoneValues(settings: Settings | undefined) {
  return { timezone: settings?.programme?.timezone ?? '' };
}

/**
 * The server's fields a card sends ('holds.ttl_minutes'), each with the inputs that set it. Such a field is
 * sent only when one of them differs from the stored value: a page open since the settings loaded would
 * otherwise send back the values it loaded, over another administrator's changes made meanwhile.
 */
export type SentBy<Input> = Partial<Record<string, readonly (keyof Input & string)[]>>;

/** `body` without the fields of `sentBy` whose inputs are all unchanged; other fields stay as they are. */
export function onlyChanged<Input>(
  body: UpdateSettingsRequest,
  sentBy: SentBy<Input>,
  changed: (input: keyof Input & string) => boolean,
): UpdateSettingsRequest {
  const sent: Record<string, Record<string, unknown>> = {};
  for (const [group, fields] of Object.entries(body as Record<string, Record<string, unknown>>)) {
    const kept = Object.entries(fields).filter(([key]) => sentBy[`${group}.${key}`]?.some(changed) ?? true);
    if (kept.length > 0) sent[group] = Object.fromEntries(kept);
  }
  return sent as UpdateSettingsRequest;
}

/** Saves a settings change; both settings forms share the toasts and the cache update. */
export function useSaveSettings(onSaved: (saved: Settings) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveSettings,
    meta: { errorTitle: 'Save failed' },
    onSuccess: (saved) => {
      queryClient.setQueryData(settingsKeys.all, saved);
      onSaved(saved);
      toast.success('Settings saved successfully');
    },
  });
}
