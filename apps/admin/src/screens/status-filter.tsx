import type { CrudFilter } from '@refinedev/core';
import { Select } from 'antd';

/** A list screen's status filter (Refine's `eq` filter on `status`), "All" clearing it. */
export function StatusFilter<V extends string | number>(props: {
  filters: CrudFilter[];
  setFilters: (filters: CrudFilter[], behavior: 'replace') => void;
  options: { value: V; label: string }[];
  width?: number;
}) {
  const status = props.filters.find((f) => 'field' in f && f.field === 'status')?.value as V | undefined;
  return (
    <Select<V | 'all'>
      style={{ width: props.width ?? 180 }}
      value={status ?? 'all'}
      onChange={(value) => props.setFilters([{ field: 'status', operator: 'eq', value: value === 'all' ? undefined : value }], 'replace')}
      options={[{ value: 'all', label: 'All' }, ...props.options]}
    />
  );
}
