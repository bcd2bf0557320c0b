import { queryOptions, useQuery } from '@tanstack/react-query';
import { noticeRoutes } from '@nadi/api/notice';
import { call } from '../../../lib/api-client.ts';

export function getNotice({ id, signal }: { id: number; signal?: AbortSignal }) {
  return call(noticeRoutes.detail, { id }, { signal, isSilent: true });
}

export const noticeQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ['notice', 'detail', id],
    queryFn: ({ signal }) => getNotice({ id, signal }),
  });

export function useNotice(id: number) {
  return useQuery({ ...noticeQueryOptions(id), enabled: Number.isInteger(id) && id > 0 });
}
