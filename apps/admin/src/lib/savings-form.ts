// The savings product form's values and the save route's body made from them (exact: the day rate
// typed in percent becomes whole ppm by string math, fields of other kinds are left out).
import type { PledgeKind } from '@nadi/api/pledge';
import type { Dayjs } from 'dayjs';
import { percentToPpm } from './decimal.ts';

export interface ProductForm {
  kind: PledgeKind;
  name: string;
  term_epochs?: number;
  /** Percent a day, as typed ("0.03"); sent as day_rate_ppm. */
  day_rate?: string;
  epoch_budget?: string;
  min_pledge: string;
  pool_cap: string;
  window: [Dayjs, Dayjs];
  is_enabled: boolean;
  sort: number;
}

/** The save route's body from the form: fields of other kinds left out, the rate as whole ppm. */
export function productBody(values: ProductForm, id: number | undefined): Record<string, unknown> {
  const [starts, ends] = values.window;
  return {
    ...(id === undefined ? {} : { id }),
    kind: values.kind,
    name: values.name.trim(),
    term_epochs: values.kind === 'locked' ? values.term_epochs : 0,
    day_rate_ppm: values.kind === 'joint' ? 0 : percentToPpm(values.day_rate ?? ''),
    epoch_budget: values.kind === 'joint' ? (values.epoch_budget ?? '').trim() : null,
    min_pledge: values.min_pledge.trim(),
    pool_cap: values.pool_cap.trim(),
    starts_at: starts.toISOString(),
    ends_at: ends.toISOString(),
    is_enabled: values.is_enabled,
    sort: values.sort,
  };
}
