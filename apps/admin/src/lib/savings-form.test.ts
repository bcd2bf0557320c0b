import { pledgeProductBody } from '@nadi/api/pledge';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { productBody, type ProductForm } from './savings-form.ts';

const window: ProductForm['window'] = [dayjs('2026-12-01T00:00:00Z'), dayjs('2027-12-01T00:00:00Z')];
const base: ProductForm = { kind: 'flexible', name: ' Flex ', day_rate: '0.035', min_pledge: '100', pool_cap: '1000000', window, is_enabled: true, sort: 10 };

describe('the savings product body', () => {
  it('sends the day rate as whole ppm, no term and no budget for a flexible product, and passes the contract', () => {
    const body = productBody({ ...base, term_epochs: 90, epoch_budget: '5' }, undefined);
    expect(body).toEqual({
      kind: 'flexible',
      name: 'Flex',
      term_epochs: 0,
      day_rate_ppm: 350,
      epoch_budget: null,
      min_pledge: '100',
      pool_cap: '1000000',
      starts_at: '2026-12-01T00:00:00.000Z',
      ends_at: '2027-12-01T00:00:00.000Z',
      is_enabled: true,
      sort: 10,
    });
    expect(pledgeProductBody.safeParse(body).success).toBe(true);
  });

  it('keeps the term of a locked product and the budget (no rate) of a joint one, with the id of an edit', () => {
    const locked = productBody({ ...base, kind: 'locked', term_epochs: 90 }, 4);
    expect(locked).toMatchObject({ id: 4, term_epochs: 90, day_rate_ppm: 350, epoch_budget: null });
    expect(pledgeProductBody.safeParse(locked).success).toBe(true);
    const joint = productBody({ ...base, kind: 'joint', epoch_budget: ' 10000 ', day_rate: '0.1' }, 5);
    expect(joint).toMatchObject({ id: 5, term_epochs: 0, day_rate_ppm: 0, epoch_budget: '10000' });
    expect(pledgeProductBody.safeParse(joint).success).toBe(true);
  });
});
