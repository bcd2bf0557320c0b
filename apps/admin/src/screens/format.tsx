import { configRoutes } from '@nadi/api/config';
import { useQuery } from '@tanstack/react-query';
import { Tag, Typography } from 'antd';
import { callRoute } from '../lib/api.ts';

/** An address shortened, whole on hover and copyable. */
export function Address({ value }: { value: string }) {
  return (
    <Typography.Text copyable={{ text: value }} title={value} style={{ fontFamily: 'monospace' }}>
      {`${value.slice(0, 6)}…${value.slice(-4)}`}
    </Typography.Text>
  );
}

/** Amounts arrive as decimal strings (bigint base units formatted by the server); shown as they are. */
export function Amount({ value, unit }: { value: string | null; unit?: string }) {
  if (value === null) return <>—</>;
  return <span style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>{unit ? `${value} ${unit}` : value}</span>;
}

export function DateTime({ value }: { value: string | null }) {
  return <>{value ? new Date(value).toLocaleString('en-GB', { hour12: false }) : '—'}</>;
}

const statusColors: Record<string, string> = {
  pending: 'gold',
  to_ship: 'gold',
  sending: 'blue',
  to_receive: 'blue',
  completed: 'green',
  rejected: 'red',
  refunded: 'red',
  cancelled: 'default',
  unpaid: 'default',
};

export function Status({ value, label }: { value: string; label?: string }) {
  return <Tag color={statusColors[value] ?? 'default'}>{label ?? value.replace('_', ' ')}</Tag>;
}

/** The chain explorer of the deployment (null on the local chain), from the public config. */
export function useExplorerUrl(): string | null {
  const config = useQuery({ queryKey: ['config'], queryFn: () => callRoute(configRoutes.config), staleTime: Infinity });
  return config.data?.chain.explorer_url ?? null;
}

/** A transaction hash, shortened and copyable, linked to the explorer when there is one. */
export function TxLink({ hash, explorer }: { hash: string; explorer: string | null }) {
  const short = `${hash.slice(0, 10)}…${hash.slice(-6)}`;
  return (
    <Typography.Text copyable={{ text: hash }} title={hash} style={{ fontFamily: 'monospace', fontSize: 12 }}>
      {explorer ? (
        <a href={`${explorer.replace(/\/$/, '')}/tx/${hash}`} target="_blank" rel="noreferrer">
          {short}
        </a>
      ) : (
        short
      )}
    </Typography.Text>
  );
}
