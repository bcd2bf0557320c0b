// `npm run cluster`: the production topology on this machine (docs/operations.md, "The cluster").
// Options: --instances N (default 3), --epoch-seconds S, --no-web (API only), --no-prometheus,
// --dir D (keep the folder; default a throw-away one). Ctrl-C stops every part.
import { parseArgs } from 'node:util';
import { startCluster } from './cluster.ts';

const { values } = parseArgs({
  options: {
    instances: { type: 'string', default: '3' },
    'epoch-seconds': { type: 'string' },
    'no-web': { type: 'boolean', default: false },
    'no-prometheus': { type: 'boolean', default: false },
    dir: { type: 'string' },
  },
});
const instances = Number(values.instances);
if (!Number.isInteger(instances) || instances < 1 || instances > 16) throw new Error('--instances must be a whole number from 1 to 16');
const epochSeconds = values['epoch-seconds'] ? Number(values['epoch-seconds']) : undefined;
if (epochSeconds !== undefined && !(Number.isInteger(epochSeconds) && epochSeconds >= 10))
  throw new Error('--epoch-seconds must be a whole number of at least 10');

const started = Date.now();
const cluster = await startCluster({
  instances,
  web: !values['no-web'],
  prometheus: !values['no-prometheus'],
  ...(epochSeconds ? { epochSeconds } : {}),
  ...(values.dir ? { dir: values.dir } : {}),
});
let isStopping = false;
const stop = () => {
  if (isStopping) return;
  isStopping = true;
  console.info('\nstopping the cluster…');
  cluster.stop().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
console.info(`
  NADI cluster is running (ready in ${((Date.now() - started) / 1000).toFixed(1)} s)

    App          ${cluster.url}   (TLS from a local CA: ${cluster.caFile})
    Console      ${cluster.url}/admin (operators: ${cluster.operators.map((o) => o.address).join(', ')})
    Instances    ${cluster.instances.map((i) => `${i.name} ${i.directUrl}`).join(', ')}
    Prometheus   ${cluster.prometheus?.url ?? 'off'}
    PostgreSQL   ${cluster.databaseUrl}
    Redis        ${cluster.redisUrl}
    Chain RPC    ${cluster.chainRpcUrl} (instances reach it through ${cluster.rpcUrl})
    Invite code  ${cluster.rootInviteCode}
    Folder       ${cluster.dir} (keys, secrets, logs; removed at stop)

  A browser must trust the CA (or be started with --ignore-certificate-errors). Ctrl-C stops everything.
`);
