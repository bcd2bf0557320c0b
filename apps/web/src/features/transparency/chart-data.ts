import type { TransparencySummary } from '@nadi/api/transparency';

// The page's two charts as the chart library takes them. Its values are JS numbers: they are used
// for pixels only, never for money (docs/style.md rule 1); every figure shown as text comes from
// the decimal strings.

export interface ChartPoint {
  /** Seconds since 1970 (the library's UTCTimestamp), strictly increasing within a series. */
  time: number;
  value: number;
}

/**
 * Sorted by time, and strictly increasing, as the chart library requires (it throws otherwise): two
 * points of the same second (an operator's snapshot right after an epoch's) are drawn a second apart.
 */
function increasing<T extends { time: number }>(points: T[]): T[] {
  const sorted = [...points].sort((a, b) => a.time - b.time);
  let last = -Infinity;
  return sorted.map((point) => {
    const time = point.time <= last ? last + 1 : point.time;
    last = time;
    return { ...point, time };
  });
}

function seconds(iso: string): number | null {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : Math.floor(ms / 1000);
}

/** Emitted and scheduled NADI per settled epoch, at each epoch's end. */
export function emissionSeries(emission: TransparencySummary['emission']): { emitted: ChartPoint[]; scheduled: ChartPoint[] } {
  const rows = emission.flatMap((point) => {
    const time = seconds(point.ended_at);
    return time === null ? [] : [{ time, emitted: Number(point.emitted), scheduled: Number(point.scheduled) }];
  });
  const sorted = increasing(rows);
  return {
    emitted: sorted.map((row) => ({ time: row.time, value: row.emitted })),
    scheduled: sorted.map((row) => ({ time: row.time, value: row.scheduled })),
  };
}

/** Reserves ÷ liabilities in percent per snapshot, one series per asset; a snapshot owing nothing has no ratio. */
export function coverSeries(history: TransparencySummary['cover_history']): Record<'NADI' | 'USDT', ChartPoint[]> {
  const series: Record<'NADI' | 'USDT', ChartPoint[]> = { NADI: [], USDT: [] };
  for (const point of history) {
    const time = seconds(point.taken_at);
    const liabilities = Number(point.liabilities);
    if (time === null || !(liabilities > 0)) continue;
    series[point.asset].push({ time, value: (Number(point.reserves) / liabilities) * 100 });
  }
  return { NADI: increasing(series.NADI), USDT: increasing(series.USDT) };
}
