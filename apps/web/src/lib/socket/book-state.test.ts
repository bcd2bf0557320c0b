import { describe, expect, it } from 'vitest';
import { BookState } from './book-state.ts';

describe('book state', () => {
  it('keeps levels best first from a snapshot, compared as amounts rather than text', () => {
    const book = new BookState();
    book.apply('snapshot', {
      asks: [
        ['10.5', '1'],
        ['9.75', '2'],
      ],
      bids: [
        ['9', '1'],
        ['10', '3'],
        ['9.5', '2'],
      ],
      seq: 1,
      prevSeq: -1,
    });
    expect(book.view(10)).toEqual({
      asks: [
        ['9.75', '2'],
        ['10.5', '1'],
      ],
      bids: [
        ['10', '3'],
        ['9.5', '2'],
        ['9', '1'],
      ],
    });
    expect(book.view(1).bids).toEqual([['10', '3']]);
  });

  it('applies updates in sequence; a size of "0" removes the level', () => {
    const book = new BookState();
    book.apply('snapshot', { asks: [['2', '1']], bids: [['1', '1']], seq: 5, prevSeq: -1 });
    expect(
      book.apply('update', {
        asks: [
          ['2', '0'],
          ['2.1', '4'],
        ],
        bids: [['1', '3']],
        seq: 6,
        prevSeq: 5,
      }),
    ).toBe('applied');
    expect(book.view(10)).toEqual({ asks: [['2.1', '4']], bids: [['1', '3']] });
    expect(book.seq).toBe(6);
  });

  it('reports a gap and clears the book until the next snapshot', () => {
    const book = new BookState();
    book.apply('snapshot', { asks: [['2', '1']], bids: [], seq: 5, prevSeq: -1 });
    expect(book.apply('update', { asks: [], bids: [['1', '1']], seq: 8, prevSeq: 7 })).toBe('gap');
    expect(book.isReady).toBe(false);
    expect(book.view(10)).toEqual({ asks: [], bids: [] });
    expect(book.apply('update', { asks: [], bids: [], seq: 9, prevSeq: 8 })).toBe('ignored');
    book.apply('snapshot', { asks: [], bids: [['1', '1']], seq: 9, prevSeq: -1 });
    expect(book.view(10).bids).toEqual([['1', '1']]);
  });

  it('ignores updates already contained in the snapshot', () => {
    const book = new BookState();
    book.load({ asks: [['2', '1']], bids: [], seq: 5 });
    expect(book.apply('update', { asks: [['2', '0']], bids: [], seq: 5, prevSeq: 4 })).toBe('ignored');
    expect(book.view(10).asks).toEqual([['2', '1']]);
  });
});
