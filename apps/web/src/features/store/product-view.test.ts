import { describe, expect, it } from 'vitest';
import { orderQuantityMax } from '@nadi/api/store';
import { clampQuantity, powerFor, quantityBounds, stockView, totalFor } from './product-view.ts';

const onSale = { stock: 50, per_order_max: 5, is_on_sale: true };

describe('the quantity stepper', () => {
  it('is bounded by the per-order limit when the stock is larger', () => {
    expect(quantityBounds(onSale)).toEqual({ min: 1, max: 5, limitedBy: 'per_order' });
  });

  it('is bounded by the stock when fewer are left than one order may take', () => {
    expect(quantityBounds({ ...onSale, stock: 3 })).toEqual({ min: 1, max: 3, limitedBy: 'stock' });
  });

  it('never goes above the contract cap, whatever the product allows', () => {
    expect(quantityBounds({ stock: 10_000, per_order_max: 10_000, is_on_sale: true }).max).toBe(orderQuantityMax);
  });

  it('allows nothing when sold out or off sale', () => {
    expect(quantityBounds({ ...onSale, stock: 0 }).max).toBe(0);
    expect(quantityBounds({ ...onSale, is_on_sale: false }).max).toBe(0);
  });

  it('keeps a typed quantity inside the bounds', () => {
    const bounds = quantityBounds(onSale);
    expect(clampQuantity(0, bounds)).toBe(1);
    expect(clampQuantity(-4, bounds)).toBe(1);
    expect(clampQuantity(9, bounds)).toBe(5);
    expect(clampQuantity(2.7, bounds)).toBe(2);
    expect(clampQuantity(Number.NaN, bounds)).toBe(1);
    expect(clampQuantity(3, quantityBounds({ ...onSale, stock: 0 }))).toBe(1);
  });
});

describe('stock on the cards', () => {
  it('says sold out, few left or in stock', () => {
    expect(stockView({ stock: 0, is_on_sale: true })).toEqual({ key: 'store.product.soldOut', tone: 'none' });
    expect(stockView({ stock: 80, is_on_sale: false }).tone).toBe('none');
    expect(stockView({ stock: 10, is_on_sale: true })).toEqual({ key: 'store.product.fewLeft', tone: 'low' });
    expect(stockView({ stock: 11, is_on_sale: true })).toEqual({ key: 'store.product.inStock', tone: 'ok' });
  });
});

describe('what an order brings and costs', () => {
  it('adds the gift power to the base power, per unit and for the quantity', () => {
    expect(powerFor({ base_power: '35.00', gift_power: '5.00' })).toBe('40.00');
    expect(powerFor({ base_power: '35.00', gift_power: '5.50' }, 3)).toBe('121.50');
    expect(powerFor({ base_power: '1000.00', gift_power: '0.00' }, 2)).toBe('2,000.00');
  });

  it('multiplies the price exactly, never through a float', () => {
    expect(totalFor('299', 1)).toBe('299.00');
    expect(totalFor('0.1', 3)).toBe('0.30');
    expect(totalFor('1299.999999', 2)).toBe('2,599.999998');
    expect(totalFor('12345678901234.5', 100)).toBe('1,234,567,890,123,450.00');
  });
});
